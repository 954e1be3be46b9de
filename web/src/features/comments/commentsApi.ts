import { commentsRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';

export const commentKeys = { topic: (topicId: string) => ['comments', topicId] as const };

const change = { keepEarlier: true } as const;
export const fetchComments = (topicId: string) => call(commentsRoutes.list, { topicId });
export const addComment = (topicId: string, commentContent: string) =>
  call(commentsRoutes.add, { topicId, commentContent }, change);
export const deleteComment = (commentId: number) => call(commentsRoutes.delete, { commentId }, change);
export const addReply = (commentId: number, replayContent: string, replyId?: number) =>
  call(commentsRoutes.replyAdd, { commentId, replayContent, replyId }, change);
export const deleteReply = (replayId: number) => call(commentsRoutes.replyDelete, { replayId }, change);
