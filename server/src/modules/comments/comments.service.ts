import { COMMENT_MAX_CHARS, Status, type CommentRow, type ReplyRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { isSuperAdmin, type SessionUser } from '../../platform/auth/access.ts';
import * as repo from './comments.repository.ts';

/**
 * Plain text: control characters other than tab and line breaks removed (PostgreSQL refuses NUL), trimmed,
 * 1 to COMMENT_MAX_CHARS characters. It is stored and answered as typed; showing it as text is the web's part.
 */
function content(raw: string, field: string): string {
  // eslint-disable-next-line no-control-regex
  const text = raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  if (!text) throw new AppError(Status.invalid, 'contentRequired', {}, { errors: [{ field, rule: 'required' }] });
  if (text.length > COMMENT_MAX_CHARS) throw new AppError(Status.invalid, 'validation', { details: field });
  return text;
}

const mayDelete = (user: SessionUser, authorId: number | null): boolean =>
  isSuperAdmin(user) || (authorId !== null && authorId === user.id);

const presentReply = (user: SessionUser, r: repo.ReplyRecord): ReplyRow => ({
  replayId: r.id,
  commentId: r.commentId,
  replayContent: r.content,
  replyId: r.replyToId,
  replyToName: r.replyToName,
  authorId: r.authorId,
  authorName: r.authorName,
  createdAt: r.createdAt.toISOString(),
  canDelete: mayDelete(user, r.authorId),
});

/**
 * The message board. Any signed-in user reads and writes any topic (topics are identifiers chosen by the screens,
 * not site data); only the author or a super administrator deletes.
 */
export class CommentsService {
  constructor(private readonly ctx: AppContext) {}

  async list(user: SessionUser, topicId: string): Promise<CommentRow[]> {
    const { comments, replies } = await repo.commentsOfTopic(this.ctx.db, topicId);
    return comments.map((c) => ({
      commentId: c.id,
      topicId: c.topicId,
      commentContent: c.content,
      authorId: c.authorId,
      authorName: c.authorName,
      createdAt: c.createdAt.toISOString(),
      canDelete: mayDelete(user, c.authorId),
      replies: replies.filter((r) => r.commentId === c.id).map((r) => presentReply(user, r)),
    }));
  }

  async add(user: SessionUser, topicId: string, raw: string): Promise<CommentRow> {
    const id = await repo.insertComment(this.ctx.db, {
      topicId,
      content: content(raw, 'commentContent'),
      authorId: user.id,
      authorName: user.name,
    });
    const c = (await repo.getComment(this.ctx.db, id))!;
    return {
      commentId: c.id,
      topicId: c.topicId,
      commentContent: c.content,
      authorId: c.authorId,
      authorName: c.authorName,
      createdAt: c.createdAt.toISOString(),
      canDelete: true,
      replies: [],
    };
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    const c = await repo.getComment(this.ctx.db, id);
    if (!c) throw new AppError(Status.notFound, 'commentNotFound');
    if (!mayDelete(user, c.authorId)) throw new AppError(Status.forbidden, 'notAuthor');
    await repo.deleteComment(this.ctx.db, id);
  }

  async reply(user: SessionUser, commentId: number, raw: string, replyTo?: number): Promise<ReplyRow> {
    const text = content(raw, 'replayContent');
    if (!(await repo.getComment(this.ctx.db, commentId))) throw new AppError(Status.notFound, 'commentNotFound');
    if (replyTo !== undefined) {
      const target = await repo.getReply(this.ctx.db, replyTo);
      if (!target || target.commentId !== commentId) throw new AppError(Status.notFound, 'replyNotFound');
    }
    const id = await repo.insertReply(this.ctx.db, {
      commentId,
      replyToId: replyTo ?? null,
      content: text,
      authorId: user.id,
      authorName: user.name,
    });
    return presentReply(user, (await repo.getReply(this.ctx.db, id))!);
  }

  async removeReply(user: SessionUser, id: number): Promise<void> {
    const r = await repo.getReply(this.ctx.db, id);
    if (!r) throw new AppError(Status.notFound, 'replyNotFound');
    if (!mayDelete(user, r.authorId)) throw new AppError(Status.forbidden, 'notAuthor');
    await repo.deleteReply(this.ctx.db, id);
  }
}
