import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { DryRunResult, ImportResult, Job } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';
import { docx, png } from '../files/files.testkit.ts';
import { DI, JOB, dryRun, importOf, settled, uploadFile } from './testkit.ts';

// Data import end to end through the API (upload -> dry run job -> import job), on both databases.
describe('data import', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  const dev: Record<string, number> = {};
  const H = 3_600_000;
  // Whole hours, well in the past (silent) unless said otherwise.
  const base = Date.UTC(2024, 2, 10, 8, 0, 0);

  const count = async (deviceId: number, imported = true) =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from readings where device_id = ${deviceId}
          and (${!imported}::boolean or import_id is not null)`.execute(t.db.k)
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'Import slope' });
    siteB = await buildPlatform(t, { type: 'reservoir', name: 'Import dam' });
    const ta = await addTerminal(t, admin, siteA, 'IMP-A');
    const tb = await addTerminal(t, admin, siteB, 'IMP-B');
    dev.wl1 = await addDevice(t, admin, deviceBody(siteA, ta.terminalId, 'wl1', { moduleId: 3 }));
    dev.wl2 = await addDevice(t, admin, deviceBody(siteA, ta.terminalId, 'wl2', { moduleId: 3 }));
    dev.x = await addDevice(t, admin, deviceBody(siteA, ta.terminalId, 'x1', { moduleId: 3 }));
    dev.b = await addDevice(t, admin, deviceBody(siteB, tb.terminalId, 'b1', { moduleId: 3 }));
    dev.old = await addDevice(t, admin, deviceBody(siteA, ta.terminalId, 'old', { moduleId: 3 }));
    dev.new = await addDevice(t, admin, deviceBody(siteA, ta.terminalId, 'new', { moduleId: 3 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const mapping = (fileId: string, extra: Record<string, unknown> = {}) => ({
    fileId,
    deviceColumn: 0,
    timeColumn: 1,
    timeFormat: 'iso',
    timeZone: 'Asia/Shanghai',
    quantities: { waterLevel: 2, voltage: 3 },
    ...extra,
  });

  it('imports a csv: dry run counts, readings marked as imported, hourly rollup sum/min/max', async () => {
    // 2024-03-10 16:00..16:50 Asia/Shanghai = 08:00..08:50 UTC; the quoted cell holds a comma-free quoted value.
    const lines = ['device,time,level,volt'];
    const levels = [1.5, 2.5, 0.5, 4, 3, 2];
    levels.forEach((v, i) => lines.push(`DEV-wl1,2024-03-10 16:${String(i * 10).padStart(2, '0')}:00,${v},12.1`));
    lines.push('"DEV-wl2",2024-03-10T08:00:00Z,7,');
    lines.push('DEV-wl2,2024-03-10 16:00,7,12'); // the same instant again: a duplicate in the file
    lines.push('');
    const up = await uploadFile(t, admin, 'levels.csv', Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`));
    expect(up.status, up.info).toBe(0);
    expect(up.data.header).toEqual(['device', 'time', 'level', 'volt']);

    const dry = await dryRun(t, admin, mapping(up.data.fileId));
    expect(dry.state, dry.error ?? '').toBe('done');
    const d = dry.result as DryRunResult;
    expect(d).toMatchObject({ rows: 8, toAdd: 7, duplicatesInFile: 1, duplicatesStored: 0, errorCount: 0, targets: 2 });
    expect(await count(dev.wl1!, false)).toBe(0); // a dry run writes nothing

    const imp = await importOf(t, admin, dry.id);
    expect(imp.state, imp.error ?? '').toBe('done');
    expect(imp.result as ImportResult).toMatchObject({ rows: 8, added: 7, duplicates: 1, silent: 7, evaluated: 0 });
    expect(imp.done).toBe(8);
    expect(await count(dev.wl1!)).toBe(6);
    expect(await count(dev.wl2!)).toBe(1);
    const h = await sql<{ n: number; total: number; min_v: number; max_v: number; first_v: number; last_v: number }>`
      select n, total, min_v, max_v, first_v, last_v from readings_hourly
      where device_id = ${dev.wl1!} and quantity = 'waterLevel' and bucket = ${new Date(base).toISOString()}::timestamptz`.execute(
      t.db.k,
    );
    expect(h.rows[0]).toMatchObject({ n: 6, total: 13.5, min_v: 0.5, max_v: 4, first_v: 1.5, last_v: 2 });
    const day = await sql<{ n: number }>`select n from readings_daily where device_id = ${dev.wl1!}
      and quantity = 'voltage'`.execute(t.db.k);
    expect(day.rows[0]?.n).toBe(6);
    // The newest values moved (newer than none), the device was not "heard from".
    const dv = await t.db.k
      .selectFrom('devices')
      .select(['last_reading_at', 'last_seen_at'])
      .where('id', '=', dev.wl1!)
      .executeTakeFirstOrThrow();
    expect(new Date(dv.last_reading_at!).getTime()).toBe(base + 50 * 60_000);
    expect(dv.last_seen_at).toBeNull();

    // The same file again: nothing new.
    const dry2 = await dryRun(t, admin, mapping(up.data.fileId));
    expect(dry2.result as DryRunResult).toMatchObject({ toAdd: 0, duplicatesStored: 7, duplicatesInFile: 1 });
    const imp2 = await importOf(t, admin, dry2.id);
    expect(imp2.result as ImportResult).toMatchObject({ added: 0, duplicates: 8 });
    expect(await count(dev.wl1!)).toBe(6);
    const h2 = await sql<{ n: number }>`select n from readings_hourly where device_id = ${dev.wl1!}
      and quantity = 'waterLevel'`.execute(t.db.k);
    expect(h2.rows[0]?.n).toBe(6);
  });

  it('imports an xlsx sheet by name, date cells and a fixed device', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').addRow(['nothing here']);
    const ws = wb.addWorksheet('Levels');
    ws.addRow(['when', 'level']);
    for (let i = 0; i < 5; i++) ws.addRow([new Date(Date.UTC(2024, 4, 1, 10, i)), i + 0.25]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const up = await uploadFile(t, admin, 'levels.xlsx', buf);
    expect(up.status, up.info).toBe(0);
    expect(up.data.sheets).toEqual(['Notes', 'Levels']);
    const pv = await t.api<{ header: string[]; rows: unknown[] }>('GET', `${DI}/preview`, {
      token: admin,
      query: { fileId: up.data.fileId, sheet: 'Levels' },
    });
    expect(pv.data.header).toEqual(['when', 'level']);
    expect(pv.data.rows).toHaveLength(5);
    const body = {
      fileId: up.data.fileId,
      sheet: 'Levels',
      deviceId: dev.x,
      timeColumn: 0,
      timeZone: 'UTC',
      quantities: JSON.stringify({ waterLevel: 1 }),
    };
    const dry = await dryRun(t, admin, body);
    expect(dry.result as DryRunResult).toMatchObject({ rows: 5, toAdd: 5, errorCount: 0 });
    const imp = await importOf(t, admin, dry.id);
    expect(imp.result as ImportResult).toMatchObject({ added: 5 });
    const r = await sql<{ ts: Date }>`select ts from readings where device_id = ${dev.x!} order by ts`.execute(t.db.k);
    expect(new Date(r.rows[0]!.ts).toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(r.rows).toHaveLength(5);
  });

  it('refuses files that are not csv or xlsx, and stores nothing', async () => {
    const files = async () =>
      Number((await sql<{ n: number }>`select count(*)::int as n from job_files`.execute(t.db.k)).rows[0]!.n);
    const before = await files();
    for (const [name, data] of [
      ['photo.csv', png()],
      ['report.xlsx', docx()],
      ['bin.csv', Buffer.from([0x41, 0x00, 0x42, 0x0a])],
    ] as const) {
      const r = await uploadFile(t, admin, name, data);
      expect(r.status, name).toBe(406);
      expect(r.info).toBe('Only csv files (UTF-8 text) and xlsx workbooks can be imported');
    }
    expect(await files()).toBe(before);
  });

  it('reports bad rows with their lines and refuses to import them', async () => {
    const csv = [
      'device,time,level,volt',
      'DEV-wl1,2024-03-11 10:00:00,1,1', // line 2: fine
      'DEV-wl1,2024-13-11 10:00:00,1,1', // 3: bad date
      'DEV-wl1,2024-03-11 11:00:00,abc,1', // 4: bad number
      'NOPE,2024-03-11 12:00:00,1,1', // 5: unknown device
      'DEV-b1,2024-03-11 12:00:00,1,1', // 6: out of scope (for the field user)
      'DEV-wl1,2024-02-30 10:00:00,1,1', // 7: no such day
      ',2024-03-11 13:00:00,1,1', // 8: no device
      'DEV-wl1,2024-03-11 14:00:00,,', // 9: no value
    ].join('\n');
    const role = await roleWith(t, admin, 'importer', ['monitor', 'monitor:dataImport']);
    const field = await userToken(t, admin, { account: 'importer1', roleCode: role, platformIds: [siteA] });
    const up = await uploadFile(t, field, 'bad.csv', Buffer.from(csv));
    expect(up.status, up.info).toBe(0);
    const dry = await dryRun(t, field, mapping(up.data.fileId));
    const d = dry.result as DryRunResult;
    expect(d.errorCount).toBe(7);
    expect(d.toAdd).toBe(1);
    expect(d.errors.map((e) => [e.line, e.reason])).toEqual([
      [3, 'badDate'],
      [4, 'badNumber'],
      [5, 'unknownDevice'],
      [6, 'deviceOutOfScope'],
      [7, 'badDate'],
      [8, 'missingDevice'],
      [9, 'noValue'],
    ]);
    expect(d.errors[1]).toMatchObject({ column: 'level', value: 'abc' });
    const r = await t.api('POST', `${DI}/import`, { token: field, body: { jobId: dry.id } });
    expect(r.status).toBe(422);
    expect(r.info).toBe('The dry run found 7 errors: nothing is imported from this file');
    expect(await count(dev.b!, false)).toBe(0);
    const at = await sql<{ n: number }>`select count(*)::int as n from readings where device_id = ${dev.wl1!}
      and ts = '2024-03-11T02:00:00Z'`.execute(t.db.k);
    expect(at.rows[0]!.n).toBe(0);

    // A quantity the device's type does not have.
    const up2 = await uploadFile(t, field, 'q.csv', Buffer.from('device,time,rain\nDEV-wl1,2024-03-12,3\n'));
    const dry2 = await dryRun(t, field, { ...mapping(up2.data.fileId), quantities: { rainfall: 2 } });
    expect((dry2.result as DryRunResult).errors[0]).toMatchObject({ line: 2, reason: 'notOfType', value: 'rainfall' });
  });

  it('needs the time column, a known zone and a finished dry run', async () => {
    const up = await uploadFile(t, admin, 'x.csv', Buffer.from('device,time,level\nDEV-wl1,2024-03-12,3\n'));
    const noTime = await t.api('POST', `${DI}/dryRun`, {
      token: admin,
      body: { fileId: up.data.fileId, deviceColumn: 0, timeZone: 'UTC', quantities: { waterLevel: 2 } },
    });
    expect(noTime.status).toBe(422);
    expect(noTime.info).toContain('timeColumn is required');
    const zone = await t.api('POST', `${DI}/dryRun`, {
      token: admin,
      body: mapping(up.data.fileId, { timeZone: 'Mars/Olympus' }),
    });
    expect(zone.status).toBe(422);
    const missingCol = await dryRun(t, admin, mapping(up.data.fileId));
    expect(missingCol.state).toBe('failed');
    expect(missingCol.error).toBe('The file has no column 4');
    const imp = await t.api('POST', `${DI}/import`, { token: admin, body: { jobId: missingCol.id } });
    expect(imp.status).toBe(422);
  });

  it('keeps jobs to their owner; the import needs its permission', async () => {
    const up = await uploadFile(t, admin, 'own.csv', Buffer.from('device,time,level\nDEV-wl1,2024-03-13,3\n'));
    const dry = await dryRun(t, admin, { ...mapping(up.data.fileId), quantities: { waterLevel: 2 } });
    const role = await roleWith(t, admin, 'importer2', ['monitor', 'monitor:dataImport']);
    const other = await userToken(t, admin, { account: 'importer2', roleCode: role, scopeAll: true });
    const seen = await t.api('GET', `${JOB}/get`, { token: other, query: { id: String(dry.id) } });
    expect(seen.status).toBe(404);
    const cancel = await t.api('POST', `${JOB}/cancel`, { token: other, body: { id: dry.id } });
    expect(cancel.status).toBe(404);
    const list = await t.api<{ list: Job[]; total: number }>('GET', `${JOB}/getListPage`, { token: other });
    expect(list.data.list.map((j) => j.id)).not.toContain(dry.id);
    // His own upload id of mine is missing too, and so is importing my dry run.
    const pv = await t.api('GET', `${DI}/preview`, { token: other, query: { fileId: up.data.fileId } });
    expect(pv.status).toBe(404);
    const imp = await t.api('POST', `${DI}/import`, { token: other, body: { jobId: dry.id } });
    expect(imp.status).toBe(404);
    const mine = await t.api<{ list: Job[] }>('GET', `${JOB}/getListPage`, { token: admin });
    expect(mine.data.list.map((j) => j.id)).toContain(dry.id);

    const plain = await userToken(t, admin, { account: 'viewer1', roleCode: 'user', scopeAll: true });
    const up2 = await uploadFile(t, plain, 'v.csv', Buffer.from('a,b\n1,2\n'));
    expect(up2.status).toBe(1003);
    const dr = await t.api('POST', `${DI}/dryRun`, { token: plain, body: mapping(up.data.fileId) });
    expect(dr.status).toBe(1003);
  });

  it('judges recent imported readings by the alert rules, not old ones', async () => {
    const rule = (deviceId: number) => ({
      deviceId,
      quantity: 'waterLevel',
      valueType: 'threshold',
      channels: ['mail'],
      groupId: 7,
      pushIntervalMinutes: 30,
      level: 1,
      value: 5,
    });
    for (const d of [dev.old!, dev.new!]) {
      const r = await t.api('POST', '/api/v2/data/alert/manage/value/add', { token: admin, body: rule(d) });
      expect(r.status, r.info).toBe(0);
    }
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const csv = [
      'device,time,level',
      `DEV-old,${iso(now - 30 * H)},9`,
      `DEV-old,${iso(now - 29 * H)},9.5`,
      `DEV-new,${iso(now - 2 * H)},9`,
    ].join('\n');
    const up = await uploadFile(t, admin, 'alerts.csv', Buffer.from(csv));
    const dry = await dryRun(t, admin, { ...mapping(up.data.fileId), quantities: { waterLevel: 2 } });
    const imp = await importOf(t, admin, dry.id);
    expect(imp.result as ImportResult).toMatchObject({ added: 3, silent: 2, evaluated: 1 });
    await new Promise((r) => setTimeout(r, 50));
    await t.built.alertEngine.idle();
    const alerts = async (d: number) =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from alerts where device_id = ${d}`.execute(t.db.k))
          .rows[0]!.n,
      );
    expect(await alerts(dev.new!)).toBe(1);
    expect(await alerts(dev.old!)).toBe(0);
    const outbox = await sql<{ n: number }>`select count(*)::int as n from notification_outbox o
      join alerts a on a.id = o.alert_id where a.device_id = ${dev.old!}`.execute(t.db.k);
    expect(outbox.rows[0]!.n).toBe(0);
  });

  it('cancels a queued job; a finished one cannot be cancelled', async () => {
    const up = await uploadFile(t, admin, 'c.csv', Buffer.from('device,time,level\nDEV-wl1,2024-03-14,3\n'));
    const done = await dryRun(t, admin, { ...mapping(up.data.fileId), quantities: { waterLevel: 2 } });
    const again = await t.api('POST', `${JOB}/cancel`, { token: admin, body: { id: done.id } });
    expect(again.status).toBe(409);
    await t.built.jobs.close();
    const q = await t.api<Job>('POST', `${DI}/dryRun`, {
      token: admin,
      body: { ...mapping(up.data.fileId), quantities: { waterLevel: 2 } },
    });
    const c = await t.api<Job>('POST', `${JOB}/cancel`, { token: admin, body: { id: q.data.id } });
    expect(c.status, c.info).toBe(0);
    expect(c.data.state).toBe('cancelled');
    t.built.jobs.start();
    expect((await settled(t, admin, q.data.id)).state).toBe('cancelled');
  });
});
