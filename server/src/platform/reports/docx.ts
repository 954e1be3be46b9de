// The Word renderer (docx): the same document as the PDF, editable. Title and meta card, the zone named, one
// heading per section, tables with a repeating bold header row, charts as PNG pictures (raster.ts), pictures
// side by side with their dates and notes. Built in memory: Word files are for the reports people edit (the
// general report), never for a year of readings.
import {
  AlignmentType,
  BorderStyle,
  Document,
  HeadingLevel,
  ImageRun,
  Packer,
  PageBreak,
  PageOrientation,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import type { ReportColumn } from '@geosentry/contract';
import { cellText, columnTitle, formatTime } from './format.ts';
import { chartPng } from './raster.ts';
import { rendererLabels } from './labels.ts';
import { rowsOf, type StreamingReportDocument } from './types.ts';
import type { ImageReader } from './pdf.ts';

const FONT_SIZE = 20; // half-points: 10 pt
const TABLE_SIZE = 16; // 8 pt
const BORDER = { style: BorderStyle.SINGLE, size: 4, color: 'BFBFBF' } as const;
const BORDERS = { top: BORDER, bottom: BORDER, left: BORDER, right: BORDER };

const text = (s: string, opts: { bold?: boolean; size?: number; colour?: string } = {}) =>
  new TextRun({
    text: s,
    ...(opts.bold ? { bold: true } : {}),
    ...(opts.size ? { size: opts.size } : {}),
    ...(opts.colour ? { color: opts.colour } : {}),
  });

function cell(s: string, opts: { bold?: boolean; right?: boolean; shade?: boolean; width?: number } = {}): TableCell {
  return new TableCell({
    borders: BORDERS,
    ...(opts.shade ? { shading: { fill: 'F2F2F2' } } : {}),
    ...(opts.width ? { width: { size: opts.width, type: WidthType.PERCENTAGE } } : {}),
    children: [
      new Paragraph({
        ...(opts.right ? { alignment: AlignmentType.RIGHT } : {}),
        children: [text(s, { bold: opts.bold, size: TABLE_SIZE })],
      }),
    ],
  });
}

/** Label: value pairs as a two-column table (meta card, fields blocks). */
function fieldsTable(fields: readonly { label: string; value: string }[]): Table {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: fields.map(
      (f) =>
        new TableRow({
          children: [cell(f.label, { bold: true, shade: true, width: 28 }), cell(f.value, { width: 72 })],
        }),
    ),
  });
}

export async function renderDocx(doc: StreamingReportDocument, readImage?: ImageReader): Promise<Buffer> {
  const labels = rendererLabels(doc.language);
  const tz = doc.timeZone;
  const wide = doc.sections.some((s) => s.blocks.some((b) => b.kind === 'table' && b.columns.length > 8));
  // Page content width in points (A4 minus 2 × 2 cm margins), for pictures.
  const contentPt = wide ? 842 - 113 : 595 - 113;
  const children: (Paragraph | Table)[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [text(doc.title, { bold: true, size: 36 })] }),
  ];
  if (doc.subtitle) children.push(new Paragraph({ children: [text(doc.subtitle, { size: 24, colour: '595959' })] }));
  children.push(
    fieldsTable([
      ...doc.meta,
      { label: labels.timeZone, value: tz },
      { label: labels.generatedAt, value: formatTime(doc.generatedAt, tz) },
    ]),
  );
  for (const section of doc.sections) {
    children.push(
      new Paragraph({ heading: HeadingLevel.HEADING_1, spacing: { before: 240 }, children: [text(section.title)] }),
    );
    for (const block of section.blocks) {
      switch (block.kind) {
        case 'heading':
          children.push(
            new Paragraph({
              heading:
                block.level === 1
                  ? HeadingLevel.HEADING_1
                  : block.level === 2
                    ? HeadingLevel.HEADING_2
                    : HeadingLevel.HEADING_3,
              children: [text(block.text)],
            }),
          );
          break;
        case 'paragraph':
          for (const line of block.text.split('\n')) children.push(new Paragraph({ children: [text(line)] }));
          break;
        case 'fields':
          children.push(fieldsTable(block.fields));
          break;
        case 'table': {
          if (block.caption) children.push(new Paragraph({ children: [text(block.caption, { bold: true })] }));
          const cols: ReportColumn[] = block.columns;
          const emphasis = new Set(block.emphasis ?? []);
          const rows: TableRow[] = [
            new TableRow({
              tableHeader: true,
              children: cols.map((c) =>
                cell(c.kind === 'time' ? `${columnTitle(c)} (${tz})` : columnTitle(c), { bold: true, shade: true }),
              ),
            }),
          ];
          let i = 0;
          for await (const r of rowsOf(block.rows)) {
            const bold = emphasis.has(i++);
            rows.push(
              new TableRow({
                children: cols.map((c, j) => cell(cellText(r[j] ?? null, c, tz), { bold, right: c.kind === 'number' })),
              }),
            );
          }
          children.push(new Table({ width: { size: 100, type: WidthType.PERCENTAGE }, rows }));
          children.push(new Paragraph({ children: [] }));
          break;
        }
        case 'chart': {
          const w = 640;
          const h = 300;
          const png = chartPng(block.chart, tz, w, h);
          const width = Math.min(contentPt, w);
          children.push(
            new Paragraph({
              children: [
                new ImageRun({
                  type: 'png',
                  data: png,
                  transformation: { width, height: Math.round((width * h) / w) },
                }),
              ],
            }),
          );
          break;
        }
        case 'images': {
          const per = Math.min(2, Math.max(1, block.images.length));
          const width = Math.floor(contentPt / per) - 12;
          for (let k = 0; k < block.images.length; k += per) {
            const pair = block.images.slice(k, k + per);
            const cells = await Promise.all(
              pair.map(async (im) => {
                const data = readImage ? await readImage(im.fileId).catch(() => null) : null;
                const kind = data ? imageType(data) : null;
                const dims = data && kind ? imageSize(data, kind) : null;
                const height = dims ? Math.round((width * dims.h) / dims.w) : 0;
                const caption = [im.caption, im.takenAt ? formatTime(im.takenAt, tz) : null, im.note ?? null]
                  .filter((x): x is string => !!x)
                  .join(' · ');
                return new TableCell({
                  borders: BORDERS,
                  width: { size: Math.floor(100 / per), type: WidthType.PERCENTAGE },
                  children: [
                    data && kind && dims
                      ? new Paragraph({
                          children: [new ImageRun({ type: kind, data, transformation: { width, height } })],
                        })
                      : new Paragraph({ children: [text(labels.missingImage, { colour: '999999' })] }),
                    new Paragraph({ children: [text(caption, { size: TABLE_SIZE })] }),
                  ],
                });
              }),
            );
            children.push(
              new Table({
                width: { size: 100, type: WidthType.PERCENTAGE },
                rows: [new TableRow({ children: cells })],
              }),
            );
          }
          break;
        }
        case 'pageBreak':
          children.push(new Paragraph({ children: [new PageBreak()] }));
          break;
      }
    }
  }
  const eastAsia = doc.language === 'ko' ? 'Malgun Gothic' : 'Microsoft YaHei';
  const document = new Document({
    creator: 'Geosentry',
    title: doc.title,
    styles: {
      default: {
        document: { run: { size: FONT_SIZE, font: { ascii: 'Calibri', hAnsi: 'Calibri', eastAsia, cs: 'Calibri' } } },
      },
    },
    sections: [
      {
        properties: {
          page: {
            size: wide
              ? { orientation: PageOrientation.LANDSCAPE, width: 16838, height: 11906 }
              : { width: 11906, height: 16838 },
            margin: { top: 1134, bottom: 1134, left: 1134, right: 1134 },
          },
        },
        children,
      },
    ],
  });
  return Packer.toBuffer(document);
}

function imageType(b: Buffer): 'png' | 'jpg' | null {
  if (b.length > 8 && b.readUInt32BE(0) === 0x89504e47) return 'png';
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8) return 'jpg';
  return null;
}

/** Pixel size of a PNG or JPEG (its header, or the first SOF marker). */
function imageSize(b: Buffer, kind: 'png' | 'jpg'): { w: number; h: number } | null {
  if (kind === 'png') return b.length >= 24 ? { w: b.readUInt32BE(16), h: b.readUInt32BE(20) } : null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { h: b.readUInt16BE(i + 5), w: b.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return null;
}
