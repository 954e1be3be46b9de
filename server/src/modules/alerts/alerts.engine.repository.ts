import { sql, type Kysely } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import { json } from '../../platform/db/sql.ts';
import { isoOrNull } from '../../platform/db/sql.ts';

/** SQL of the evaluation hot path: devices and readings to evaluate, alert writes in the engine's transaction. */

type Tx = Kysely<Database>;

/** What evaluation needs of a device: site, names, monitor type, initial values, state. */
export interface EvalDevice {
  id: number;
  platformId: number | null;
  platformName: string;
  name: string;
  number: string;
  moduleId: number;
  initialValues: Record<string, number>;
  state: string;
  lastSeenAt: string | null;
  offlineHours: number | null;
}

export async function evalDevices(db: Db | Tx, ids: readonly number[]): Promise<Map<number, EvalDevice>> {
  const k = 'k' in db ? db.k : db;
  const out = new Map<number, EvalDevice>();
  if (!ids.length) return out;
  const rows = await k
    .selectFrom('devices as d')
    .leftJoin('platforms as p', 'p.id', 'd.platform_id')
    .select([
      'd.id',
      'd.platform_id',
      'p.name as platform_name',
      'd.device_name',
      'd.number',
      'd.module_id',
      'd.initial_values',
      'd.state',
      'd.last_seen_at',
      'd.offline_hours',
    ])
    .where('d.id', 'in', [...new Set(ids)])
    .execute();
  for (const r of rows)
    out.set(r.id, {
      id: r.id,
      platformId: r.platform_id,
      platformName: r.platform_name ?? '',
      name: r.device_name,
      number: r.number,
      moduleId: r.module_id,
      initialValues: json<Record<string, number> | null>(r.initial_values) ?? {},
      state: r.state,
      lastSeenAt: isoOrNull(r.last_seen_at),
      offlineHours: r.offline_hours,
    });
  return out;
}

// ------------------------------------------------------------------------------------------------------
// Readings for evaluation
// ------------------------------------------------------------------------------------------------------

export interface SeriesRequest {
  deviceId: number;
  from: number;
  to: number;
  /** Readings before `from` to include as well (previous readings for rate / acceleration). */
  before: number;
}

/** Stored readings of several devices over ranges, plus up to `before` readings before each range; oldest first. */
export async function readingsFor(
  db: Db,
  reqs: readonly SeriesRequest[],
): Promise<{ deviceId: number; ts: number; vals: Record<string, number> }[]> {
  if (!reqs.length) return [];
  const ids = reqs.map((r) => r.deviceId);
  const froms = reqs.map((r) => new Date(r.from).toISOString());
  const tos = reqs.map((r) => new Date(r.to).toISOString());
  const befores = reqs.map((r) => r.before);
  const rows = await sql<{ device_id: number; ts: Date; vals: unknown }>`
    with w as (select * from unnest(${ids}::int[], ${froms}::timestamptz[], ${tos}::timestamptz[], ${befores}::int[])
               as w(device_id, f, t, b))
    select r.device_id, r.ts, r.vals from w join readings r on r.device_id = w.device_id and r.ts >= w.f and r.ts <= w.t
    union all
    select w.device_id, p.ts, p.vals from w cross join lateral (
      select ts, vals from readings where device_id = w.device_id and ts < w.f order by ts desc limit w.b) p
    where w.b > 0
    order by 1, 2`.execute(db.k);
  return rows.rows.map((r) => ({ deviceId: r.device_id, ts: new Date(r.ts).getTime(), vals: json(r.vals) }));
}

/**
 * Readings of the given devices received since a moment (the last days only, for partition pruning), oldest
 * first per device: what a restart re-evaluates in case it stopped between a commit and its evaluation.
 */
export async function receivedSince(
  db: Db,
  deviceIds: readonly number[],
  since: Date,
): Promise<{ deviceId: number; ts: number; values: Record<string, number> }[]> {
  if (!deviceIds.length) return [];
  const rows = await sql<{ device_id: number; ts: Date; vals: unknown }>`
    select device_id, ts, vals from readings
    where ts > ${since.toISOString()}::timestamptz - interval '2 days' and received_at >= ${since.toISOString()}::timestamptz
      and device_id = any(${[...deviceIds]}::int[])
    order by device_id, ts limit 200000`.execute(db.k);
  return rows.rows.map((r) => ({ deviceId: r.device_id, ts: new Date(r.ts).getTime(), values: json(r.vals) }));
}

/** The first stored value of each quantity of a device (from the daily rollups), the cumulative-change origin. */
export async function firstValues(db: Db, deviceId: number): Promise<Record<string, number>> {
  const rows = await sql<{ quantity: string; first_v: number }>`
    select distinct on (quantity) quantity, first_v from readings_daily where device_id = ${deviceId}
    order by quantity, bucket asc`.execute(db.k);
  return Object.fromEntries(rows.rows.map((r) => [r.quantity, r.first_v]));
}

// ------------------------------------------------------------------------------------------------------
// Alerts: writes (inside the evaluator's transaction)
// ------------------------------------------------------------------------------------------------------

export interface OpenAlert {
  id: number;
  level: number;
  count: number;
}

/** The open alert of a family (a multi-device rule has one open alert whichever member tipped it). */
export async function openAlertForUpdate(tx: Tx, deviceId: number, family: string): Promise<OpenAlert | undefined> {
  const r = await sql<{ id: number; level: number; count: number }>`
    select id, level, count from alerts
    where family = ${family} and status <> 'processed'
      ${family.startsWith('multi:') ? sql`` : sql`and device_id = ${deviceId}`}
    order by id limit 1 for update`.execute(tx);
  return r.rows[0];
}

export async function hitExists(tx: Tx, ruleKey: string, deviceId: number, ts: number): Promise<boolean> {
  const r = await tx
    .selectFrom('alert_hits')
    .select('alert_id')
    .where('rule_key', '=', ruleKey)
    .where('device_id', '=', deviceId)
    .where('reading_ts', '=', new Date(ts).toISOString())
    .executeTakeFirst();
  return !!r;
}

/**
 * What an alert store reads before it writes, in one statement: of the given firing keys (rule, device, reading
 * time), those already stored ("ruleKey|deviceId|ts"), and the open alerts of their families, locked (oldest
 * first): device families by (device, family), multi-device families by family alone, keyed "deviceId|family"
 * and "*|multi:..."; the oldest open alert of a key wins.
 */
export async function storedHitsAndOpenAlerts(
  tx: Tx,
  decisions: readonly { ruleKey: string; deviceId: number; ts: number; family: string }[],
): Promise<{ done: Set<string>; open: Map<string, OpenAlert> }> {
  const done = new Set<string>();
  const open = new Map<string, OpenAlert>();
  if (!decisions.length) return { done, open };
  const multi = [...new Set(decisions.filter((w) => w.family.startsWith('multi:')).map((w) => w.family))];
  const single = decisions.filter((w) => !w.family.startsWith('multi:'));
  const r = await sql<{
    hit: boolean;
    rule_key: string | null;
    device_id: number;
    t: number | null;
    id: number | null;
    family: string | null;
    level: number | null;
    count: number | null;
  }>`
    with o as materialized (
      select id, device_id, family, level, count from alerts
      where status <> 'processed' and (family = any(${multi}::text[])
        or (device_id, family) in (select * from unnest(${single.map((w) => w.deviceId)}::int[],
                                                        ${single.map((w) => w.family)}::text[])))
      order by id for update)
    select true as hit, h.rule_key, h.device_id, (extract(epoch from h.reading_ts) * 1000)::float8 as t,
           null::int as id, null::text as family, null::int as level, null::int as count
      from unnest(${decisions.map((k) => k.ruleKey)}::text[], ${decisions.map((k) => k.deviceId)}::int[],
                  ${decisions.map((k) => new Date(k.ts).toISOString())}::timestamptz[]) as u(k, d, t)
      join alert_hits h on h.rule_key = u.k and h.device_id = u.d and h.reading_ts = u.t
    union all
    select false, null, device_id, null, id, family, level, count from o
    order by hit, id`.execute(tx);
  for (const x of r.rows) {
    if (x.hit) done.add(`${x.rule_key}|${x.device_id}|${Math.round(Number(x.t))}`);
    else {
      const key = x.family!.startsWith('multi:') ? `*|${x.family}` : `${x.device_id}|${x.family}`;
      if (!open.has(key)) open.set(key, { id: x.id!, level: x.level!, count: x.count! });
    }
  }
  return { done, open };
}

/** Who did what to an alert and when (`alert_actions`): raised / escalated by the system, saved / processed by a user. */
export interface NewAction {
  alertId: number;
  action: string;
  userId: number | null;
  userName: string | null;
  level: number | null;
  detail: unknown;
}

/** A firing of a rule on a reading (`alert_hits`), keyed by (rule, device, reading time). */
export interface NewHit {
  ruleKey: string;
  deviceId: number;
  ts: number;
  alertId: number;
  level: number;
  value: number | null;
  metric: number | null;
}

/**
 * Stores a store's actions (in the given order) and its hits in one statement: the actions as written, the hits
 * keyed by (rule, device, reading time).
 */
export async function insertActionsAndHits(
  tx: Tx,
  actions: readonly NewAction[],
  hits: readonly NewHit[],
): Promise<void> {
  if (!actions.length && !hits.length) return;
  await sql`
    with a as (
      insert into alert_actions (alert_id, action, user_id, user_name, level, detail)
      select a, b, c, d, e, f from unnest(${actions.map((x) => x.alertId)}::int[], ${actions.map((x) => x.action)}::text[],
                           ${actions.map((x) => x.userId)}::int[], ${actions.map((x) => x.userName)}::text[],
                           ${actions.map((x) => x.level)}::smallint[],
                           ${actions.map((x) => JSON.stringify(x.detail ?? {}))}::jsonb[]) with ordinality as u(a, b, c, d, e, f, n)
      order by n)
    insert into alert_hits (rule_key, device_id, reading_ts, alert_id, level, value, metric)
    select * from unnest(${hits.map((h) => h.ruleKey)}::text[], ${hits.map((h) => h.deviceId)}::int[],
                         ${hits.map((h) => new Date(h.ts).toISOString())}::timestamptz[], ${hits.map((h) => h.alertId)}::int[],
                         ${hits.map((h) => h.level)}::smallint[], ${hits.map((h) => h.value)}::float8[],
                         ${hits.map((h) => h.metric)}::float8[])`.execute(tx);
}

export interface NewAlert {
  platform_id: number;
  device_id: number;
  quantity: string | null;
  kind: string;
  family: string;
  rule_id: number | null;
  relation_id: number | null;
  value_type: string;
  level: number;
  threshold: number | null;
  value: number | null;
  metric: number | null;
  at: number;
  evidence: unknown;
  group_id: number | null;
  channels: string[];
  push_interval_minutes: number;
}

/** Inserts alerts (one statement); answers their ids in the order given. */
export async function insertAlerts(tx: Tx, list: readonly NewAlert[]): Promise<number[]> {
  if (!list.length) return [];
  const rows = await tx
    .insertInto('alerts')
    .values(
      list.map((a) => {
        const at = new Date(a.at).toISOString();
        return {
          platform_id: a.platform_id,
          device_id: a.device_id,
          quantity: a.quantity,
          kind: a.kind,
          family: a.family,
          rule_id: a.rule_id,
          relation_id: a.relation_id,
          value_type: a.value_type,
          level: a.level,
          first_level: a.level,
          threshold: a.threshold,
          first_value: a.value,
          last_value: a.value,
          metric: a.metric,
          trigger_value: a.metric ?? a.value,
          trigger_at: a.kind === 'offline' ? null : at,
          first_at: at,
          last_at: at,
          evidence: JSON.stringify(a.evidence),
          group_id: a.group_id,
          channels: a.channels,
          push_interval_minutes: a.push_interval_minutes,
        };
      }),
    )
    .returning(['id', 'device_id', 'family'])
    .execute();
  // Matched by (device, family), unique among one store's new alerts, rather than trusting the row order.
  const byKey = new Map(rows.map((r) => [`${r.device_id}|${r.family}`, r.id]));
  return list.map((a) => byKey.get(`${a.device_id}|${a.family}`)!);
}

/** What a hit writes into the alert it folds into. */
export type FoldValues = Omit<NewAlert, 'platform_id' | 'device_id' | 'quantity' | 'kind' | 'family'>;

/**
 * Folds hits into open alerts, all in one statement: `n` more hits, the last hit's value and metric, the latest
 * reading time; with `esc` (the last hit that escalated the alert) also its level, evidence, rule and threshold.
 */
export async function foldIntoAlerts(
  tx: Tx,
  folds: readonly { id: number; n: number; last: FoldValues; lastAt: number; esc: FoldValues | null }[],
): Promise<void> {
  if (!folds.length) return;
  const col = <T>(f: (x: (typeof folds)[number]) => T): T[] => folds.map(f);
  const iso = (t: number): string => new Date(t).toISOString();
  await sql`update alerts a set
      count = a.count + f.n,
      last_value = case when f.last_at >= a.last_at then f.last_value else a.last_value end,
      metric = case when f.last_at >= a.last_at then f.metric else a.metric end,
      last_at = greatest(a.last_at, f.last_at),
      updated_at = now(),
      evidence = case when f.esc then f.evidence else a.evidence end,
      level = case when f.esc then f.level else a.level end,
      escalated_at = case when f.esc then f.esc_at else a.escalated_at end,
      trigger_value = case when f.esc then f.trigger_value else a.trigger_value end,
      trigger_at = case when f.esc then f.esc_at else a.trigger_at end,
      rule_id = case when f.esc then f.rule_id else a.rule_id end,
      threshold = case when f.esc then f.threshold else a.threshold end,
      value_type = case when f.esc then f.value_type else a.value_type end,
      group_id = case when f.esc then f.group_id else a.group_id end,
      channels = case when f.esc then string_to_array(f.channels, ',') else a.channels end,
      push_interval_minutes = case when f.esc then f.push_interval_minutes else a.push_interval_minutes end
    from unnest(
      ${col((x) => x.id)}::int[], ${col((x) => x.n)}::int[], ${col((x) => x.last.value)}::float8[],
      ${col((x) => x.last.metric)}::float8[], ${col((x) => iso(Math.max(x.lastAt, x.last.at)))}::timestamptz[],
      ${col((x) => x.esc !== null)}::bool[], ${col((x) => (x.esc ? JSON.stringify(x.esc.evidence) : null))}::jsonb[],
      ${col((x) => x.esc?.level ?? null)}::int[], ${col((x) => (x.esc ? iso(x.esc.at) : null))}::timestamptz[],
      ${col((x) => x.esc?.rule_id ?? null)}::int[], ${col((x) => x.esc?.threshold ?? null)}::float8[],
      ${col((x) => x.esc?.value_type ?? null)}::text[], ${col((x) => x.esc?.group_id ?? null)}::int[],
      ${col((x) => (x.esc ? x.esc.channels.join(',') : null))}::text[],
      ${col((x) => x.esc?.push_interval_minutes ?? null)}::int[],
      ${col((x) => (x.esc ? (x.esc.metric ?? x.esc.value) : null))}::float8[]
    ) as f(id, n, last_value, metric, last_at, esc, evidence, level, esc_at, rule_id, threshold, value_type,
           group_id, channels, push_interval_minutes, trigger_value)
    where a.id = f.id`.execute(tx);
}

/** A late reading of a device (ISO time): see markLateReadings. */
export interface LateReading {
  deviceId: number;
  at: string;
}

/**
 * Records late readings in the evidence of the devices' open alerts with a hit at or after them (one
 * statement): the alert stays raised, and its evidence says a reading before its latest hit arrived late.
 */
export async function markLateReadings(tx: Tx, lates: readonly LateReading[]): Promise<void> {
  if (!lates.length) return;
  await sql`update alerts a
       set evidence = a.evidence || jsonb_build_object('late', true, 'lateReadingAt', l.at), updated_at = now()
      from (select device_id, min(at) as at
              from unnest(${lates.map((x) => x.deviceId)}::int[], ${lates.map((x) => x.at)}::text[]) as u(device_id, at)
             group by device_id) l
     where a.device_id = l.device_id and a.status <> 'processed' and a.kind <> 'offline'
       and a.last_at >= l.at::timestamptz`.execute(tx);
}

export async function insertAlert(tx: Tx, a: NewAlert): Promise<number> {
  return (await insertAlerts(tx, [a]))[0]!;
}

export async function insertAction(tx: Tx | Db, a: NewAction): Promise<void> {
  const k = 'k' in tx ? tx.k : tx;
  await k
    .insertInto('alert_actions')
    .values({
      alert_id: a.alertId,
      action: a.action,
      user_id: a.userId,
      user_name: a.userName,
      level: a.level,
      detail: JSON.stringify(a.detail ?? {}),
    })
    .execute();
}

/**
 * Sets a device's state from its open (not processed) alerts: 3-4 alarm, 1-2 alert, none normal. Offline and
 * abnormal devices keep their state (offline alerts do not count). Answers the change, if any.
 */
export async function refreshDeviceState(
  tx: Tx | Db,
  deviceId: number,
): Promise<{ platformId: number | null; state: string } | null> {
  const k = 'k' in tx ? tx.k : tx;
  const r = await sql<{ platform_id: number | null; state: string; old_state: string }>`
    with m as (select coalesce(max(level), 0) as lvl from alerts
               where device_id = ${deviceId} and status <> 'processed' and kind <> 'offline'),
    old as (select id, state from devices where id = ${deviceId} for update)
    update devices d set state = case when m.lvl >= 3 then 'alarm' when m.lvl >= 1 then 'alert' else 'normal' end
    from m, old
    where d.id = old.id and d.state in ('normal', 'alert', 'alarm')
    returning d.platform_id, d.state, old.state as old_state`.execute(k);
  const row = r.rows[0];
  return row && row.state !== row.old_state ? { platformId: row.platform_id, state: row.state } : null;
}

/** Devices whose state may follow from their alerts: in alert or alarm, or with open (non-offline) alerts. */
export async function devicesWithAlertState(db: Db): Promise<number[]> {
  const r = await sql<{ id: number }>`
    select id from devices where state in ('alert', 'alarm')
    union
    select device_id from alerts where status <> 'processed' and kind <> 'offline' and device_id is not null`.execute(
    db.k,
  );
  return r.rows.map((x) => x.id);
}

/**
 * `refreshDeviceState` for several devices: the changing rows are locked in id order, the order the
 * ingest writer locks them in, so the two never deadlock. Answers the changes.
 */
export async function refreshDeviceStates(
  tx: Tx,
  deviceIds: readonly number[],
): Promise<{ deviceId: number; platformId: number | null; state: string }[]> {
  if (!deviceIds.length) return [];
  // Only devices whose state changes are written (and locked): the ingest writer updates every reporting
  // device's row in each batch, and waiting for its commit here would hold up the alerts of this store.
  // The changing rows are locked first, in id order (the writer's order; a locking CTE is materialized), then
  // updated, in one statement: an UPDATE alone locks in the order of its join, which deadlocked with
  // concurrent ingest batches.
  const r = await sql<{ id: number; platform_id: number | null; state: string }>`
    with l as (
      select d.id, s.state
      from devices d
      cross join lateral (
        select coalesce(max(a.level), 0) as lvl from alerts a
        where a.device_id = d.id and a.status <> 'processed' and a.kind <> 'offline') x
      cross join lateral (
        select case when x.lvl >= 3 then 'alarm' when x.lvl >= 1 then 'alert' else 'normal' end as state) s
      where d.id = any(${[...new Set(deviceIds)]}::int[]) and d.state in ('normal', 'alert', 'alarm') and d.state <> s.state
      order by d.id
      for no key update of d)
    update devices d set state = l.state
    from l
    where d.id = l.id
    returning d.id, d.platform_id, d.state`.execute(tx);
  return r.rows.map((x) => ({ deviceId: x.id, platformId: x.platform_id, state: x.state }));
}
