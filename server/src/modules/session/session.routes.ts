import type { FastifyInstance } from 'fastify';
import { sessionRoutes, type LoginResult } from '@geosentry/contract';
import { caller, defineRoute, type Answer } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { SessionService } from './session.service.ts';
import { updateOwnTimeZone } from './session.timeZone.ts';

export function registerSession(app: FastifyInstance, ctx: AppContext): SessionService {
  const svc = new SessionService(ctx);
  defineRoute(app, ctx, sessionRoutes.publicConfig, async () => ({ data: svc.publicConfig() }));
  defineRoute(app, ctx, sessionRoutes.captcha, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return { data: await svc.captcha() };
  });
  // The contract's schema is the success answer's data; the "logged in elsewhere" warning carries a ticket instead.
  defineRoute(app, ctx, sessionRoutes.login, async (c) => (await svc.login(c.body, c)) as Answer<LoginResult>);
  defineRoute(app, ctx, sessionRoutes.getUserInfo, async (c) => ({ data: await svc.userInfo(caller(c)) }));
  defineRoute(app, ctx, sessionRoutes.updateUserInfo, async (c) => ({
    key: 'modified',
    data: await updateOwnTimeZone(ctx, caller(c), c.body.timeZone),
  }));
  defineRoute(app, ctx, sessionRoutes.logout, async (c) => {
    await svc.logout(caller(c), c);
  });
  defineRoute(app, ctx, sessionRoutes.changePassword, async (c) => {
    await svc.changePassword(caller(c), c.body, c);
    return { key: 'passwordChanged' };
  });
  return svc;
}
