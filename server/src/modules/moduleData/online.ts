import { sql, type RawBuilder } from 'kysely';

/**
 * The one definition of a device being online (spec §4): seen within its offline hours (the device's own, else
 * DEFAULT_OFFLINE_HOURS), now. The offline sweep (ingest markOffline) marks the others offline. Written twice,
 * for a row in hand and in SQL, side by side so the two cannot drift.
 */
export function isOnline(lastSeenAt: number | null, offlineHours: number | null, defaultHours: number, now: number) {
  return lastSeenAt !== null && now - lastSeenAt < (offlineHours ?? defaultHours) * 3_600_000;
}

/** `isOnline` in SQL for the devices row aliased `alias` (now() is the statement's time). */
export function onlineSql(alias: string, defaultHours: number): RawBuilder<boolean> {
  const col = (c: string) => sql.ref(`${alias}.${c}`);
  return sql<boolean>`(${col('last_seen_at')} is not null and ${col('last_seen_at')} >
    now() - make_interval(secs => coalesce(${col('offline_hours')}, ${defaultHours}::float8) * 3600))`;
}
