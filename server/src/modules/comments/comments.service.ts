import { COMMENT_MAX_CHARS, Status, type CommentRow, type ReplyRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { isSuperAdmin, type SessionUser } from '../../platform/auth/access.ts';
import { siteOfTopic } from '../../platform/auth/topics.ts';
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
 * The message board. Topics are identifiers chosen by the screens; a topic that names a site's object
 * (`platform:<id>`, `section:<id>`, `device:<id>`) is site data: only callers whose data scope holds the site read
 * or write it, and to anyone else it answers exactly like a missing one (so do its comments and replies). Only the
 * author or a super administrator deletes.
 */
export class CommentsService {
  constructor(private readonly ctx: AppContext) {}

  /** A comment the caller may see: missing and foreign answer alike. */
  private async visibleComment(user: SessionUser, id: number): Promise<repo.CommentRecord> {
    const c = await repo.getComment(this.ctx.db, id);
    if (!c || !(await this.topicVisible(user, c.topicId))) throw new AppError(Status.notFound, 'commentNotFound');
    return c;
  }

  private async topicVisible(user: SessionUser, topicId: string): Promise<boolean> {
    try {
      await siteOfTopic(this.ctx.db, user.scope, topicId);
      return true;
    } catch (e) {
      if (e instanceof AppError) return false;
      throw e;
    }
  }

  private async visibleCommentOrNull(user: SessionUser, id: number): Promise<repo.CommentRecord | null> {
    try {
      return await this.visibleComment(user, id);
    } catch (e) {
      if (e instanceof AppError) return null;
      throw e;
    }
  }

  async list(user: SessionUser, topicId: string): Promise<CommentRow[]> {
    await siteOfTopic(this.ctx.db, user.scope, topicId);
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
    await siteOfTopic(this.ctx.db, user.scope, topicId);
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
    const c = await this.visibleComment(user, id);
    if (!mayDelete(user, c.authorId)) throw new AppError(Status.forbidden, 'notAuthor');
    await repo.deleteComment(this.ctx.db, id);
  }

  async reply(user: SessionUser, commentId: number, raw: string, replyTo?: number): Promise<ReplyRow> {
    const text = content(raw, 'replayContent');
    await this.visibleComment(user, commentId);
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
    if (!r || !(await this.visibleCommentOrNull(user, r.commentId)))
      throw new AppError(Status.notFound, 'replyNotFound');
    if (!mayDelete(user, r.authorId)) throw new AppError(Status.forbidden, 'notAuthor');
    await repo.deleteReply(this.ctx.db, id);
  }
}
