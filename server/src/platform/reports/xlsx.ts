// The xlsx renderer: exceljs's streaming WorkbookWriter, so rows are committed as they come (a year of minute
// readings in bounded memory). One sheet per section (unique names of at most 31 characters), the document's
// meta card on top of each sheet, the zone named, numbers with their column's decimals, times as dates showing
// the zone's wall clock, every text cell neutralised against formula injection.
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ReportColumn } from '@geosentry/contract';
import { neutralise } from '../files/spreadsheet.ts';
import { cellText, columnTitle, formatTime, sheetName, wallClockDate } from './format.ts';
import { rowsOf, type StreamingReportDocument } from './types.ts';

const numFmt = (c: ReportColumn): string | undefined =>
  c.kind === 'time'
    ? 'yyyy-mm-dd hh:mm'
    : c.decimals !== undefined
      ? c.decimals
        ? `0.${'0'.repeat(c.decimals)}`
        : '0'
      : undefined;

export interface XlsxLabels {
  /** "Time zone" in the document's language. */
  timeZone: string;
  generatedAt: string;
}

/** One turn of the event loop, and the output's drain when its buffer is full. */
async function settle(out: Writable): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (out.writableNeedDrain) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}

export async function renderXlsx(doc: StreamingReportDocument, out: Writable, labels: XlsxLabels): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  wb.creator = 'Geosentry';
  const taken = new Set<string>();
  const text = (s: string): string => neutralise(s);
  const sections = doc.sections.length ? doc.sections : [{ title: doc.title, blocks: [] }];
  for (const section of sections) {
    const ws = wb.addWorksheet(sheetName(section.title, taken));
    // A streamed sheet writes its column widths before its first row: they come from the column definitions.
    const widths: number[] = [18, 18];
    for (const b of section.blocks) {
      if (b.kind === 'table')
        b.columns.forEach((c, i) => {
          const w = Math.max(c.width ?? 0, columnTitle(c).length + 2, c.kind === 'time' ? doc.timeZone.length + 20 : 0);
          widths[i] = Math.max(widths[i] ?? 10, Math.min(40, w));
        });
      if (b.kind === 'chart')
        b.chart.series.forEach(
          (s, i) => (widths[i + 1] = Math.max(widths[i + 1] ?? 10, Math.min(40, s.name.length + 8))),
        );
    }
    ws.columns = widths.map((width) => ({ width }));
    const head = ws.addRow([text(doc.title)]);
    head.font = { bold: true, size: 14 };
    head.commit();
    if (doc.subtitle) ws.addRow([text(doc.subtitle)]).commit();
    for (const m of doc.meta) ws.addRow([text(m.label), text(m.value)]).commit();
    ws.addRow([text(labels.timeZone), text(doc.timeZone)]).commit();
    ws.addRow([text(labels.generatedAt), text(formatTime(doc.generatedAt, doc.timeZone))]).commit();
    ws.addRow([]).commit();
    for (const block of section.blocks) {
      switch (block.kind) {
        case 'heading': {
          const r = ws.addRow([text(block.text)]);
          r.font = { bold: true, size: block.level === 1 ? 13 : 11 };
          r.commit();
          break;
        }
        case 'paragraph':
          ws.addRow([text(block.text)]).commit();
          break;
        case 'fields':
          for (const f of block.fields) ws.addRow([text(f.label), text(f.value)]).commit();
          break;
        case 'table': {
          if (block.caption) {
            const r = ws.addRow([text(block.caption)]);
            r.font = { bold: true };
            r.commit();
          }
          const cols = block.columns;
          const header = ws.addRow(
            cols.map((c) => text(c.kind === 'time' ? `${columnTitle(c)} (${doc.timeZone})` : columnTitle(c))),
          );
          header.font = { bold: true };
          header.commit();
          const emphasis = new Set(block.emphasis ?? []);
          let index = 0;
          for await (const cells of rowsOf(block.rows)) {
            const values = cells.map((v, i) => {
              const c = cols[i];
              if (v === null) return null;
              if (c?.kind === 'time' && typeof v === 'string') {
                const ms = Date.parse(v);
                return Number.isFinite(ms) ? wallClockDate(ms, doc.timeZone) : text(v);
              }
              if (typeof v === 'number') return Number.isFinite(v) ? v : null;
              return text(v);
            });
            const r = ws.addRow(values);
            cols.forEach((c, i) => {
              const f = numFmt(c);
              if (f) r.getCell(i + 1).numFmt = f;
            });
            if (emphasis.has(index)) r.font = { bold: true };
            r.commit();
            index++;
            // Let the zip and the file catch up: without a pause the committed rows wait in memory, compressed
            // and written only at the end of a long synchronous run (a year of minutes grew the RSS by 200 MB).
            if (index % 500 === 0) await settle(out);
          }
          ws.addRow([]).commit();
          break;
        }
        case 'chart': {
          // The chart's data, one column per series, under its title (a picture needs a rasteriser; the PDF draws it).
          const ch = block.chart;
          const r = ws.addRow([text(ch.title)]);
          r.font = { bold: true };
          r.commit();
          const xTitle =
            ch.x.scale === 'time'
              ? `${ch.x.label ?? ''} (${doc.timeZone})`.trim()
              : columnTitle({ label: ch.x.label ?? 'x', unit: ch.x.unit });
          const hr = ws.addRow([
            text(xTitle),
            ...ch.series.map((s) => text(ch.y.unit ? `${s.name} (${ch.y.unit})` : s.name)),
          ]);
          hr.font = { bold: true };
          hr.commit();
          const xsAll = [...new Set(ch.series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
          const bySeries = ch.series.map((s) => new Map(s.points.map((p) => [p[0], p[1]])));
          for (const x of xsAll) {
            const xv =
              ch.x.scale === 'time'
                ? wallClockDate(x, doc.timeZone)
                : ch.x.scale === 'category'
                  ? text(ch.x.categories?.[x] ?? String(x))
                  : x;
            const row = ws.addRow([xv, ...bySeries.map((m) => m.get(x) ?? null)]);
            if (ch.x.scale === 'time') row.getCell(1).numFmt = 'yyyy-mm-dd hh:mm';
            row.commit();
          }
          for (const l of ch.lines ?? []) ws.addRow([text(l.label), l.value]).commit();
          ws.addRow([]).commit();
          break;
        }
        case 'images':
          for (const im of block.images)
            ws.addRow([
              text(im.caption),
              im.takenAt ? text(formatTime(im.takenAt, doc.timeZone)) : null,
              im.note ? text(im.note) : null,
            ]).commit();
          break;
        case 'pageBreak':
          break;
      }
    }
    ws.commit();
  }
  await wb.commit();
}

export { cellText };
