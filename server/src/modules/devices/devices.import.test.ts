import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { Status, type DeviceImportJob, type DeviceRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, DEVICE, deviceBody, roleWith, userToken } from './testkit.ts';
import { parseCsv } from '../../platform/files/spreadsheet.ts';

type Page<T> = { list: T[]; total: number };

describe('device import and export', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let termA: number;
  let termB: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'tailings', name: 'Tailings A' });
    siteB = await buildPlatform(t, { type: 'river', name: 'River B' });
    termA = (await addTerminal(t, admin, siteA, 'IA')).terminalId;
    termB = (await addTerminal(t, admin, siteB, 'IB')).terminalId;
  });
  afterAll(() => t.close());

  const startImport = (token: string, body: Record<string, unknown>) =>
    t.api<{ jobId: string; total: number }>('POST', `${DEVICE}/common/import`, { token, body });

  async function waitFor(token: string, jobId: string): Promise<{ job: DeviceImportJob; seen: number[] }> {
    const seen: number[] = [];
    for (let i = 0; i < 600; i++) {
      const r = await t.api<DeviceImportJob>('GET', `${DEVICE}/common/importProgress`, { token, query: { jobId } });
      expect(r.status).toBe(0);
      seen.push(r.data.done);
      if (r.data.status !== 'running') return { job: r.data, seen };
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('import did not finish');
  }

  const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

  it('imports the good rows of a CSV and reports each bad row with its field', async () => {
    await addDevice(t, admin, deviceBody(siteA, termA, 'existing'));
    const csv = [
      'deviceName,number,moduleId,platformId,terminalId,ip,port,offset,initialValues,unknownColumn',
      `Good one,IMP-1,2,${siteA},${termA},10.0.0.1,502,-1.5,"{""rainfall"": 0}",ignored`,
      `Bad ip,IMP-2,2,${siteA},${termA},999.0.0.1,502,,,`,
      `Good two,IMP-3,9,${siteA},${termA},10.0.0.3,502,,,`,
      `Same number,IMP-1,2,${siteA},${termA},10.0.0.4,502,,,`,
      `Unknown type,IMP-5,18,${siteA},${termA},10.0.0.5,502,,,`,
      `Taken,DEV-existing,2,${siteA},${termA},10.0.0.6,502,,,`,
      `Other site terminal,IMP-7,2,${siteA},${termB},10.0.0.7,502,,,`,
      `No port,IMP-8,2,${siteA},${termA},10.0.0.8,,,,`,
      ',,,,,,,,,',
      `Defaults,IMP-10,2,,,10.0.0.10,502,,,`,
    ].join('\r\n');
    const r = await startImport(admin, {
      format: 'csv',
      contentBase64: b64(csv),
      platformId: siteA,
      terminalId: termA,
    });
    expect(r.status).toBe(0);
    expect(r.info).toBe('Import started');
    expect(r.data.total).toBe(9);
    const { job } = await waitFor(admin, r.data.jobId);
    expect(job).toMatchObject({ status: 'done', total: 9, done: 9, inserted: 3 });
    const byRow = Object.fromEntries(job.errors.map((e) => [e.row, e]));
    expect(byRow[3]).toMatchObject({ field: 'ip' });
    expect(byRow[5]).toMatchObject({ field: 'number' });
    expect(byRow[5]!.message).toMatch(/repeats row 2/);
    expect(byRow[6]).toMatchObject({ field: 'moduleId' });
    expect(byRow[7]).toMatchObject({ field: 'number' });
    expect(byRow[7]!.message).toMatch(/already exists/);
    expect(byRow[8]).toMatchObject({ field: 'terminalId' });
    expect(byRow[9]).toMatchObject({ field: 'port', message: 'port is required' });
    expect(Object.keys(byRow).sort()).toEqual(['3', '5', '6', '7', '8', '9']);

    const list = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { keyword: 'IMP-' },
    });
    expect(list.data.list.map((d) => d.number).sort()).toEqual(['IMP-1', 'IMP-10', 'IMP-3']);
    expect(list.data.list.find((d) => d.number === 'IMP-1')).toMatchObject({
      offset: -1.5,
      initialValues: { rainfall: 0 },
      platformId: siteA,
      terminalId: termA,
    });
    expect(list.data.list.find((d) => d.number === 'IMP-10')).toMatchObject({ platformId: siteA, terminalId: termA });
  });

  it('imports in batches of 500 with progress reaching the total', async () => {
    const rows = ['deviceName,number,moduleId,platformId,terminalId,ip,port'];
    for (let i = 0; i < 1203; i++)
      rows.push(`Bulk ${i},BULK-${i},${i % 7 === 0 ? 99 : 3},${siteB},${termB},10.1.${i % 250}.1,${1000 + i}`);
    const r = await startImport(admin, { format: 'csv', contentBase64: b64(rows.join('\n')) });
    expect(r.status).toBe(0);
    const { job, seen } = await waitFor(admin, r.data.jobId);
    const bad = Math.ceil(1203 / 7);
    expect(job).toMatchObject({ status: 'done', total: 1203, done: 1203, inserted: 1203 - bad });
    expect(job.errors.length).toBe(bad);
    expect(job.errors.every((e) => e.field === 'moduleId')).toBe(true);
    expect(seen.every((v, i) => i === 0 || v >= seen[i - 1]!)).toBe(true);
    expect(seen.at(-1)).toBe(1203);
    const count = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { keyword: 'BULK-', pageSize: '1' },
    });
    expect(count.data.total).toBe(1203 - bad);
  });

  it('accepts a file larger than the app-wide body limit, with case-insensitive column names', async () => {
    const rows = ['DEVICENAME,Number,moduleid,PlatformId,terminalId,IP,port,description'];
    const long = 'x'.repeat(1900);
    for (let i = 0; i < 700; i++) rows.push(`Big ${i},BIG-${i},2,${siteB},${termB},10.2.0.1,502,${long}`);
    const content = b64(rows.join('\n'));
    expect(content.length).toBeGreaterThan(1024 * 1024);
    const r = await startImport(admin, { format: 'csv', contentBase64: content });
    expect(r.status).toBe(0);
    const { job } = await waitFor(admin, r.data.jobId);
    expect(job).toMatchObject({ status: 'done', total: 700, inserted: 700, errors: [] });
  });

  it('refuses unreadable and empty files, and keeps jobs private to their user', async () => {
    const garbage = await startImport(admin, { format: 'xlsx', contentBase64: b64('this is not a zip file') });
    expect(garbage.status).toBe(Status.invalid);
    expect(garbage.info).toBe('The file cannot be read as XLSX');
    const unterminated = await startImport(admin, { format: 'csv', contentBase64: b64('deviceName,number\n"open,x') });
    expect(unterminated.info).toBe('The file cannot be read as CSV');
    const empty = await startImport(admin, { format: 'csv', contentBase64: b64('deviceName,number\r\n\r\n') });
    expect(empty.info).toBe('The file has no data rows');
    const bad = await startImport(admin, { format: 'ods', contentBase64: b64('x') });
    expect(bad.status).toBe(Status.invalid);

    const ok = await startImport(admin, { format: 'csv', contentBase64: b64(`deviceName,number\nX,PRIV-1`) });
    await waitFor(admin, ok.data.jobId);
    await roleWith(t, admin, 'importer', ['information:device']);
    const other = await userToken(t, admin, { account: 'importer1', roleCode: 'importer', platformIds: [siteA] });
    const foreign = await t.api('GET', `${DEVICE}/common/importProgress`, {
      token: other,
      query: { jobId: ok.data.jobId },
    });
    const missing = await t.api('GET', `${DEVICE}/common/importProgress`, {
      token: other,
      query: { jobId: 'no-such-job' },
    });
    expect(foreign).toEqual(missing);
    expect(foreign.status).toBe(Status.notFound);

    // A scoped importer cannot import into a foreign site.
    const scoped = await startImport(other, {
      format: 'csv',
      contentBase64: b64(
        `deviceName,number,moduleId,platformId,terminalId,ip,port\nS,SCOPE-1,2,${siteB},${termB},10.0.0.1,1`,
      ),
    });
    const { job } = await waitFor(other, scoped.data.jobId);
    expect(job.inserted).toBe(0);
    expect(job.errors[0]).toMatchObject({ row: 2, field: 'platformId' });
  });

  it('exports the filtered devices as CSV with formula cells neutralised, and the file imports back', async () => {
    await addDevice(
      t,
      admin,
      deviceBody(siteA, termA, 'f1', {
        deviceName: '=HYPERLINK("http://evil","x")',
        description: '+SUM(A1:A2)',
        group: '@cmd',
        offset: -2,
      }),
    );
    const res = await t.raw('GET', `${DEVICE}/common/export?format=csv&platformId=${siteA}`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="devices-\d{8}-\d{6}\.csv"$/);
    const text = res.body;
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text).not.toContain('"status"');
    const table = parseCsv(text);
    expect(table.header.slice(0, 3)).toEqual(['deviceName', 'number', 'description']);
    expect(table.header).toEqual(
      expect.arrayContaining(['deviceId', 'platformName', 'terminalName', 'state', 'moduleName']),
    );
    const lines = text.split('\r\n');
    const evil = lines.find((l) => l.includes('HYPERLINK'))!;
    expect(evil.startsWith(`"'=HYPERLINK(""http://evil"",""x"")"`)).toBe(true);
    expect(evil).toContain(`'+SUM(A1:A2)`);
    expect(evil).toContain(`'@cmd`);
    expect(evil).toContain(',-2,'); // plain negative numbers stay numbers
    expect(lines.some((l) => l.includes('IMP-1,'))).toBe(true);
    expect(lines.some((l) => l.includes('BULK-'))).toBe(false); // other site filtered out

    // Unneutralised on the way back in: delete the device, import the exported file, get the same name back.
    const list = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { keyword: 'DEV-f1' },
    });
    await t.api('POST', `${DEVICE}/common/delete`, { token: admin, body: { deviceId: list.data.list[0]!.deviceId } });
    const back = await startImport(admin, { format: 'csv', contentBase64: b64(text) });
    const { job } = await waitFor(admin, back.data.jobId);
    expect(job.inserted).toBe(1);
    const again = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { keyword: 'DEV-f1' },
    });
    expect(again.data.list[0]).toMatchObject({
      deviceName: '=HYPERLINK("http://evil","x")',
      description: '+SUM(A1:A2)',
      group: '@cmd',
      offset: -2,
    });
  });

  it('exports XLSX (numbers as numbers, text neutralised) and imports XLSX', async () => {
    const res = await t.raw(
      'GET',
      `${DEVICE}/common/export?format=xlsx&platformId=${siteA}&token=${encodeURIComponent(admin)}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/\.xlsx"$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 2)).toEqual(['deviceName', 'number']);
    const col = (name: string): number => header.indexOf(name) + 1;
    let evilName: unknown;
    let portCell: unknown;
    ws.eachRow((row, n) => {
      if (n > 1 && row.getCell(col('number')).value === 'DEV-f1') {
        evilName = row.getCell(col('deviceName')).value;
        portCell = row.getCell(col('port')).value;
      }
    });
    expect(evilName).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(portCell).toBe(502);

    // Import an XLSX made from scratch.
    const out = new ExcelJS.Workbook();
    const sheet = out.addWorksheet('devices');
    sheet.addRow(['deviceName', 'number', 'moduleId', 'platformId', 'terminalId', 'ip', 'port']);
    sheet.addRow(['Xlsx one', 'XL-1', 36, siteA, termA, '10.9.0.1', 502]);
    sheet.addRow(['Xlsx bad', 'XL-2', 36, siteA, termA, '10.9.0.1', 99999]);
    const buf = Buffer.from((await out.xlsx.writeBuffer()) as ArrayBuffer);
    const r = await startImport(admin, { format: 'xlsx', contentBase64: buf.toString('base64') });
    const { job } = await waitFor(admin, r.data.jobId);
    expect(job).toMatchObject({ status: 'done', total: 2, inserted: 1, errors: [{ row: 3, field: 'port' }] });
  });

  it('limits the export to the data scope and needs the permission', async () => {
    await roleWith(t, admin, 'exporter', ['information:device']);
    const tok = await userToken(t, admin, { account: 'exporter1', roleCode: 'exporter', platformIds: [siteB] });
    const res = await t.raw('GET', `${DEVICE}/common/export?format=csv`, { token: tok });
    const table = parseCsv(res.body);
    const site = table.header.indexOf('platformId');
    expect(table.rows.length).toBeGreaterThan(1000);
    expect(table.rows.every((r) => r.cells[site] === String(siteB))).toBe(true);
    const plain = await userToken(t, admin, { account: 'exporter2', roleCode: 'user', platformIds: [siteB] });
    const denied = await t.raw('GET', `${DEVICE}/common/export?format=csv`, { token: plain });
    expect(denied.json().status).toBe(Status.noPermission);
  });
});
