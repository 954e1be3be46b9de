// Data import benchmark (issue 17): BENCH_IMPORT_ROWS readings (1,000,000: 100 devices x 10,000 minutes, two
// quantities each) as a csv, imported through the API and the job runner on PostgreSQL (upload, dry run and
// import timed apart), against the peer: COPY of the same rows into a bare table of the readings' shape, in the
// same run on the same server. Target: the import at 20,000 readings/s or more.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Job } from '@geosentry/contract';
import { loadConfig } from '../server/src/config.ts';
import { buildApp } from '../server/src/app.ts';
import { Api, PROC_ADMIN_PASSWORD, provision } from '../server/src/modules/ingest/testkit.ts';
import { checkpoint, cleanup, createDb, fmt, machine, num, printTable, sleep, tmp } from './lib.ts';

const ROWS = num('BENCH_IMPORT_ROWS', 1_000_000);
const DEVICES = num('BENCH_IMPORT_DEVICES', 100);
const TARGET = 20_000;

async function main(): Promise<void> {
  const db = await createDb('import');
  const dir = tmp();
  try {
    const config = loadConfig(
      {},
      {
        databaseUrl: db.url,
        dataDir: dir,
        mqttPort: -1,
        demo: false,
        captcha: false,
        webDist: null,
        logLevel: 'warn',
        adminPassword: PROC_ADMIN_PASSWORD,
      },
    );
    const built = await buildApp(config, { logger: false });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
    const api = new Api(base);
    await api.login();
    const { terminals } = await provision(api, {
      prefix: 'I',
      terminals: Math.ceil(DEVICES / 50),
      devicesPerTerminal: Math.min(50, DEVICES),
      moduleId: 3,
    });
    const numbers = terminals.flatMap((t) => t.devices.map((d) => d.number)).slice(0, DEVICES);
    const ids = terminals.flatMap((t) => t.devices.map((d) => d.id)).slice(0, DEVICES);

    // The file: every device's minute series, interleaved by time (as a logger export is).
    const steps = Math.ceil(ROWS / numbers.length);
    const start = Date.UTC(2023, 0, 1) / 1000;
    const file = path.join(dir, 'readings.csv');
    const out = fs.createWriteStream(file);
    const peerLines: string[] = [];
    let written = 0;
    out.write('device,time,level,voltage\n');
    for (let i = 0; i < steps && written < ROWS; i++) {
      let chunk = '';
      for (let d = 0; d < numbers.length && written < ROWS; d++, written++) {
        const t = start + i * 60;
        const level = Math.round(1000 * (10 + Math.sin(i / 50 + d))) / 1000;
        const volt = 12 + (i % 10) / 10;
        chunk += `${numbers[d]},${t},${level},${volt}\n`;
        peerLines.push(
          `${ids[d]}\t${new Date(t * 1000).toISOString()}\t{"waterLevel": ${level}, "voltage": ${volt}}\n`,
        );
      }
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r) => out.end(r));
    const size = fs.statSync(file).size;

    // Ours: upload, dry run, import.
    await checkpoint();
    const t0 = Date.now();
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(file)]), 'readings.csv');
    const up = (await (
      await fetch(`${base}/api/v2/data/dataImport/upload`, {
        method: 'POST',
        headers: { token: api.token, language: 'en' },
        body: form,
      })
    ).json()) as { status: number; info: string; data: { fileId: string } };
    if (up.status !== 0) throw new Error(`upload: ${up.info}`);
    const tUpload = Date.now() - t0;
    const settle = async (id: number): Promise<Job> => {
      for (;;) {
        const j = await api.call<Job>('GET', `/api/v2/data/job/get?id=${id}`);
        if (['done', 'failed', 'cancelled'].includes(j.state)) return j;
        await sleep(100);
      }
    };
    const t1 = Date.now();
    const dq = await api.call<Job>('POST', '/api/v2/data/dataImport/dryRun', {
      fileId: up.data.fileId,
      deviceColumn: 0,
      timeColumn: 1,
      timeFormat: 'epochSeconds',
      timeZone: 'UTC',
      quantities: { waterLevel: 2, voltage: 3 },
    });
    const dry = await settle(dq.id);
    const tDry = Date.now() - t1;
    if (dry.state !== 'done' || (dry.result as { errorCount: number }).errorCount)
      throw new Error(`dry run: ${dry.state} ${dry.error} ${JSON.stringify(dry.result).slice(0, 300)}`);
    await checkpoint();
    const t2 = Date.now();
    const iq = await api.call<Job>('POST', '/api/v2/data/dataImport/import', { jobId: dry.id });
    const imp = await settle(iq.id);
    const tImport = Date.now() - t2;
    const added = (imp.result as { added?: number } | null)?.added ?? 0;
    if (imp.state !== 'done' || added !== written) throw new Error(`import: ${imp.state} ${imp.error} added ${added}`);
    await built.close();

    // The peer: COPY of the same rows into a bare table of the readings' shape (primary key included).
    await checkpoint();
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(`create table peer_readings (device_id integer not null, ts timestamptz not null,
      vals jsonb not null, received_at timestamptz not null default now(), primary key (device_id, ts))`);
    const t3 = Date.now();
    await pipeline(
      (async function* () {
        for (let i = 0; i < peerLines.length; i += 10_000) yield peerLines.slice(i, i + 10_000).join('');
      })(),
      c.query(copyFrom('copy peer_readings (device_id, ts, vals) from stdin')),
    );
    const tPeer = Date.now() - t3;
    await c.end();

    const rate = (ms: number) => (written / ms) * 1000;
    printTable(
      `Data import of ${fmt(written)} readings (${numbers.length} devices, ${fmt(size / 1e6, 1)} MB csv), ${machine()}`,
      [
        ['upload (type check, stored)', `${fmt(tUpload / 1000, 1)} s, ${fmt(rate(tUpload))}/s`, '', ''],
        ['dry run job', `${fmt(tDry / 1000, 1)} s, ${fmt(rate(tDry))}/s`, '', ''],
        [
          'import job (check, write, rollups): readings/s',
          fmt(rate(tImport)),
          `${fmt(rate(tPeer))} (COPY into a bare table)`,
          `${fmt(rate(tImport) / rate(tPeer), 2)}; ${fmt(tImport / 1000, 1)} s vs ${fmt(tPeer / 1000, 1)} s`,
        ],
        [
          'upload + dry run + import',
          `${fmt((tUpload + tDry + tImport) / 1000, 1)} s, ${fmt(rate(tUpload + tDry + tImport))}/s`,
          '',
          '',
        ],
      ],
    );
    const ok = rate(tImport) >= TARGET;
    console.log(`import ${fmt(rate(tImport))} readings/s: ${ok ? 'meets' : 'MISSES'} the target of ${fmt(TARGET)}/s`);
    if (!ok) process.exitCode = 1;
  } finally {
    await db.drop();
    cleanup();
  }
}

await main();
