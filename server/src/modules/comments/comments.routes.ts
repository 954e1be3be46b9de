import type { FastifyInstance } from 'fastify';
import { commentsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { CommentsService } from './comments.service.ts';

export function registerComments(app: FastifyInstance, ctx: AppContext): void {
  const svc = new CommentsService(ctx);
  defineRoute(app, ctx, commentsRoutes.list, async (c) => ({ data: await svc.list(caller(c), c.query.topicId) }));
  defineRoute(app, ctx, commentsRoutes.add, async (c) => ({
    key: 'created',
    data: await svc.add(caller(c), c.body.topicId, c.body.commentContent),
  }));
  defineRoute(app, ctx, commentsRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.commentId);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, commentsRoutes.replyAdd, async (c) => ({
    key: 'created',
    data: await svc.reply(caller(c), c.body.commentId, c.body.replayContent, c.body.replyId),
  }));
  defineRoute(app, ctx, commentsRoutes.replyDelete, async (c) => {
    await svc.removeReply(caller(c), c.body.replayId);
    return { key: 'deleted' };
  });
}
