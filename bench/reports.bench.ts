// Report renderers benchmark (issue 17): a month of hourly statistics for 50 devices as xlsx (< 10 s) and as
// PDF (< 20 s), and a year of minute readings (525,600 rows) of one device streamed as xlsx with the process's
// RSS growth < 200 MB; each against raw exceljs writing the same rows in the same run (the peer). Renders in this
// process from ready documents (the statistics queries are measured by the module data tests and benches).
// Sizes: BENCH_REPORT_DEVICES (50), BENCH_REPORT_MINUTES (525600).
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { ReportCellValue, ReportDocument } from '@geosentry/contract';
import { renderReport, type StreamingReportDocument } from '../server/src/platform/reports/index.ts';
import { cleanup, fmt, machine, num, printTable, tmp } from './lib.ts';

const DEVICES = num('BENCH_REPORT_DEVICES', 50);
const MINUTES = num('BENCH_REPORT_MINUTES', 525_600);
const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const monthRows = (d: number): ReportCellValue[][] =>
  Array.from({ length: 720 }, (_, h) => {
    const v = Math.round((Math.sin((h + d) / 24) * 10 + d) * 100) / 100;
    return [new Date(T0 + h * HOUR).toISOString(), v + 1, v - 1, v, 0.12];
  });

function monthDoc(): ReportDocument {
  return {
    title: 'Module data report · GNSS',
    language: 'en',
    timeZone: 'Asia/Shanghai',
    generatedAt: new Date().toISOString(),
    meta: [{ label: 'Site', value: 'Bench dam' }],
    fileName: 'bench',
    sections: Array.from({ length: DEVICES }, (_, d) => ({
      title: `Device ${d + 1}`,
      blocks: [
        {
          kind: 'table' as const,
          columns: [
            { label: 'Hour', kind: 'time' as const },
            { label: 'Max', unit: 'mm', kind: 'number' as const, decimals: 2 },
            { label: 'Min', unit: 'mm', kind: 'number' as const, decimals: 2 },
            { label: 'Average', unit: 'mm', kind: 'number' as const, decimals: 2 },
            { label: 'Change', unit: 'mm', kind: 'number' as const, decimals: 2 },
          ],
          rows: monthRows(d),
        },
      ],
    })),
  };
}

async function timed(f: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

async function rawExcel(file: string, sheets: { name: string; rows: () => Iterable<unknown[]> }[]): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true });
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name);
    for (const r of s.rows()) ws.addRow(r).commit();
    ws.commit();
  }
  await wb.commit();
}

async function main(): Promise<void> {
  const dir = tmp();
  const rows: string[][] = [];
  try {
    async function* minutes(): AsyncGenerator<ReportCellValue[]> {
      for (let i = 0; i < MINUTES; i++)
        yield [new Date(T0 + i * 60_000).toISOString(), Math.round(Math.sin(i / 500) * 1000) / 100];
    }
    const yearDoc: StreamingReportDocument = {
      ...monthDoc(),
      sections: [
        {
          title: 'Readings',
          blocks: [
            {
              kind: 'table',
              columns: [
                { label: 'Time', kind: 'time' },
                { label: 'Value', unit: 'mm', kind: 'number', decimals: 2 },
              ],
              rows: minutes(),
            },
          ],
        },
      ],
    };
    const rss0 = process.memoryUsage().rss;
    const heap0 = process.memoryUsage().heapUsed;
    let peak = rss0;
    let heapPeak = heap0;
    const probe = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      heapPeak = Math.max(heapPeak, m.heapUsed);
    }, 100);
    const year = await timed(() => renderReport(yearDoc, 'xlsx', fs.createWriteStream(path.join(dir, 'y.xlsx'))));
    clearInterval(probe);
    const growth = (peak - rss0) / 2 ** 20;
    const peerY = await timed(() =>
      rawExcel(path.join(dir, 'py.xlsx'), [
        {
          name: 'Readings',
          rows: function* () {
            for (let i = 0; i < MINUTES; i++)
              yield [new Date(T0 + i * 60_000), Math.round(Math.sin(i / 500) * 1000) / 100];
          },
        },
      ]),
    );
    rows.push([
      `${fmt(MINUTES)} minute readings xlsx (streamed)`,
      `${fmt(year, 2)} s, RSS +${fmt(growth)} MB, heap +${fmt((heapPeak - heap0) / 2 ** 20)} MB`,
      `raw exceljs ${fmt(peerY, 2)} s`,
      `${growth < 200 ? 'meets' : 'MISSES'} RSS growth < 200 MB; ${fmt(year / peerY, 1)}x`,
    ]);
    const doc = monthDoc();
    const xlsx = await timed(() => renderReport(doc, 'xlsx', fs.createWriteStream(path.join(dir, 'm.xlsx'))));
    const peerX = await timed(() =>
      rawExcel(
        path.join(dir, 'p.xlsx'),
        doc.sections.map((s) => ({ name: s.title, rows: () => (s.blocks[0] as { rows: ReportCellValue[][] }).rows })),
      ),
    );
    rows.push([
      `month hourly, ${DEVICES} devices (${fmt(DEVICES * 720)} rows) xlsx`,
      `${fmt(xlsx, 2)} s`,
      `raw exceljs ${fmt(peerX, 2)} s`,
      `${xlsx < 10 ? 'meets' : 'MISSES'} < 10 s; ${fmt(xlsx / peerX, 1)}x`,
    ]);
    const pdf = await timed(() => renderReport(doc, 'pdf', fs.createWriteStream(path.join(dir, 'm.pdf'))));
    const pages = (
      fs
        .readFileSync(path.join(dir, 'm.pdf'))
        .toString('latin1')
        .match(/\/Type \/Page\b/g) ?? []
    ).length;
    rows.push([
      `same as PDF (${fmt(pages)} pages)`,
      `${fmt(pdf, 2)} s`,
      `raw exceljs ${fmt(peerX, 2)} s`,
      `${pdf < 20 ? 'meets' : 'MISSES'} < 20 s; ${fmt(pdf / peerX, 1)}x`,
    ]);

    printTable(`Report renderers, ${machine()}`, rows);
    if (rows.some((r) => r[3]!.startsWith('MISSES'))) process.exitCode = 1;
  } finally {
    cleanup();
  }
}

if (process.argv[1]?.endsWith('reports.bench.ts'))
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
