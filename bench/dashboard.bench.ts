// Home benchmark (issue 18): BENCH_DASH_SITES (1,000) sites with BENCH_DASH_DEVICES_PER_SITE (20) devices each in
// every state, and a year of alerts (BENCH_DASH_ALERTS_PER_DAY, 200 a day: 73,000, a few thousand of them open),
// generated straight into a PostgreSQL database of its own (127.0.0.1:5432, created and dropped here). The server
// runs in this process (buildApp, a real listen); getHome is timed over HTTP (fetch, gzip/br as a browser asks)
// BENCH_DASH_CALLS (200) times after a warm-up, for the administrator and for a user scoped to 100 sites; the
// big screen's call likewise, for the record. Target: getHome p95 < 100 ms.
// Peers, measured in the same run on the same database:
//  - bare SQL: the same counts (sites by kind, devices by state, open alerts by level, alerts per day over 30
//    days) as bare `select count(*) ... group by` statements over one pg connection, no HTTP, no map, no
//    site states: the floor of the database work;
//  - list calls: the same counts as today's screens would get them, one list call per count over HTTP (alert list
//    level=N&status=open x4, device list state=S x5, site list per kind x6: 15 calls, their totals).
import pg from 'pg';
import { PLATFORM_TYPES } from '@geosentry/contract';
import { loadConfig } from '../server/src/config.ts';
import { buildApp } from '../server/src/app.ts';
import { Api, PROC_ADMIN_PASSWORD } from '../server/src/modules/ingest/testkit.ts';
import { cleanup, createDb, fmt, machine, num, pct, printTable, tmp } from './lib.ts';

const SITES = num('BENCH_DASH_SITES', 1000);
const PER_SITE = num('BENCH_DASH_DEVICES_PER_SITE', 20);
const ALERTS_PER_DAY = num('BENCH_DASH_ALERTS_PER_DAY', 200);
const CALLS = num('BENCH_DASH_CALLS', 200);
const SCOPED_SITES = num('BENCH_DASH_SCOPED_SITES', 100);
const TARGET_P95 = 100;
const MODULES = [1, 2, 3, 5, 8, 9, 11, 13, 16, 30];

/** Generates the portfolio in SQL (a few set-based statements). */
export async function generate(c: pg.Client): Promise<void> {
  const leaves = await c.query<{ code: string }>(
    `select code from regions r where not exists (select 1 from regions x where x.parent_code = r.code)
     order by code limit 200`,
  );
  const codes = leaves.rows.map((r) => r.code);
  await c.query(
    `insert into platforms (type, name, region_code, lon, lat, details)
     select ($1::text[])[1 + (i % 6)], 'Bench site ' || i, ($2::text[])[1 + (i % $3)],
       100 + (i % 100) * 0.1, 25 + (i / 100) * 0.1,
       case when i % 6 = 3 then jsonb_build_object('floodLevel', 120, 'limitedFloodLevel', 110) else '{}'::jsonb end
     from generate_series(0, $4 - 1) i`,
    [[...PLATFORM_TYPES], codes, codes.length, SITES],
  );
  // Devices: 84 % normal, 6 % alert, 2 % alarm, 1 % abnormal, 7 % offline; online unless offline.
  await c.query(
    `insert into devices (device_name, number, module_id, platform_id, state, last_seen_at, last_reading_at, last_values)
     select 'Bench device ' || g, 'BD-' || g, ($1::int[])[1 + (g % ${MODULES.length})], p.id, s.state,
       case when s.state = 'offline' then now() - interval '3 days' else now() - (g % 50) * interval '1 minute' end,
       case when s.state = 'offline' then now() - interval '3 days' else now() - (g % 50) * interval '1 minute' end,
       jsonb_build_object('waterLevel', 100 + g % 20, 'rainfall', 0.5)
     from (select row_number() over (order by p.id) - 1 as rn, p.id from platforms p) p
     cross join generate_series(0, $2 - 1) k
     cross join lateral (select p.rn * $2 + k as g) gg
     cross join lateral (select case when g % 100 < 84 then 'normal' when g % 100 < 90 then 'alert'
       when g % 100 < 92 then 'alarm' when g % 100 < 93 then 'abnormal' else 'offline' end as state) s`,
    [MODULES, PER_SITE],
  );
  // A year of handled alerts on random devices, then the open ones: one per device in alert/alarm, one offline
  // alert per offline device (as the engine keeps them), some of them pre-processed.
  await c.query(
    `insert into alerts (platform_id, device_id, quantity, kind, family, value_type, level, first_level, status,
       threshold, first_value, last_value, trigger_value, first_at, last_at, evidence, processed_at)
     select d.platform_id, d.id, 'waterLevel', 'single', 'single:waterLevel:threshold', 'threshold', 1 + (i % 4),
       1 + (i % 4), 'processed', 110, 111, 112, 112, t, t + interval '10 minutes', '{}'::jsonb, t + interval '1 hour'
     from generate_series(1, $1) i
     cross join lateral (select now() - (i::float8 / $1) * interval '365 days' as t) tt
     join devices d on d.id = 1 + (i * 7919) % (select count(*) from devices)`,
    [ALERTS_PER_DAY * 365],
  );
  await c.query(
    `insert into alerts (platform_id, device_id, quantity, kind, family, value_type, level, first_level, status,
       threshold, first_value, last_value, trigger_value, first_at, last_at, evidence)
     select d.platform_id, d.id, case when d.state = 'offline' then null else 'waterLevel' end,
       case when d.state = 'offline' then 'offline' else 'single' end,
       case when d.state = 'offline' then 'offline' else 'single:waterLevel:threshold' end,
       case when d.state = 'offline' then 'offline' else 'threshold' end,
       case when d.state = 'offline' then 2 when d.state = 'alarm' then 3 + d.id % 2 else 1 + d.id % 2 end, 1,
       case when d.id % 5 = 0 then 'preProcess' else 'untreated' end, 110, 111, 112, 112,
       now() - (d.id % 40) * interval '1 day', now() - (d.id % 600) * interval '1 minute', '{}'::jsonb
     from devices d where d.state in ('alert', 'alarm', 'offline')`,
  );
  await c.query('vacuum analyze');
}

/** p50 / p95 of `n` sequential calls, after `warm` unmeasured ones. */
async function time(n: number, warm: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < warm; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return { p50: pct(ms, 0.5), p95: pct(ms, 0.95) };
}

async function main(): Promise<void> {
  const db = await createDb('dashboard');
  const client = new pg.Client({ connectionString: db.url });
  let built: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    const config = loadConfig(
      {},
      {
        databaseUrl: db.url,
        dataDir: tmp(),
        mqttPort: -1,
        demo: false,
        captcha: false,
        webDist: null,
        logLevel: 'warn',
        adminPassword: PROC_ADMIN_PASSWORD,
      },
    );
    built = await buildApp(config, { logger: false });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
    await client.connect();
    const t0 = Date.now();
    await generate(client);
    const counts = await client.query<{ sites: number; devices: number; alerts: number; open: number }>(
      `select (select count(*) from platforms)::int as sites, (select count(*) from devices)::int as devices,
        (select count(*) from alerts)::int as alerts,
        (select count(*) from alerts where status <> 'processed')::int as open`,
    );
    const n = counts.rows[0]!;
    console.log(
      `generated ${n.sites} sites, ${n.devices} devices, ${n.alerts} alerts (${n.open} open) in ${Date.now() - t0} ms`,
    );

    const admin = new Api(base);
    await admin.login();
    // A duty user: index and the lists, scoped to SCOPED_SITES sites.
    const { id: roleId } = await admin.call<{ id: number }>('POST', '/api/v2/manage/role/add', {
      name: 'Duty',
      code: 'benchDuty',
    });
    type Node = { id: number; code: string; children?: Node[] };
    const tree = await admin.call<Node[]>('GET', '/api/v2/manage/permission/getTree');
    const flat = tree.flatMap((p) => [p, ...(p.children ?? [])]);
    const want = ['index', 'alert-predict:alert', 'information:device', 'digitalGallery'].concat(
      PLATFORM_TYPES.map((t) => `information:platform:${t}`),
    );
    await admin.call('POST', '/api/v2/manage/role/setPermissions', {
      roleId,
      permissionIds: flat.filter((p) => want.includes(p.code)).map((p) => p.id),
    });
    const ids = (await client.query<{ id: number }>(`select id from platforms order by id limit $1`, [SCOPED_SITES]))
      .rows;
    await admin.call('POST', '/api/v2/manage/user/add', {
      account: 'benchduty',
      password: 'Bench-duty-pass-1',
      name: 'Duty',
      roleId,
      scopeAll: false,
      platformIds: ids.map((r) => r.id),
    });
    const duty = new Api(base);
    await duty.login('benchduty', 'Bench-duty-pass-1');

    const get = (api: Api, url: string) => async () => {
      const r = await fetch(base + url, {
        headers: { token: api.token, language: 'en', 'accept-encoding': 'gzip, deflate, br' },
      });
      const env = (await r.json()) as { status: number; info: string };
      if (env.status !== 0) throw new Error(`${url}: ${env.status} ${env.info}`);
    };
    const HOME = '/api/v2/data/dashboard/getHome';
    const SCREEN = '/api/v2/data/dashboard/getBigScreen';

    // Peer 1: bare SQL of the same counts (one connection, sequential, as one request would).
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const bare = (scope: number[] | null) => async () => {
      const w = (col: string) => (scope ? `${col} = any($1::int[])` : 'true');
      const p = scope ? [scope] : [];
      await client.query(`select type, count(*) from platforms where ${w('id')} group by type`, p);
      await client.query(
        `select state, count(*) from devices where platform_id is not null and ${w('platform_id')} group by state`,
        p,
      );
      await client.query(
        `select level, count(*) from alerts where status <> 'processed' and ${w('platform_id')} group by level`,
        p,
      );
      await client.query(
        `select date_trunc('day', first_at), level, count(*) from alerts
         where first_at >= '${since}' and ${w('platform_id')} group by 1, 2`,
        p,
      );
    };
    // Peer 2: the 15 list calls whose totals home's counts equal.
    const lists = (api: Api) => async () => {
      const urls = [
        ...[1, 2, 3, 4].map((l) => `/api/v2/data/alert/getByPlatformId?pageSize=1&level=${l}&status=open`),
        ...['normal', 'alert', 'alarm', 'abnormal', 'offline'].map(
          (s) => `/api/v2/data/information/device/common/getListPage?pageSize=1&bound=true&state=${s}`,
        ),
        ...PLATFORM_TYPES.map((t) => `/api/v2/data/information/platform/${t}/getListPage?pageSize=1`),
      ];
      for (const u of urls) await get(api, u)();
    };

    const rows: string[][] = [];
    const scopeIds = ids.map((r) => r.id);
    for (const [who, api, scope] of [
      ['administrator', admin, null],
      [`scoped (${SCOPED_SITES} sites)`, duty, scopeIds],
    ] as const) {
      const home = await time(CALLS, 20, get(api, HOME));
      const peerSql = await time(CALLS, 20, bare(scope));
      const peerLists = await time(Math.ceil(CALLS / 4), 5, lists(api));
      rows.push([
        `getHome p50 / p95, ${who}`,
        `${fmt(home.p50, 1)} / ${fmt(home.p95, 1)} ms`,
        `bare SQL ${fmt(peerSql.p50, 1)} / ${fmt(peerSql.p95, 1)} ms; 15 list calls ${fmt(peerLists.p50, 1)} / ${fmt(peerLists.p95, 1)} ms`,
        `${home.p95 < TARGET_P95 ? 'meets' : 'MISSES'} p95 < ${TARGET_P95} ms; ${fmt(home.p95 / peerSql.p95, 1)}x bare SQL, ${fmt(peerLists.p95 / home.p95, 1)}x faster than the lists`,
      ]);
      const screen = await time(Math.ceil(CALLS / 2), 10, get(api, SCREEN));
      rows.push([
        `getBigScreen p50 / p95, ${who}`,
        `${fmt(screen.p50, 1)} / ${fmt(screen.p95, 1)} ms`,
        '-',
        'for the record',
      ]);
    }
    printTable(
      `Home over HTTP, ${n.sites} sites, ${n.devices} devices, ${n.alerts} alerts (a year; ${n.open} open), ${CALLS} calls, ${machine()}`,
      rows,
    );
    if (rows.some((r) => r[3]!.startsWith('MISSES'))) process.exitCode = 1;
  } finally {
    await client.end().catch(() => undefined);
    await built?.close().catch(() => undefined);
    await db.drop();
    cleanup();
  }
}

if (process.argv[1]?.endsWith('dashboard.bench.ts'))
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
