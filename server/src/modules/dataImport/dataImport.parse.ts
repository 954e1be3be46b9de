import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { Status, type ImportFormat } from '@geosentry/contract';
import { zipEntries, zipRead } from '../../platform/files/zip.ts';
import { unneutralise } from '../../platform/files/spreadsheet.ts';
import { AppError } from '../../platform/http/errors.ts';

/**
 * Reading an import file as a stream of records, whatever its size: csv with a streaming parser of our own
 * (RFC 4180: quoted fields with "" escapes and line breaks, CRLF or LF, a UTF-8 BOM), xlsx with exceljs's
 * streaming reader. A record is its line (csv: the line it starts on; xlsx: the row number) and its cells: text,
 * or for xlsx numbers and dates as the workbook holds them.
 */

export type CellValue = string | number | Date;
export interface FileRecord {
  line: number;
  cells: CellValue[];
}

const notImportable = (): AppError => new AppError(Status.notAcceptable, 'importNotCsvOrXlsx');

/** Archive limits of an xlsx import (larger than the upload checks': a sheet of a million rows is big XML). */
const XLSX_LIMITS = { maxEntries: 10_000, maxTotalBytes: 2 * 1024 ** 3, maxRatio: 200, minRatioBytes: 1024 * 1024 };

/**
 * The type of an uploaded file, from its bytes: an xlsx is a well-formed zip (nothing appended) with the parts of
 * a workbook, no macros, and no entry inflating beyond the limits; a csv is UTF-8 text (no NUL or other control
 * characters besides tab and line ends). Anything else is refused. Answers the format and, for xlsx, its sheets.
 */
export async function detectFormat(path: string): Promise<{ format: ImportFormat; sheets: string[] }> {
  const fh = await fs.promises.open(path, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await fh.stat()).size;
    head = Buffer.alloc(Math.min(size, 64 * 1024));
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  if (size === 0) throw new AppError(Status.invalid, 'importEmpty');
  if (head.subarray(0, 4).toString('latin1') === 'PK\x03\x04') {
    const sheets = xlsxSheets(await fs.promises.readFile(path));
    if (!sheets) throw notImportable();
    return { format: 'xlsx', sheets };
  }
  if (!isText(head, size > head.length)) throw notImportable();
  return { format: 'csv', sheets: [] };
}

/** UTF-8 text without NUL or control characters other than tab, line feed, carriage return and form feed. */
export function isText(b: Buffer, truncated: boolean): boolean {
  try {
    // A sample cut inside a character: the decoder's stream mode keeps the incomplete end for later.
    new TextDecoder('utf-8', { fatal: true }).decode(b, { stream: truncated });
  } catch {
    return false;
  }
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) return false;
    if (c === 0x7f) return false;
  }
  return true;
}

/** The sheet names of an xlsx (in workbook order), or null when it is not a workbook that may be opened. */
export function xlsxSheets(b: Buffer): string[] | null {
  const entries = zipEntries(b);
  if (!entries || entries.length > XLSX_LIMITS.maxEntries) return null;
  let total = 0;
  for (const e of entries) {
    total += e.size;
    if (e.size > XLSX_LIMITS.minRatioBytes && e.size > XLSX_LIMITS.maxRatio * Math.max(1, e.compressedSize))
      return null;
  }
  if (total > XLSX_LIMITS.maxTotalBytes) return null;
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('[Content_Types].xml') || !names.has('xl/workbook.xml')) return null;
  if ([...names].some((n) => /vbaProject\.bin$/i.test(n))) return null;
  const wb = entries.find((e) => e.name === 'xl/workbook.xml')!;
  const xml = zipRead(b, wb, 4 * 1024 * 1024);
  if (!xml) return null;
  const sheets: string[] = [];
  for (const m of xml.toString('utf8').matchAll(/<(?:\w+:)?sheet\b[^>]*\bname="([^"]*)"/g))
    sheets.push(decodeXml(m[1]!));
  return sheets.length ? sheets : null;
}

const decodeXml = (s: string): string =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const map: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return map[e.toLowerCase()] ?? '';
  });

/** The records of a file, in batches (the header row is the first non-empty record). */
export function readRecords(path: string, format: ImportFormat, sheet?: string): AsyncGenerator<FileRecord[]> {
  return format === 'csv' ? csvRecords(path) : xlsxRecords(path, sheet);
}

/** A csv file's records, a chunk's worth at a time. Invalid UTF-8 anywhere stops it with a clear error. */
export async function* csvRecords(path: string): AsyncGenerator<FileRecord[]> {
  const stream = fs.createReadStream(path, { highWaterMark: 1 << 20 });
  const dec = new TextDecoder('utf-8', { fatal: true });
  let buf = '';
  let line = 1;
  let first = true;
  const decode = (chunk?: Buffer): string => {
    try {
      return chunk ? dec.decode(chunk, { stream: true }) : dec.decode();
    } catch {
      throw new AppError(Status.invalid, 'importFileInvalid', { format: 'csv (UTF-8)' });
    }
  };
  const take = (eof: boolean): FileRecord[] => {
    const out: FileRecord[] = [];
    let pos = 0;
    // The next quote, found once (not once per line: a chunk without quotes would be scanned for each).
    let quote = buf.indexOf('"');
    for (;;) {
      if (quote >= 0 && quote < pos) quote = buf.indexOf('"', pos);
      const r = parseRecord(buf, pos, eof, quote);
      if (!r) break;
      out.push({ line, cells: r.cells });
      line += r.newlines;
      pos = r.next;
    }
    buf = pos >= buf.length ? '' : buf.slice(pos);
    return out;
  };
  try {
    for await (const chunk of stream) {
      let text = decode(chunk as Buffer);
      if (first && text.length) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      buf += text;
      const recs = take(false);
      if (recs.length) yield recs;
    }
    buf += decode();
    const rest = take(true);
    if (buf.length) throw new AppError(Status.invalid, 'importFileInvalid', { format: 'csv' });
    if (rest.length) yield rest;
  } finally {
    stream.destroy();
  }
}

/**
 * One record from `pos`: its cells, where the next one starts and how many line ends it spans; null when the text
 * ends inside it (more is to come) or at its end.
 */
export function parseRecord(
  s: string,
  pos: number,
  eof: boolean,
  /** The first quote at or after pos (-1: none), when the caller knows it. */
  nextQuote?: number,
): { cells: string[]; next: number; newlines: number } | null {
  if (pos >= s.length) return null;
  const nl = s.indexOf('\n', pos);
  const quote = nextQuote ?? s.indexOf('"', pos);
  if (quote < 0 || (nl >= 0 && quote > nl)) {
    // No quote in this line: split it.
    if (nl < 0 && !eof) return null;
    const end = nl < 0 ? s.length : nl;
    const text = s.slice(pos, end > pos && s.charCodeAt(end - 1) === 13 ? end - 1 : end);
    return { cells: text.split(','), next: nl < 0 ? s.length : nl + 1, newlines: 1 };
  }
  const cells: string[] = [];
  let field = '';
  let quoted = false;
  let started = false;
  let newlines = 0;
  let i = pos;
  while (i < s.length) {
    const ch = s.charCodeAt(i);
    if (quoted) {
      if (ch === 34) {
        if (i + 1 >= s.length && !eof) return null;
        if (s.charCodeAt(i + 1) === 34) {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      if (ch === 10) newlines++;
      field += s[i];
      i++;
      continue;
    }
    if (ch === 34 && !started) {
      quoted = true;
      started = true;
      i++;
    } else if (ch === 44) {
      cells.push(field);
      field = '';
      started = false;
      i++;
    } else if (ch === 10 || ch === 13) {
      if (ch === 13 && i + 1 >= s.length && !eof) return null;
      cells.push(field);
      const next = i + (ch === 13 && s.charCodeAt(i + 1) === 10 ? 2 : 1);
      return { cells, next, newlines: newlines + 1 };
    } else {
      field += s[i];
      started = true;
      i++;
    }
  }
  if (!eof || quoted) return null;
  cells.push(field);
  return { cells, next: s.length, newlines: newlines + 1 };
}

function xlsxCell(v: ExcelJS.CellValue): CellValue {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return unneutralise(v);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v;
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((t) => t.text).join('');
    if ('result' in v) return xlsxCell((v as { result?: ExcelJS.CellValue }).result ?? null);
    if ('text' in v && typeof v.text === 'string') return v.text;
  }
  return '';
}

/** An xlsx sheet's rows (the named sheet, else the first), 1,000 at a time. */
export async function* xlsxRecords(path: string, sheet?: string): AsyncGenerator<FileRecord[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    sharedStrings: 'cache',
    // Styles tell date cells from numbers.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  let found = false;
  for await (const ws of reader) {
    const name = (ws as unknown as { name?: string }).name;
    const wanted = !found && (sheet === undefined || name === sheet);
    if (!wanted) {
      // Sheets are read in order from the archive: a sheet not wanted is passed over.
      for await (const row of ws) void row;
      continue;
    }
    found = true;
    let out: FileRecord[] = [];
    for await (const row of ws) {
      const values = row.values as ExcelJS.CellValue[];
      const cells: CellValue[] = [];
      for (let c = 1; c < values.length; c++) cells.push(xlsxCell(values[c] ?? null));
      out.push({ line: row.number, cells });
      if (out.length >= 1000) {
        yield out;
        out = [];
      }
    }
    if (out.length) yield out;
  }
  if (!found && sheet !== undefined) throw new AppError(Status.invalid, 'importSheetNotFound', { sheet });
}

/** A cell as text (the preview, error values). */
export function cellText(v: CellValue | undefined): string {
  if (v === undefined) return '';
  if (v instanceof Date)
    return v
      .toISOString()
      .replace('T', ' ')
      .replace(/\.000Z$|Z$/, '');
  return String(v);
}

const isEmpty = (cells: readonly CellValue[]): boolean =>
  cells.every((c) => (typeof c === 'string' ? c.trim() === '' : false));

/**
 * The records of a file as the import reads them: the header (first non-empty record), then data rows in
 * batches (empty rows left out, each with its line).
 */
export async function* dataRows(
  path: string,
  format: ImportFormat,
  sheet: string | undefined,
  onHeader: (header: string[]) => void,
): AsyncGenerator<FileRecord[]> {
  let header: string[] | null = null;
  for await (const recs of readRecords(path, format, sheet)) {
    const out: FileRecord[] = [];
    for (const r of recs) {
      if (isEmpty(r.cells)) continue;
      if (!header) {
        header = r.cells.map((c) => cellText(c).trim());
        onHeader(header);
        continue;
      }
      out.push(r);
    }
    if (out.length) yield out;
  }
  if (!header) onHeader([]);
}
