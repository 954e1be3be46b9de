import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type CommentRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { userToken } from '../devices/testkit.ts';

const C = '/api/v2/data/comment';
const R = '/api/v2/data/reply';

// Issue 15, finding 5: the message board follows the data scope. A topic naming a site's object is site data;
// to a caller outside the site it answers exactly like a missing one, and nothing is read or written.
describe('message board data scope (security)', () => {
  let t: TestApp;
  let admin: string;
  let mallory: string;
  let own: number;
  let foreign: number;
  let foreignComment: number;
  let foreignReply: number;
  const counts = async (): Promise<[number, number]> => {
    const c = await t.db.k
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const r = await t.db.k
      .selectFrom('comment_replies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return [Number(c.n), Number(r.n)];
  };
  const strip = (r: { status: number; info: string; data: unknown }) => ({
    status: r.status,
    info: r.info,
    data: r.data,
  });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    own = await buildPlatform(t, { type: 'disaster', name: 'Own slope' });
    foreign = await buildPlatform(t, { type: 'disaster', name: 'Foreign slope' });
    mallory = await userToken(t, admin, { account: 'mallory', roleCode: 'user', platformIds: [own] });
    const c = await t.api<CommentRow>('POST', `${C}/add`, {
      token: admin,
      body: { topicId: `platform:${foreign}`, commentContent: 'Crack widening at the toe' },
    });
    expect(c.status).toBe(0);
    foreignComment = c.data.commentId;
    const r = await t.api<{ replayId: number }>('POST', `${R}/add`, {
      token: admin,
      body: { commentId: foreignComment, replayContent: 'Inspected' },
    });
    expect(r.status).toBe(0);
    foreignReply = r.data.replayId;
  });
  afterAll(() => t.close());

  it('reads and writes the comments of its own sites', async () => {
    const add = await t.api('POST', `${C}/add`, {
      token: mallory,
      body: { topicId: `platform:${own}`, commentContent: 'ok' },
    });
    expect(add.status).toBe(0);
    const list = await t.api<CommentRow[]>('GET', `${C}/getCommentByTopicId`, {
      token: mallory,
      query: { topicId: `platform:${own}` },
    });
    expect(list.data.map((c) => c.commentContent)).toEqual(['ok']);
  });

  it('answers a foreign site topic exactly like a missing one, reading and writing nothing', async () => {
    const before = await counts();
    const missing = 2_000_000_000;
    const pairs: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
      ['GET', `${C}/getCommentByTopicId`, { topicId: `platform:${foreign}` }, { topicId: `platform:${missing}` }],
      [
        'POST',
        `${C}/add`,
        { topicId: `platform:${foreign}`, commentContent: 'x' },
        { topicId: `platform:${missing}`, commentContent: 'x' },
      ],
      [
        'POST',
        `${R}/add`,
        { commentId: foreignComment, replayContent: 'x' },
        { commentId: missing, replayContent: 'x' },
      ],
      ['POST', `${C}/delete`, { commentId: foreignComment }, { commentId: missing }],
      ['POST', `${R}/delete`, { replayId: foreignReply }, { replayId: missing }],
    ];
    for (const [method, path, foreignArgs, missingArgs] of pairs) {
      const call = (args: Record<string, unknown>) =>
        t.api(method as 'GET' | 'POST', path, {
          token: mallory,
          ...(method === 'GET' ? { query: args as Record<string, string> } : { body: args }),
        });
      const a = strip(await call(foreignArgs));
      const b = strip(await call(missingArgs));
      expect(a.status, path).toBe(Status.notFound);
      expect(a, path).toEqual(b);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses look-alike spellings of a site topic instead of treating them as free topics', async () => {
    for (const topicId of [`Platform:${foreign}`, `platform:0${foreign}`, `PLATFORM:${foreign}`]) {
      const r = await t.api('GET', `${C}/getCommentByTopicId`, { token: mallory, query: { topicId } });
      expect(r.status, topicId).toBe(Status.invalid);
    }
  });

  it('keeps free topics open to every signed-in user', async () => {
    const r = await t.api('POST', `${C}/add`, { token: mallory, body: { topicId: 'task-17', commentContent: 'hi' } });
    expect(r.status).toBe(0);
  });
});
