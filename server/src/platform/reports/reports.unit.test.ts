import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ReportDocument } from '@geosentry/contract';
import {
  attachmentHeader,
  chartSvg,
  renderReportBuffer,
  reportFileName,
  type StreamingReportDocument,
} from './index.ts';

const t0 = Date.UTC(2026, 10, 1, 0, 0);
const doc = (language: 'en' | 'zh' | 'ko', title: string): ReportDocument => ({
  title,
  language,
  timeZone: 'Asia/Shanghai',
  generatedAt: '2026-11-29T01:00:00.000Z',
  meta: [{ label: 'Site', value: '=HYPERLINK("x")' }],
  fileName: 'report-1',
  sections: [
    {
      title: 'Statistics: [a]/b*c?',
      blocks: [
        { kind: 'heading', text: 'GNSS', level: 2 },
        {
          kind: 'table',
          caption: 'Table',
          columns: [
            { label: 'Time', kind: 'time' },
            { label: 'Device' },
            { label: 'Max', unit: 'mm', kind: 'number', decimals: 2 },
          ],
          rows: Array.from({ length: 120 }, (_, i) => [
            new Date(t0 + i * 3_600_000).toISOString(),
            i === 0 ? '=1+1' : `D${i}`,
            i / 10,
          ]),
          emphasis: [0],
        },
        {
          kind: 'chart',
          chart: {
            title: 'Displacement',
            x: { scale: 'time' },
            y: { scale: 'value', unit: 'mm' },
            series: [
              {
                name: 'D1',
                points: Array.from({ length: 48 }, (_, i) => [t0 + i * 3_600_000, Math.sin(i / 5)] as [number, number]),
              },
            ],
            lines: [{ label: 'Limit 1.0', value: 1 }],
          },
        },
      ],
    },
  ],
});

function pdfText(buf: Buffer): string {
  const file = path.join(os.tmpdir(), `report-test-${process.pid}-${Math.random()}.pdf`);
  fs.writeFileSync(file, buf);
  try {
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(file, { force: true });
  }
}

describe('report renderers', () => {
  it('writes a PDF whose Chinese and Korean text can be extracted, with page numbers', async () => {
    const zh = await renderReportBuffer(doc('zh', '模块数据报表'), 'pdf');
    expect(zh.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(zh);
    expect(text).toContain('模块数据报表');
    expect(text).toMatch(/第\s*1\s*\/\s*\d+\s*页/);
    expect(text).toContain('（续）');
    const ko = pdfText(await renderReportBuffer(doc('ko', '모듈 데이터 보고서'), 'pdf'));
    expect(ko).toContain('모듈 데이터 보고서');
    // 00:00 UTC is 08:00 in Shanghai.
    expect(ko).toContain('2026-11-01 08:00');
    // The first PDF reads the CJK font collection (about 20 MB).
  }, 30_000);

  it('writes an xlsx with a safe sheet name, neutralised cells, zone times and number formats', async () => {
    const buf = await renderReportBuffer(doc('en', 'Module data'), 'xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Statistics   a  b c');
    const values = ws
      .getSheetValues()
      .flat()
      .map((v) => (v instanceof Date ? v.toISOString() : v));
    expect(values).toContain('\'=HYPERLINK("x")');
    expect(values).toContain("'=1+1");
    expect(values).toContain('Asia/Shanghai');
    expect(values).toContain('2026-11-01T08:00:00.000Z');
    let fmt = '';
    ws.eachRow((r) => {
      if (r.getCell(3).value === 0.1) fmt = r.getCell(3).numFmt;
    });
    expect(fmt).toBe('0.00');
  });

  it('streams a table given as an async iterable', async () => {
    async function* rows() {
      for (let i = 0; i < 5000; i++) yield [new Date(t0 + i * 60_000).toISOString(), i];
    }
    const d: StreamingReportDocument = {
      ...doc('en', 'Stream'),
      sections: [
        {
          title: 'Readings',
          blocks: [
            {
              kind: 'table',
              columns: [
                { label: 'Time', kind: 'time' },
                { label: 'v', kind: 'number', decimals: 0 },
              ],
              rows: rows(),
            },
          ],
        },
      ],
    };
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await renderReportBuffer(d, 'xlsx')) as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.rowCount).toBeGreaterThan(5000);
  });

  it('names files safely (RFC 5987) and draws charts as SVG', () => {
    expect(reportFileName('../a/b:c.pdf', 'pdf')).toBe('_a_b_c.pdf');
    expect(reportFileName(undefined, 'xlsx')).toBe('report.xlsx');
    expect(attachmentHeader('报表.pdf')).toBe(`attachment; filename="__.pdf"; filename*=UTF-8''%E6%8A%A5%E8%A1%A8.pdf`);
    const block = doc('en', 'x').sections[0]!.blocks[2]!;
    if (block.kind !== 'chart') throw new Error('chart expected');
    const svg = chartSvg(block.chart, 'Asia/Shanghai');
    expect(svg).toContain('<polyline');
    expect(svg).toContain('Limit 1.0');
  });
});

if (process.env.REPORT_PREVIEW) {
  it('writes preview files', async () => {
    fs.writeFileSync(
      `${process.env.REPORT_PREVIEW}/zh.pdf`,
      await renderReportBuffer(doc('zh', '模块数据报表'), 'pdf'),
    );
  });
}
