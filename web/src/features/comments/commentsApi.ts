import { commentsRoutes, type CommentRow, type ReplyRow } from '@geosentry/contract';
import { callUntyped } from '../../shared/api.ts';

export const commentKeys = { topic: (topicId: string) => ['comments', topicId] as const };

const change = { keepEarlier: true } as const;
export const fetchComments = (topicId: string) => callUntyped<CommentRow[]>(commentsRoutes.list, { topicId });
export const addComment = (topicId: string, commentContent: string) =>
  callUntyped<CommentRow>(commentsRoutes.add, { topicId, commentContent }, change);
export const deleteComment = (commentId: number) => callUntyped<null>(commentsRoutes.delete, { commentId }, change);
export const addReply = (commentId: number, replayContent: string, replyId?: number) =>
  callUntyped<ReplyRow>(commentsRoutes.replyAdd, { commentId, replayContent, replyId }, change);
export const deleteReply = (replayId: number) => callUntyped<null>(commentsRoutes.replyDelete, { replayId }, change);
