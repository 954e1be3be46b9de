import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

export interface CommentRecord {
  id: number;
  topicId: string;
  content: string;
  authorId: number | null;
  authorName: string;
  createdAt: Date;
}

export interface ReplyRecord {
  id: number;
  commentId: number;
  replyToId: number | null;
  replyToName: string | null;
  content: string;
  authorId: number | null;
  authorName: string;
  createdAt: Date;
}

const isDbId = (n: number): boolean => Number.isInteger(n) && n > 0 && n <= 2147483647;

/** The author's current name, or the name kept at writing time when the account is gone. */
function selectComments(db: Db) {
  return db.k
    .selectFrom('comments as c')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select([
      'c.id',
      'c.topic_id',
      'c.content',
      'c.author_id',
      sql<string>`coalesce(u.name, c.author_name)`.as('author_name'),
      'c.created_at',
    ]);
}
type RawComment = Awaited<ReturnType<ReturnType<typeof selectComments>['executeTakeFirstOrThrow']>>;
const presentComment = (r: RawComment): CommentRecord => ({
  id: r.id,
  topicId: r.topic_id,
  content: r.content,
  authorId: r.author_id,
  authorName: r.author_name,
  createdAt: new Date(r.created_at),
});

function selectReplies(db: Db) {
  return db.k
    .selectFrom('comment_replies as r')
    .leftJoin('users as u', 'u.id', 'r.author_id')
    .leftJoin('comment_replies as p', 'p.id', 'r.reply_to_id')
    .leftJoin('users as pu', 'pu.id', 'p.author_id')
    .select([
      'r.id',
      'r.comment_id',
      'r.reply_to_id',
      sql<string | null>`case when p.id is null then null else coalesce(pu.name, p.author_name) end`.as(
        'reply_to_name',
      ),
      'r.content',
      'r.author_id',
      sql<string>`coalesce(u.name, r.author_name)`.as('author_name'),
      'r.created_at',
    ]);
}
type RawReply = Awaited<ReturnType<ReturnType<typeof selectReplies>['executeTakeFirstOrThrow']>>;
const presentReply = (r: RawReply): ReplyRecord => ({
  id: r.id,
  commentId: r.comment_id,
  replyToId: r.reply_to_id,
  replyToName: r.reply_to_name,
  content: r.content,
  authorId: r.author_id,
  authorName: r.author_name,
  createdAt: new Date(r.created_at),
});

/** The comments of a topic (newest first) and their replies (oldest first). */
export async function commentsOfTopic(
  db: Db,
  topicId: string,
): Promise<{ comments: CommentRecord[]; replies: ReplyRecord[] }> {
  const comments = (
    await selectComments(db)
      .where('c.topic_id', '=', topicId)
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .execute()
  ).map(presentComment);
  if (!comments.length) return { comments, replies: [] };
  const replies = (
    await selectReplies(db)
      .where(
        'r.comment_id',
        'in',
        comments.map((c) => c.id),
      )
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute()
  ).map(presentReply);
  return { comments, replies };
}

export async function getComment(db: Db, id: number): Promise<CommentRecord | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await selectComments(db).where('c.id', '=', id).executeTakeFirst();
  return r ? presentComment(r) : undefined;
}

export async function getReply(db: Db, id: number): Promise<ReplyRecord | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await selectReplies(db).where('r.id', '=', id).executeTakeFirst();
  return r ? presentReply(r) : undefined;
}

export async function insertComment(
  db: Db,
  w: { topicId: string; content: string; authorId: number; authorName: string },
): Promise<number> {
  const r = await db.k
    .insertInto('comments')
    .values({ topic_id: w.topicId, content: w.content, author_id: w.authorId, author_name: w.authorName })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function insertReply(
  db: Db,
  w: { commentId: number; replyToId: number | null; content: string; authorId: number; authorName: string },
): Promise<number> {
  const r = await db.k
    .insertInto('comment_replies')
    .values({
      comment_id: w.commentId,
      reply_to_id: w.replyToId,
      content: w.content,
      author_id: w.authorId,
      author_name: w.authorName,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function deleteComment(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('comments').where('id', '=', id).execute();
}

export async function deleteReply(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('comment_replies').where('id', '=', id).execute();
}
