// Cell and time texts shared by the renderers: a number shows its column's decimals (padded, never rounded
// again beyond what toFixed of an already rounded value does), a time shows in the document's zone.
import type { ReportCellValue, ReportColumn } from '@geosentry/contract';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock parts of an instant in a zone. */
export function wallClock(
  ms: number,
  timeZone: string,
): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour! % 24, mi: p.minute!, s: p.second! };
}

const two = (n: number): string => String(n).padStart(2, '0');

/** "2026-11-03 14:05" (seconds when not zero) of an ISO time or epoch ms, in the zone. */
export function formatTime(value: string | number, timeZone: string): string {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return String(value);
  const w = wallClock(ms, timeZone);
  const base = `${w.y}-${two(w.mo)}-${two(w.d)} ${two(w.h)}:${two(w.mi)}`;
  return w.s ? `${base}:${two(w.s)}` : base;
}

/** An instant as the Date a spreadsheet shows as the zone's wall clock (spreadsheets have no zones). */
export function wallClockDate(ms: number, timeZone: string): Date {
  const w = wallClock(ms, timeZone);
  return new Date(Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s));
}

/** The text of a cell as a PDF or docx shows it. */
export function cellText(v: ReportCellValue, col: ReportColumn | undefined, timeZone: string): string {
  if (v === null) return '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return '';
    // Pads to the column's decimals; a reading recorded with more decimals is shown as recorded, never rounded.
    // Binary noise (8.120000000000001) is not a decimal anyone recorded: 12 significant digits at most.
    const text = String(Number(v.toPrecision(12)));
    if (col?.decimals === undefined || text.includes('e')) return text;
    const dot = text.indexOf('.');
    const have = dot < 0 ? 0 : text.length - dot - 1;
    return have >= col.decimals ? text : v.toFixed(col.decimals);
  }
  if (col?.kind === 'time') return formatTime(v, timeZone);
  return v;
}

/** "Displacement (mm)". */
export function columnTitle(col: ReportColumn): string {
  return col.unit ? `${col.label} (${col.unit})` : col.label;
}

/** Characters not allowed in a sheet name, and the 31-character limit of spreadsheets. */
export function sheetName(title: string, taken: Set<string>): string {
  const clean =
    title
      .replace(/[[\]:*?/\\]/g, ' ')
      .replace(/^'+|'+$/g, '')
      .trim() || 'Sheet';
  let name = clean.slice(0, 31);
  for (let i = 2; taken.has(name.toLowerCase()); i++) {
    const suffix = ` (${i})`;
    name = clean.slice(0, 31 - suffix.length) + suffix;
  }
  taken.add(name.toLowerCase());
  return name;
}
