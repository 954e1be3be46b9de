// The comments feature's contract: the message board (spec §3 "Message board": Comment and Reply).
import { z } from 'zod';
import { decimalInt, zInt } from '../api/zod.ts';
import { LOGIN, routeTable } from '../api/routes.ts';

/**
 * Comments hang off a topic (any identifier the screen uses: a task, an alert, a site, ...). A reply answers a
 * comment, or another reply of the same comment (replyId). Content is plain text of at most COMMENT_MAX_CHARS
 * characters, answered as stored: the web shows it as text (never as HTML). Only the author or a super
 * administrator may delete a comment or a reply; deleting a comment deletes its replies.
 * The names keep the spec's spelling: replayId, replayContent.
 */
export const COMMENT_MAX_CHARS = 2000;

/** Missing content becomes '' so that the service answers "the content cannot be empty". */
const content = z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string().max(COMMENT_MAX_CHARS));

export const commentTopicSchema = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.:-]+$/),
);

export const commentTopicQuery = z.object({ topicId: commentTopicSchema });
export const commentAddBody = z.object({ topicId: commentTopicSchema, commentContent: content });
export const commentDeleteBody = z.object({ commentId: zInt() });
export const replyAddBody = z.object({
  commentId: zInt(),
  replayContent: content,
  /** The reply this one answers (a reply of the same comment). */
  replyId: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? decimalInt(v) : v),
    z.number().int().optional(),
  ),
});
export const replyDeleteBody = z.object({ replayId: zInt() });

export const replyRowSchema = z.object({
  replayId: z.number().int(),
  commentId: z.number().int(),
  replayContent: z.string(),
  /** The reply this one answers, or null (answering the comment itself, or the answered reply was deleted). */
  replyId: z.number().int().nullable(),
  replyToName: z.string().nullable(),
  authorId: z.number().int().nullable(),
  authorName: z.string(),
  createdAt: z.string(),
  /** The caller may delete it (its author, or a super administrator). */
  canDelete: z.boolean(),
});
export type ReplyRow = z.output<typeof replyRowSchema>;

export const commentRowSchema = z.object({
  commentId: z.number().int(),
  topicId: z.string(),
  commentContent: z.string(),
  authorId: z.number().int().nullable(),
  authorName: z.string(),
  createdAt: z.string(),
  canDelete: z.boolean(),
  /** Oldest first. */
  replies: z.array(replyRowSchema),
});
export type CommentRow = z.output<typeof commentRowSchema>;

const tags = ['comments'];
export const commentsRoutes = routeTable({
  list: {
    method: 'GET',
    path: '/api/v2/data/comment/getCommentByTopicId',
    permission: LOGIN,
    summary: 'The comments of a topic, newest first, each with its replies (oldest first)',
    tags,
    query: commentTopicQuery,
    response: z.array(commentRowSchema),
  },
  add: {
    method: 'POST',
    path: '/api/v2/data/comment/add',
    permission: LOGIN,
    summary: 'Add a comment to a topic; answers the comment',
    tags,
    body: commentAddBody,
    response: commentRowSchema,
  },
  delete: {
    method: 'POST',
    path: '/api/v2/data/comment/delete',
    permission: LOGIN,
    summary: 'Delete a comment and its replies (its author or a super administrator)',
    tags,
    body: commentDeleteBody,
    response: z.null(),
  },
  replyAdd: {
    method: 'POST',
    path: '/api/v2/data/reply/add',
    permission: LOGIN,
    summary: 'Reply to a comment, or to a reply of it (replyId); answers the reply',
    tags,
    body: replyAddBody,
    response: replyRowSchema,
  },
  replyDelete: {
    method: 'POST',
    path: '/api/v2/data/reply/delete',
    permission: LOGIN,
    summary: 'Delete a reply (its author or a super administrator)',
    tags,
    body: replyDeleteBody,
    response: z.null(),
  },
});
