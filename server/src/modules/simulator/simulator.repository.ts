import type { Db } from '../../platform/db/db.ts';

/** Whether any reading is stored (the demo backfills history only on its first start). */
export async function hasReadings(db: Db): Promise<boolean> {
  return !!(await db.k.selectFrom('readings').select('device_id').limit(1).executeTakeFirst());
}

/** Terminals with these serials, each with the number and monitor type of its devices bound to a site. */
export async function terminalsWithDevices(
  db: Db,
  serials: readonly string[],
): Promise<{ terminalId: number; serial: string; devices: { number: string; moduleId: number }[] }[]> {
  if (!serials.length) return [];
  const terms = await db.k
    .selectFrom('terminals')
    .select(['id', 'serial'])
    .where('serial', 'in', [...serials])
    .orderBy('id')
    .execute();
  if (!terms.length) return [];
  const devs = await db.k
    .selectFrom('devices')
    .select(['terminal_id', 'number', 'module_id'])
    .where(
      'terminal_id',
      'in',
      terms.map((t) => t.id),
    )
    .where('platform_id', 'is not', null)
    .orderBy('id')
    .execute();
  return terms.map((t) => ({
    terminalId: t.id,
    serial: t.serial,
    devices: devs.filter((d) => d.terminal_id === t.id).map((d) => ({ number: d.number, moduleId: d.module_id })),
  }));
}
