import type { AuditAction } from '@geosentry/contract';
import type { Db } from './db/db.ts';
import type { SessionUser } from './auth/access.ts';

export interface AuditEntry {
  action: AuditAction;
  userId?: number | null;
  account?: string | null;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  ip?: string | null;
}

/** Writes one audit record. Never pass a secret (password, key, token, signature) in detail. */
export async function writeAudit(db: Db, e: AuditEntry): Promise<void> {
  await db.k
    .insertInto('audit_log')
    .values({
      action: e.action,
      user_id: e.userId ?? null,
      account: e.account ?? null,
      target: e.target ?? null,
      detail: e.detail ? JSON.stringify(e.detail) : null,
      ip: e.ip ?? null,
    })
    .execute();
}

/** Records what a signed-in caller of a route did (its account and address), after the change succeeded. */
export function auditCall(
  db: Db,
  c: { user: SessionUser | null; ip: string },
  action: AuditAction,
  target: string | null,
  detail?: Record<string, unknown>,
): Promise<void> {
  return writeAudit(db, {
    action,
    userId: c.user?.id ?? null,
    account: c.user?.account ?? null,
    target,
    detail: detail ?? null,
    ip: c.ip,
  });
}
