import ExcelJS from 'exceljs';
import { zipSafe } from './zip.ts';

/**
 * Reading and writing simple tables as CSV (RFC 4180, UTF-8) or XLSX (first sheet): row 1 is the header; and
 * the server's one workbook writer (writeWorkbook).
 * Cells written to a file are neutralised against formula injection: a text cell starting with = + - @, a tab
 * or a carriage return gets a leading apostrophe (plain numbers such as -1.5 are left alone); reading strips
 * that apostrophe again, so an exported file imports unchanged.
 */

export interface ParsedTable {
  header: string[];
  /** Data rows with their row number in the file (the header is row 1); empty rows are skipped. */
  rows: { row: number; cells: string[] }[];
}

export type Cell = string | number | boolean | null | undefined;

const PLAIN_NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DANGEROUS_START = /^[=+\-@\t\r]/;

/** Prefixes a text that a spreadsheet could take for a formula with an apostrophe. */
export function neutralise(text: string): string {
  return DANGEROUS_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** Undoes neutralise. */
export function unneutralise(text: string): string {
  return text.startsWith("'") && DANGEROUS_START.test(text.slice(1)) && !PLAIN_NUMBER.test(text.slice(1))
    ? text.slice(1)
    : text;
}

const isEmptyRow = (cells: string[]): boolean => cells.every((c) => c.trim() === '');

/** Parses CSV text: quoted fields (with "" escapes and line breaks), CRLF or LF, an optional UTF-8 BOM. */
export function parseCsv(text: string): ParsedTable {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      row.push(field);
      records.push(row);
      row = [];
      field = '';
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || row.length) {
    row.push(field);
    records.push(row);
  }
  return toTable(records);
}

function toTable(records: string[][]): ParsedTable {
  const headerIndex = records.findIndex((r) => !isEmptyRow(r));
  if (headerIndex < 0) return { header: [], rows: [] };
  const header = records[headerIndex]!.map((h) => h.trim());
  const rows: ParsedTable['rows'] = [];
  for (let r = headerIndex + 1; r < records.length; r++) {
    const cells = records[r]!.map(unneutralise);
    if (!isEmptyRow(cells)) rows.push({ row: r + 1, cells });
  }
  return { header, rows };
}

const csvField = (v: Cell): string => {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? neutralise(v) : String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
};

/** CSV with a UTF-8 BOM (so that spreadsheet programs read non-Latin text correctly) and CRLF line ends. */
export function writeCsv(header: readonly string[], rows: readonly Cell[][]): Buffer {
  const lines = [header.map(csvField).join(','), ...rows.map((r) => r.map(csvField).join(','))];
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8');
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((t) => t.text).join('');
    if ('result' in v) return cellText((v as { result?: ExcelJS.CellValue }).result ?? null);
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('error' in v) return '';
  }
  return String(v);
}

/** Reads the first worksheet of an XLSX file. */
export async function parseXlsx(buf: Buffer): Promise<ParsedTable> {
  // Checked before the library inflates anything: a malformed archive or a bomb is refused as an invalid file.
  if (!zipSafe(buf)) throw new Error('not a well-formed xlsx archive, or an archive bomb');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  if (!ws) return { header: [], rows: [] };
  const records: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const values = row.values as ExcelJS.CellValue[];
    const cells: string[] = [];
    for (let c = 1; c < values.length; c++) cells.push(cellText(values[c] ?? null));
    records[rowNumber - 1] = cells;
  });
  for (let r = 0; r < records.length; r++) records[r] ??= [];
  return toTable(records);
}

/** A worksheet row: its cells, optionally in bold or italic. */
export interface SheetRow {
  cells: readonly Cell[];
  font?: 'bold' | 'italic';
}

/** A worksheet to write: its rows (a bare array is a plain row) and optionally one width for every column. */
export interface Sheet {
  name: string;
  rows: readonly (readonly Cell[] | SheetRow)[];
  columnWidth?: number;
}

/**
 * The one spreadsheet writer of the server (device export, alert report, module report): numbers stay numbers,
 * every text cell is neutralised against formula injection.
 */
export async function writeWorkbook(sheets: readonly Sheet[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(sheet.name);
    for (const r of sheet.rows) {
      const row: SheetRow = Array.isArray(r) ? { cells: r as readonly Cell[] } : (r as SheetRow);
      const added = ws.addRow(row.cells.map((v) => (typeof v === 'string' ? neutralise(v) : (v ?? null))));
      if (row.font) added.font = { [row.font]: true };
    }
    if (sheet.columnWidth) for (const c of ws.columns) c.width = sheet.columnWidth;
  }
  return Buffer.from((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

/** Writes one worksheet: a bold header, then the rows. */
export function writeXlsx(sheetName: string, header: readonly string[], rows: readonly Cell[][]): Promise<Buffer> {
  return writeWorkbook([{ name: sheetName, rows: [{ cells: header, font: 'bold' }, ...rows] }]);
}
