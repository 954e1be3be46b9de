import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Avatar, Button, Empty, Flex, Input, Popconfirm, Skeleton, Typography, message, theme } from 'antd';
import { MessageOutlined, UserOutlined } from '@ant-design/icons';
import { COMMENT_MAX_CHARS, type CommentRow, type ReplyRow } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { formatTime } from '../../shared/time.ts';
import { addComment, addReply, commentKeys, deleteComment, deleteReply, fetchComments } from './commentsApi.ts';

export interface MessageBoardProps {
  /** The topic the comments hang off (a site owner, a task, an alert...). */
  topicId: string;
}

/** Where a reply box is open: under a comment, answering the comment itself or one of its replies. */
interface ReplyTarget {
  commentId: number;
  replyId?: number | undefined;
  to: string;
}

/** A text box with a counter and a send button; refuses empty text. */
function Composer(props: {
  placeholder: string;
  submitText: string;
  pending: boolean;
  autoFocus?: boolean;
  testId: string;
  onSubmit: (text: string) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('comments');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!text.trim()) {
      setError(t('errors.empty'));
      return;
    }
    setError(null);
    props
      .onSubmit(text)
      .then(() => setText(''))
      .catch(() => undefined);
  };
  return (
    <Flex vertical gap={6}>
      <Input.TextArea
        data-testid={props.testId}
        value={text}
        maxLength={COMMENT_MAX_CHARS}
        showCount
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={props.placeholder}
        status={error ? 'error' : undefined}
        autoFocus={props.autoFocus}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(null);
        }}
      />
      <Flex justify="space-between" align="center" gap={8} style={{ marginTop: 12 }}>
        <Typography.Text type="danger">{error}</Typography.Text>
        <Flex gap={8}>
          {props.onCancel ? <Button onClick={props.onCancel}>{t('cancel')}</Button> : null}
          <Button type="primary" loading={props.pending} data-testid={`${props.testId}-submit`} onClick={submit}>
            {props.submitText}
          </Button>
        </Flex>
      </Flex>
    </Flex>
  );
}

/** Author, time and plain text of one comment or reply (text is rendered as text, never as HTML). */
function Entry(props: {
  author: string;
  time: string;
  text: string;
  replyTo?: string | null | undefined;
  small?: boolean;
  actions: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('comments');
  const { token } = theme.useToken();
  return (
    <Flex gap={12} align="flex-start" data-testid={props.testId}>
      <Avatar
        size={props.small ? 28 : 36}
        icon={<UserOutlined />}
        style={{ background: props.small ? token.colorFillSecondary : token.colorPrimaryBg, color: token.colorPrimary }}
      />
      <Flex vertical gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Flex gap={8} align="baseline" wrap>
          <Typography.Text strong>{props.author}</Typography.Text>
          {props.replyTo ? (
            <Typography.Text type="secondary">{t('replyTo', { name: props.replyTo })}</Typography.Text>
          ) : null}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatTime(props.time)}
          </Typography.Text>
        </Flex>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0 }}>
          {props.text}
        </Typography.Paragraph>
        <Flex gap={0}>{props.actions}</Flex>
      </Flex>
    </Flex>
  );
}

/**
 * The message board of a topic (spec §3): comments newest first with their replies nested (oldest first);
 * add a comment, reply to a comment or to a reply, delete one's own (the server decides who may).
 */
export function MessageBoard({ topicId }: MessageBoardProps) {
  const { t } = useTranslation('comments');
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [target, setTarget] = useState<ReplyTarget | null>(null);

  const list = useQuery({
    queryKey: commentKeys.topic(topicId),
    queryFn: () => fetchComments(topicId),
    retry: (n, e) => !isCancel(e) && n < 1,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: commentKeys.topic(topicId) });

  const add = useMutation({
    mutationFn: (text: string) => addComment(topicId, text),
    onSuccess: () => {
      void msg.success(t('messages.added'));
      void refresh();
    },
  });
  const reply = useMutation({
    mutationFn: (v: { target: ReplyTarget; text: string }) => addReply(v.target.commentId, v.text, v.target.replyId),
    onSuccess: () => {
      void msg.success(t('messages.replied'));
      setTarget(null);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (v: { comment?: number; reply?: number }) =>
      v.comment !== undefined ? deleteComment(v.comment) : deleteReply(v.reply ?? 0),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      void refresh();
    },
  });

  const replyBox = (c: CommentRow, replyId?: number) =>
    target && target.commentId === c.commentId && target.replyId === replyId ? (
      <div style={{ marginTop: 8 }}>
        <Composer
          autoFocus
          testId="reply-input"
          placeholder={t('replyPlaceholder', { name: target.to })}
          submitText={t('reply')}
          pending={reply.isPending}
          onSubmit={(text) => reply.mutateAsync({ target, text })}
          onCancel={() => setTarget(null)}
        />
      </div>
    ) : null;

  const deleteButton = (what: { comment?: number; reply?: number }, testId: string) => (
    <Popconfirm
      title={t(what.comment !== undefined ? 'confirm.deleteComment' : 'confirm.deleteReply')}
      okText={t('delete')}
      cancelText={t('cancel')}
      okButtonProps={{ danger: true, 'data-testid': `${testId}-confirm` }}
      onConfirm={() => remove.mutateAsync(what).catch(() => undefined)}
    >
      <Button type="link" size="small" danger data-testid={testId}>
        {t('delete')}
      </Button>
    </Popconfirm>
  );

  const replyRow = (c: CommentRow, r: ReplyRow) => (
    <div key={r.replayId}>
      <Entry
        small
        testId="reply-item"
        author={r.authorName}
        time={r.createdAt}
        text={r.replayContent}
        replyTo={r.replyToName}
        actions={
          <>
            <Button
              type="link"
              size="small"
              data-testid="reply-open"
              onClick={() => setTarget({ commentId: c.commentId, replyId: r.replayId, to: r.authorName })}
            >
              {t('reply')}
            </Button>
            {r.canDelete ? deleteButton({ reply: r.replayId }, 'reply-delete') : null}
          </>
        }
      />
      {replyBox(c, r.replayId)}
    </div>
  );

  const comments = list.data ?? [];
  return (
    <Flex vertical gap={16} data-testid="message-board">
      {msgHolder}
      <Composer
        testId="comment-input"
        placeholder={t('placeholder', { max: COMMENT_MAX_CHARS })}
        submitText={t('submit')}
        pending={add.isPending}
        onSubmit={(text) => add.mutateAsync(text)}
      />
      {list.isLoading ? (
        <Skeleton active avatar />
      ) : comments.length === 0 ? (
        <Empty
          image={<MessageOutlined style={{ fontSize: 40, color: token.colorTextQuaternary }} />}
          description={t('empty')}
        />
      ) : (
        <Flex vertical gap={16}>
          <Typography.Text type="secondary">{t('count', { count: comments.length })}</Typography.Text>
          {comments.map((c) => (
            <div
              key={c.commentId}
              style={{ paddingBottom: 12, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
            >
              <Entry
                testId="comment-item"
                author={c.authorName}
                time={c.createdAt}
                text={c.commentContent}
                actions={
                  <>
                    <Button
                      type="link"
                      size="small"
                      data-testid="comment-reply"
                      onClick={() => setTarget({ commentId: c.commentId, to: c.authorName })}
                    >
                      {t('reply')}
                    </Button>
                    {c.canDelete ? deleteButton({ comment: c.commentId }, 'comment-delete') : null}
                  </>
                }
              />
              <div style={{ marginLeft: 48 }}>
                {replyBox(c)}
                {c.replies.length > 0 ? (
                  <Flex
                    vertical
                    gap={10}
                    style={{
                      marginTop: 8,
                      padding: 12,
                      background: token.colorFillQuaternary,
                      borderRadius: token.borderRadiusLG,
                    }}
                  >
                    {c.replies.map((r) => replyRow(c, r))}
                  </Flex>
                ) : null}
              </div>
            </div>
          ))}
        </Flex>
      )}
    </Flex>
  );
}
