import { sql } from 'kysely';
import type { AuditRow } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';

export async function listAudit(
  db: Db,
  q: {
    pageNum: number;
    pageSize: number;
    account?: string | undefined;
    action?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: AuditRow[]; total: number }> {
  let base = db.k.selectFrom('audit_log');
  if (q.account)
    base = base.where(sql`lower(account)`, 'like', `%${q.account.toLowerCase().replace(/[%_]/g, '\\$&')}%`);
  if (q.action) base = base.where('action', 'like', `${q.action.replace(/[%_]/g, '\\$&')}%`);
  if (q.from) base = base.where('at', '>=', new Date(q.from.replace(' ', 'T')));
  if (q.to) base = base.where('at', '<=', new Date(q.to.replace(' ', 'T')));
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'at', 'account', 'action', 'target', 'detail', 'ip'])
      .orderBy('id', q.sortOrder === 'ascend' ? 'asc' : 'desc')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      ...r,
      at: new Date(r.at).toISOString(),
      detail: (r.detail as Record<string, unknown> | null) ?? null,
    })),
    total: Number(count.n),
  };
}
