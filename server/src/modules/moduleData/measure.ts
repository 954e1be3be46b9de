/**
 * Measures the monitoring query API on PostgreSQL with ~10 million readings (run by hand, not a test):
 *   node --import tsx server/src/modules/moduleData/measure.ts [devices=19] [keep]
 * Creates database gs_md_measure on TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * loads one reading per minute for 2025 per device (525,600 each) with SQL, builds the rollups from raw
 * exactly as the writer keeps them, then times the service calls (median of 7 runs after a warm-up).
 */
import os from 'node:os';
import pg from 'pg';
import { sql } from 'kysely';
import { FULL_SCOPE, type SessionUser } from '../../platform/auth/access.ts';
import { openDb } from '../../platform/db/db.ts';
import { migrate } from '../../platform/db/migrate.ts';
import { ensurePartition } from '../ingest/index.ts';
import { loadConfig } from '../../config.ts';
import type { AppContext } from '../../platform/context.ts';
import { ModuleDataService } from './moduleData.service.ts';

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = 'gs_md_measure';
const devices = Number(process.argv[2] ?? 19);
const keep = process.argv[3] === 'keep';

async function main(): Promise<void> {
  const url = new URL(ADMIN);
  url.pathname = `/${NAME}`;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [NAME])).rowCount;
  if (!exists || !keep) {
    await admin.query(`drop database if exists ${NAME} with (force)`);
    await admin.query(`create database ${NAME}`);
  }
  await admin.end();
  const db = await openDb({ databaseUrl: url.toString(), dataDir: os.tmpdir(), poolSize: 4 });
  await migrate(db);
  const year = Date.UTC(2025, 0, 1);
  const n = (await sql<{ n: string }>`select count(*) as n from devices`.execute(db.k)).rows[0]!.n;
  if (Number(n) === 0) {
    const t0 = Date.now();
    for (let m = 0; m < 12; m++) await ensurePartition(db, Date.UTC(2025, m, 15));
    const site = await db.k
      .insertInto('platforms')
      .values({ type: 'disaster', name: 'Measure', description: null, manager: null, lon: null, lat: null, alt: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let d = 1; d <= devices; d++) {
      const dev = await sql<{ id: number }>`
        insert into devices (device_name, number, module_id, platform_id)
        values (${`Level ${d}`}, ${`M-${d}`}, 3, ${site.id}) returning id`.execute(db.k);
      const id = dev.rows[0]!.id;
      await sql`
        insert into readings (device_id, ts, vals)
        select ${id}, ts, jsonb_build_object('waterLevel', round((10 + 2 * sin(extract(epoch from ts) / 86400.0) + random() * 0.1)::numeric, 3))
        from generate_series(${new Date(year).toISOString()}::timestamptz, '2025-12-31 23:59:00+00'::timestamptz, interval '1 minute') ts`.execute(
        db.k,
      );
      say(`device ${d}/${devices} loaded (${Math.round((Date.now() - t0) / 1000)} s)`);
    }
    for (const [table, unit] of [
      ['readings_hourly', 'hour'],
      ['readings_daily', 'day'],
    ] as const) {
      await sql`
        insert into ${sql.table(table)} (device_id, quantity, bucket, n, total, min_v, max_v, first_ts, first_v, last_ts, last_v)
        select device_id, e.key, date_trunc(${unit}, ts at time zone 'UTC') at time zone 'UTC', count(*), sum((e.value #>> '{}')::float8),
               min((e.value #>> '{}')::float8), max((e.value #>> '{}')::float8), min(ts),
               (array_agg((e.value #>> '{}')::float8 order by ts))[1], max(ts), (array_agg((e.value #>> '{}')::float8 order by ts desc))[1]
        from readings, jsonb_each(vals) e group by 1, 2, 3`.execute(db.k);
      say(`${table} built (${Math.round((Date.now() - t0) / 1000)} s)`);
    }
    await sql`update devices d set last_reading_at = x.t, last_seen_at = now(), last_values = x.v
      from (select device_id, max(last_ts) as t, jsonb_build_object('waterLevel', (array_agg(last_v order by bucket desc))[1]) as v
            from readings_daily group by device_id) x where x.device_id = d.id`.execute(db.k);
    await sql`analyze`.execute(db.k);
  }
  const total = (await sql<{ n: string }>`select count(*) as n from readings`.execute(db.k)).rows[0]!.n;
  const dev = (await sql<{ id: number }>`select min(id) as id from devices`.execute(db.k)).rows[0]!.id;
  say(`readings: ${total}`);

  const config = loadConfig({}, { databaseUrl: url.toString() });
  const ctx = { db, config } as unknown as AppContext;
  const svc = new ModuleDataService(ctx);
  const user = { id: 1, scope: FULL_SCOPE, permissions: new Set<string>() } as unknown as SessionUser;
  const time = async (label: string, fn: () => Promise<unknown>) => {
    await fn();
    const runs: number[] = [];
    let out: unknown;
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      out = await fn();
      runs.push(performance.now() - t0);
    }
    runs.sort((a, b) => a - b);
    const pts = (out as { devices?: { series?: { points: unknown[] }[] }[] }).devices?.[0]?.series?.[0]?.points.length;
    say(
      `${label.padEnd(58)} median ${runs[3]!.toFixed(1)} ms  max ${runs[6]!.toFixed(1)} ms${pts ? `  points ${pts}` : ''}`,
    );
  };
  const yearQ = { range: 'custom' as const, startTime: '2025-01-01', endTime: '2025-12-31' };
  const h = (aggregation: 'original' | 'hour' | 'day' | 'week' | 'month' | 'year', extra = {}) =>
    svc.history(user, 'en', { deviceId: dev, deviceIds: [], aggregation, maxPoints: 2000, ...yearQ, ...extra });
  await time('year chart, aggregation=day (365 daily rollups)', () => h('day'));
  await time('year chart, aggregation=week', () => h('week'));
  await time('year chart, aggregation=month', () => h('month'));
  await time('year chart, aggregation=year', () => h('year'));
  await time('year chart, aggregation=hour (8760 buckets -> LTTB 2000)', () => h('hour'));
  // The same year in a whole-hour zone (local days from the hourly rollups) and a half-hour zone (raw readings).
  for (const timeZone of ['Asia/Shanghai', 'Europe/Berlin', 'Asia/Kolkata'])
    for (const agg of ['day', 'month'] as const)
      await time(`year chart, aggregation=${agg}, ${timeZone}`, () => h(agg, { timeZone }));
  await time('year chart, aggregation=hour, Asia/Shanghai', () => h('hour', { timeZone: 'Asia/Shanghai' }));
  await time('one day raw (1440 readings)', () => h('original', { startTime: '2025-06-10', endTime: '2025-06-10' }));
  await time('7 days raw (10080 readings -> LTTB 2000)', () =>
    h('original', { startTime: '2025-06-10', endTime: '2025-06-16' }),
  );
  await time('3 months raw (~131k readings -> LTTB 2000)', () =>
    h('original', { startTime: '2025-04-01', endTime: '2025-06-30' }),
  );
  await time('getMaxMinAvgData over an unaligned year window', () =>
    svc.maxMinAvg(user, 'en', {
      deviceId: dev,
      range: 'custom',
      startTime: '2025-01-01 00:17',
      endTime: '2025-12-30 22:41',
    }),
  );
  await time('report, 19 devices, month rows for the year', () =>
    svc.moduleReport(user, 'en', {
      platformId: 1,
      moduleId: 3,
      startTime: '2025-01-01',
      endTime: '2025-12-31',
      statisticsType: 'month',
      template: 'A',
    }),
  );
  const plan = await sql<{ 'QUERY PLAN': string }>`explain select ts, (vals ->> 'waterLevel')::float8 from readings
    where device_id = ${dev} and ts >= '2025-06-10' and ts < '2025-06-11' and jsonb_typeof(vals -> 'waterLevel') = 'number' order by ts`.execute(
    db.k,
  );
  say('raw query plan:\n' + plan.rows.map((r) => '  ' + r['QUERY PLAN']).join('\n'));
  await db.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
