// The PDF renderer (pdfkit): A4 portrait, a header with the title, meta card and zone, tables that break across
// pages repeating their header row, charts drawn as vectors, images from the caller's reader, "Page x / y" on
// every page, the CJK font embedded as a subset.
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { ReportChart, ReportColumn } from '@geosentry/contract';
import { layoutChart } from './chart.ts';
import { reportFonts } from './fonts.ts';
import { cellText, columnTitle, formatTime } from './format.ts';
import { rendererLabels } from './labels.ts';
import { rowsOf, type StreamingReportDocument, type StreamingTableBlock } from './types.ts';

/** Reads a stored image by its file id (jpeg or png bytes), or null when it is gone or not the caller's. */
export type ImageReader = (fileId: string) => Promise<Buffer | null>;

const MARGIN = 40;
const FOOTER = 24;
const CELL_PAD = 3;
const TABLE_FONT = 8;

type Pdf = PDFKit.PDFDocument;

export async function renderPdf(doc: StreamingReportDocument, out: Writable, readImage?: ImageReader): Promise<void> {
  const labels = rendererLabels(doc.language);
  // A document with a wide table (more than 8 columns: forms, several quantities) is printed in landscape.
  const wide = doc.sections.some((s) => s.blocks.some((b) => b.kind === 'table' && b.columns.length > 8));
  const pdf: Pdf = new PDFDocument({
    size: 'A4',
    layout: wide ? 'landscape' : 'portrait',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: doc.title, Creator: 'Geosentry' },
    lang: doc.language === 'zh' ? 'zh-CN' : doc.language === 'ko' ? 'ko-KR' : 'en',
  });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    pdf.on('error', reject);
  });
  pdf.pipe(out);
  const fonts = reportFonts();
  const regular = 'report-regular';
  const bold = 'report-bold';
  if (fonts) {
    pdf.registerFont(regular, fonts.regular, fonts.face(doc.language, false));
    pdf.registerFont(bold, fonts.bold, fonts.face(doc.language, true));
  } else {
    pdf.registerFont(regular, 'Helvetica');
    pdf.registerFont(bold, 'Helvetica-Bold');
  }
  const width = pdf.page.width - 2 * MARGIN;
  const bottomY = (): number => pdf.page.height - MARGIN - FOOTER;
  const ensure = (h: number): void => {
    if (pdf.y + h > bottomY()) pdf.addPage();
  };

  // Title block and meta card.
  pdf.font(bold).fontSize(16).fillColor('#111111').text(doc.title, { width });
  if (doc.subtitle) pdf.font(regular).fontSize(11).fillColor('#333333').text(doc.subtitle, { width });
  pdf.moveDown(0.4);
  const meta = [
    ...doc.meta,
    { label: labels.timeZone, value: doc.timeZone },
    { label: labels.generatedAt, value: formatTime(doc.generatedAt, doc.timeZone) },
  ];
  drawFields(pdf, meta, width, regular, bold);
  pdf.moveDown(0.6);

  for (const section of doc.sections) {
    ensure(40);
    pdf.font(bold).fontSize(13).fillColor('#111111').text(section.title, MARGIN, pdf.y, { width });
    pdf
      .moveTo(MARGIN, pdf.y + 1)
      .lineTo(MARGIN + width, pdf.y + 1)
      .lineWidth(0.6)
      .strokeColor('#888888')
      .stroke();
    pdf.moveDown(0.5);
    for (const block of section.blocks) {
      switch (block.kind) {
        case 'heading':
          ensure(30);
          pdf
            .font(bold)
            .fontSize(block.level === 1 ? 13 : block.level === 2 ? 11 : 10)
            .fillColor('#111111')
            .text(block.text, MARGIN, pdf.y, { width });
          pdf.moveDown(0.3);
          break;
        case 'paragraph':
          ensure(20);
          pdf.font(regular).fontSize(9.5).fillColor('#222222').text(block.text, MARGIN, pdf.y, { width });
          pdf.moveDown(0.5);
          break;
        case 'fields':
          drawFields(pdf, block.fields, width, regular, bold);
          pdf.moveDown(0.5);
          break;
        case 'table':
          await drawTable(pdf, block, doc.timeZone, width, regular, bold, bottomY, labels.continued);
          pdf.moveDown(0.6);
          break;
        case 'chart':
          drawChart(pdf, block.chart, doc.timeZone, width, regular, bold, ensure);
          break;
        case 'images':
          await drawImages(pdf, block.images, doc.timeZone, width, regular, ensure, labels.missingImage, readImage);
          break;
        case 'pageBreak':
          pdf.addPage();
          break;
      }
    }
  }

  // Page numbers and the running header, once the number of pages is known.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const y = pdf.page.height - MARGIN - FOOTER + 10;
    pdf.page.margins.bottom = 0;
    pdf.font(regular).fontSize(8).fillColor('#666666');
    pdf.text(`${doc.title} · ${doc.timeZone}`, MARGIN, y, { width: width * 0.7, lineBreak: false, ellipsis: true });
    const text = labels.page.replace('{page}', String(i + 1)).replace('{pages}', String(range.count));
    pdf.text(text, MARGIN, y, { width, align: 'right', lineBreak: false });
  }
  pdf.end();
  await done;
}

function drawFields(
  pdf: Pdf,
  fields: readonly { label: string; value: string }[],
  width: number,
  regular: string,
  bold: string,
): void {
  const colW = width / 2;
  const labelW = 90;
  for (let i = 0; i < fields.length; i += 2) {
    const pair = fields.slice(i, i + 2);
    const heights = pair.map((f) =>
      pdf
        .font(regular)
        .fontSize(9)
        .heightOfString(f.value, { width: colW - labelW - 8 }),
    );
    const h = Math.max(12, ...heights) + 2;
    if (pdf.y + h > pdf.page.height - MARGIN - FOOTER) pdf.addPage();
    const y = pdf.y;
    pair.forEach((f, j) => {
      const x = MARGIN + j * colW;
      pdf
        .font(bold)
        .fontSize(9)
        .fillColor('#555555')
        .text(f.label, x, y, { width: labelW - 4 });
      pdf
        .font(regular)
        .fontSize(9)
        .fillColor('#111111')
        .text(f.value, x + labelW, y, { width: colW - labelW - 8 });
    });
    pdf.x = MARGIN;
    pdf.y = y + h;
  }
}

function columnWidths(cols: readonly ReportColumn[], width: number): number[] {
  const hints = cols.map(
    (c) =>
      c.width ?? Math.max(c.kind === 'time' ? 16 : c.kind === 'number' ? 9 : 10, Math.min(24, columnTitle(c).length)),
  );
  const sum = hints.reduce((a, b) => a + b, 0);
  return hints.map((h) => (h / sum) * width);
}

async function drawTable(
  pdf: Pdf,
  block: StreamingTableBlock,
  timeZone: string,
  width: number,
  regular: string,
  bold: string,
  bottomY: () => number,
  continued: string,
): Promise<void> {
  const cols = block.columns;
  const widths = columnWidths(cols, width);
  const headerTexts = cols.map((c) => (c.kind === 'time' ? `${columnTitle(c)} (${timeZone})` : columnTitle(c)));
  const emphasis = new Set(block.emphasis ?? []);
  pdf.fontSize(TABLE_FONT);
  // Cells of plain ASCII (numbers, times, codes) are set in the PDF's built-in Helvetica: laying out each distinct
  // string in the embedded CJK font was most of a large table's time. Other text keeps the CJK font.
  const ascii = /^[\x20-\x7e]*$/;
  const fontOf = (t: string, font: string): string =>
    ascii.test(t) ? (font === bold ? 'Helvetica-Bold' : 'Helvetica') : font;
  const rowHeight = (texts: string[], font: string): number => {
    pdf.font(font).fontSize(TABLE_FONT);
    const line = pdf.currentLineHeight(true);
    let h = 0;
    texts.forEach((t, i) => {
      if (!t) return;
      pdf.font(fontOf(t, font));
      const inner = widths[i]! - 2 * CELL_PAD;
      // One line fits (most cells): no need to lay the text out to know its height.
      h = Math.max(h, pdf.widthOfString(t) <= inner ? line : pdf.heightOfString(t, { width: inner }));
    });
    return Math.max(h, TABLE_FONT + 2) + 2 * CELL_PAD;
  };
  const drawRow = (texts: string[], font: string, fill: string | null, h = rowHeight(texts, font)): void => {
    const y = pdf.y;
    if (fill) pdf.rect(MARGIN, y, width, h).fill(fill);
    let x = MARGIN;
    pdf.fontSize(TABLE_FONT).fillColor('#111111');
    texts.forEach((t, i) => {
      const c = cols[i];
      const inner = widths[i]! - 2 * CELL_PAD;
      pdf.font(fontOf(t, font));
      const w = t ? pdf.widthOfString(t) : 0;
      // A cell on one line is placed directly (no line wrapper: a table of 36,000 rows draws in half the time).
      if (w <= inner) {
        if (t) pdf.text(t, x + CELL_PAD + (c?.kind === 'number' ? inner - w : 0), y + CELL_PAD, { lineBreak: false });
      } else pdf.text(t, x + CELL_PAD, y + CELL_PAD, { width: inner, align: c?.kind === 'number' ? 'right' : 'left' });
      x += widths[i]!;
    });
    pdf
      .moveTo(MARGIN, y + h)
      .lineTo(MARGIN + width, y + h)
      .lineWidth(0.3)
      .strokeColor('#bbbbbb')
      .stroke();
    pdf.x = MARGIN;
    pdf.y = y + h;
  };
  const header = (again: boolean): void => {
    if (block.caption) {
      pdf
        .font(bold)
        .fontSize(9.5)
        .fillColor('#111111')
        .text(again ? `${block.caption} ${continued}` : block.caption, MARGIN, pdf.y, { width });
      pdf.moveDown(0.2);
    }
    drawRow(headerTexts, bold, '#e8edf3');
  };
  if (pdf.y + rowHeight(headerTexts, bold) * 2 + 16 > bottomY()) pdf.addPage();
  header(false);
  let index = 0;
  for await (const cells of rowsOf(block.rows)) {
    const texts = cols.map((c, i) => cellText(cells[i] ?? null, c, timeZone));
    const font = emphasis.has(index) ? bold : regular;
    const h = rowHeight(texts, font);
    if (pdf.y + h > bottomY()) {
      pdf.addPage();
      header(true);
    }
    drawRow(texts, font, index % 2 === 1 ? '#f7f7f7' : null, h);
    index++;
  }
}

function drawChart(
  pdf: Pdf,
  chart: ReportChart,
  timeZone: string,
  width: number,
  regular: string,
  bold: string,
  ensure: (h: number) => void,
): void {
  const height = 250;
  ensure(height + 10);
  const ox = MARGIN;
  const oy = pdf.y;
  for (const s of layoutChart(chart, timeZone, width, height)) {
    pdf.save();
    if (s.t === 'line') {
      pdf
        .moveTo(ox + s.x1, oy + s.y1)
        .lineTo(ox + s.x2, oy + s.y2)
        .lineWidth(s.width)
        .strokeColor(s.colour);
      if (s.dash) pdf.dash(4, { space: 3 });
      pdf.stroke();
    } else if (s.t === 'path') {
      const [first, ...rest] = s.points;
      pdf.moveTo(ox + first![0], oy + first![1]);
      for (const [x, y] of rest) pdf.lineTo(ox + x, oy + y);
      pdf.lineWidth(s.width).strokeColor(s.colour).lineJoin('round');
      if (s.dash) pdf.dash(4, { space: 3 });
      pdf.stroke();
    } else if (s.t === 'rect') pdf.rect(ox + s.x, oy + s.y, s.w, s.h).fill(s.fill);
    else if (s.t === 'dot') pdf.circle(ox + s.x, oy + s.y, s.r).fill(s.fill);
    else {
      pdf
        .font(s.bold ? bold : regular)
        .fontSize(s.size)
        .fillColor(s.colour);
      const w = pdf.widthOfString(s.text);
      const x = s.anchor === 'middle' ? s.x - w / 2 : s.anchor === 'end' ? s.x - w : s.x;
      pdf.text(s.text, ox + x, oy + s.y - s.size * 0.85, { lineBreak: false });
    }
    pdf.restore();
  }
  pdf.x = MARGIN;
  pdf.y = oy + height + 10;
}

async function drawImages(
  pdf: Pdf,
  images: readonly { fileId: string; caption: string; takenAt: string | null; note?: string }[],
  timeZone: string,
  width: number,
  regular: string,
  ensure: (h: number) => void,
  missing: string,
  readImage?: ImageReader,
): Promise<void> {
  const per = Math.min(2, Math.max(1, images.length));
  const gap = 10;
  const w = (width - gap * (per - 1)) / per;
  const h = w * 0.7;
  for (let i = 0; i < images.length; i += per) {
    ensure(h + 40);
    const y = pdf.y;
    for (let j = 0; j < per && i + j < images.length; j++) {
      const im = images[i + j]!;
      const x = MARGIN + j * (w + gap);
      const bytes = readImage ? await readImage(im.fileId).catch(() => null) : null;
      let drawn = false;
      if (bytes) {
        try {
          pdf.image(bytes, x, y, { fit: [w, h], align: 'center', valign: 'center' });
          drawn = true;
        } catch {
          drawn = false;
        }
      }
      if (!drawn) {
        pdf.rect(x, y, w, h).lineWidth(0.5).strokeColor('#999999').stroke();
        pdf
          .font(regular)
          .fontSize(9)
          .fillColor('#777777')
          .text(missing, x, y + h / 2 - 5, { width: w, align: 'center' });
      }
      const caption = [im.caption, im.takenAt ? formatTime(im.takenAt, timeZone) : null, im.note]
        .filter(Boolean)
        .join(' · ');
      pdf
        .font(regular)
        .fontSize(8.5)
        .fillColor('#222222')
        .text(caption, x, y + h + 3, { width: w });
    }
    pdf.x = MARGIN;
    pdf.y = y + h + 30;
  }
}
