import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type CommentRow, type ReplyRow } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { userToken } from '../devices/testkit.ts';

const C = '/api/v2/data/comment';
const R = '/api/v2/data/reply';

describe('message board', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  const list = async (topicId: string, token = alice): Promise<CommentRow[]> => {
    const r = await t.api<CommentRow[]>('GET', `${C}/getCommentByTopicId`, { token, query: { topicId } });
    expect(r.status).toBe(0);
    return r.data;
  };
  const rows = async (): Promise<number[]> =>
    Promise.all(
      (['comments', 'comment_replies'] as const).map(async (table) =>
        Number(
          (
            await t.db.k
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ),
    );

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    alice = await userToken(t, admin, { account: 'alice', roleCode: 'user' });
    bob = await userToken(t, admin, { account: 'bob', roleCode: 'user' });
  });
  afterAll(() => t.close());

  it('adds comments and replies with author and time, keeping the text as typed', async () => {
    const text = '<b>Crack</b> near gauge 3 <script>alert(1)</script>\nsecond line';
    const added = await t.api<CommentRow>('POST', `${C}/add`, {
      token: alice,
      form: true,
      body: { topicId: 'task-17', commentContent: `  ${text}  ` },
    });
    expect(added.status).toBe(0);
    expect(added.data).toMatchObject({
      topicId: 'task-17',
      commentContent: text,
      authorName: 'alice',
      canDelete: true,
    });
    expect(Date.parse(added.data.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const commentId = added.data.commentId;

    const r1 = await t.api<ReplyRow>('POST', `${R}/add`, {
      token: bob,
      form: true,
      body: { commentId, replayContent: 'Checked, it is old' },
    });
    expect(r1.data).toMatchObject({ commentId, replayContent: 'Checked, it is old', replyId: null, authorName: 'bob' });
    const r2 = await t.api<ReplyRow>('POST', `${R}/add`, {
      token: alice,
      body: { commentId, replayContent: 'Thanks', replyId: r1.data.replayId },
    });
    expect(r2.data).toMatchObject({ replyId: r1.data.replayId, replyToName: 'bob', authorName: 'alice' });

    const seen = await list('task-17', bob);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ commentContent: text, canDelete: false });
    expect(seen[0]!.replies.map((r) => [r.replayContent, r.authorName, r.canDelete])).toEqual([
      ['Checked, it is old', 'bob', true],
      ['Thanks', 'alice', false],
    ]);
    expect(await list('task-18')).toEqual([]);

    // Newest comment first.
    await t.api('POST', `${C}/add`, { token: bob, body: { topicId: 'task-17', commentContent: 'Later' } });
    expect((await list('task-17')).map((c) => c.commentContent)).toEqual(['Later', text]);
  });

  it('refuses empty, too long or misplaced input and stores nothing', async () => {
    const before = await rows();
    const c = (
      await t.api<CommentRow>('POST', `${C}/add`, { token: alice, body: { topicId: 'bad', commentContent: 'x' } })
    ).data;
    const other = (
      await t.api<CommentRow>('POST', `${C}/add`, { token: alice, body: { topicId: 'bad', commentContent: 'y' } })
    ).data;
    const foreignReply = (
      await t.api<ReplyRow>('POST', `${R}/add`, {
        token: alice,
        body: { commentId: other.commentId, replayContent: 'z' },
      })
    ).data;
    const mid = await rows();
    expect(mid).toEqual([before[0]! + 2, before[1]! + 1]);

    const empty = await t.api('POST', `${C}/add`, {
      token: alice,
      body: { topicId: 'bad', commentContent: '  \u0007 ' },
    });
    expect(empty).toMatchObject({ status: Status.invalid, info: 'The content cannot be empty' });
    const missing = await t.api('POST', `${R}/add`, { token: alice, body: { commentId: c.commentId }, lang: 'ko' });
    expect(missing.info).toBe('내용은 비워 둘 수 없습니다');
    expect(
      (await t.api('POST', `${C}/add`, { token: alice, body: { topicId: 'bad', commentContent: 'x'.repeat(2001) } }))
        .status,
    ).toBe(Status.invalid);
    expect(
      (await t.api('POST', `${C}/add`, { token: alice, body: { topicId: '../x', commentContent: 'x' } })).status,
    ).toBe(Status.invalid);
    expect(
      (await t.api('POST', `${R}/add`, { token: alice, body: { commentId: 999999, replayContent: 'x' } })).info,
    ).toBe('The comment does not exist');
    const wrongThread = await t.api('POST', `${R}/add`, {
      token: alice,
      body: { commentId: c.commentId, replayContent: 'x', replyId: foreignReply.replayId },
    });
    expect(wrongThread.info).toBe('The reply does not exist');
    // 2000 characters are fine, other control characters are dropped; a NUL is refused like any unstorable text.
    expect(
      (await t.api('POST', `${C}/add`, { token: alice, body: { topicId: 'bad', commentContent: 'x'.repeat(2000) } }))
        .status,
    ).toBe(0);
    const bell = await t.api<CommentRow>('POST', `${C}/add`, {
      token: alice,
      body: { topicId: 'bad', commentContent: 'a\u0007b' },
    });
    expect(bell.data.commentContent).toBe('ab');
    const nul = await t.api('POST', `${C}/add`, { token: alice, body: { topicId: 'bad', commentContent: 'a\u0000b' } });
    expect(nul.status).toBe(Status.invalid);
    expect(await rows()).toEqual([mid[0]! + 2, mid[1]!]);
  });

  it('lets only the author or a super administrator delete', async () => {
    const c = (
      await t.api<CommentRow>('POST', `${C}/add`, { token: alice, body: { topicId: 'del', commentContent: 'mine' } })
    ).data;
    const r = (
      await t.api<ReplyRow>('POST', `${R}/add`, { token: bob, body: { commentId: c.commentId, replayContent: 'his' } })
    ).data;
    const denied = await t.api('POST', `${C}/delete`, { token: bob, body: { commentId: c.commentId } });
    expect(denied).toEqual({
      status: Status.forbidden,
      info: 'Only the author or a super administrator can delete it',
      data: null,
    });
    expect((await t.api('POST', `${R}/delete`, { token: alice, body: { replayId: r.replayId } })).status).toBe(
      Status.forbidden,
    );
    expect((await t.api('POST', `${R}/delete`, { token: bob, body: { replayId: r.replayId } })).status).toBe(0);
    expect((await t.api('POST', `${R}/delete`, { token: bob, body: { replayId: r.replayId } })).info).toBe(
      'The reply does not exist',
    );
    // The super administrator may delete anyone's; deleting a comment deletes its replies.
    await t.api('POST', `${R}/add`, { token: bob, body: { commentId: c.commentId, replayContent: 'again' } });
    expect((await list('del', admin))[0]!.canDelete).toBe(true);
    expect((await t.api('POST', `${C}/delete`, { token: admin, body: { commentId: c.commentId } })).status).toBe(0);
    expect(await list('del')).toEqual([]);
    expect(
      await t.db.k.selectFrom('comment_replies').select('id').where('comment_id', '=', c.commentId).execute(),
    ).toEqual([]);
    expect((await t.api('POST', `${C}/delete`, { token: alice, body: { commentId: c.commentId } })).info).toBe(
      'The comment does not exist',
    );
    // Signing in is required.
    expect((await t.api('GET', `${C}/getCommentByTopicId`, { query: { topicId: 'del' } })).status).toBe(
      Status.notLoggedIn,
    );
  });
});
