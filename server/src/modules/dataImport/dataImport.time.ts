import { IMPORT_ZONE_FROM_VALUE, decimalNumber, instantOfWall, type ImportTimeFormat } from '@geosentry/contract';
import type { CellValue } from './dataImport.parse.ts';

/**
 * The instant (epoch ms) of a time cell, or null when it cannot be read. Wall-clock forms are read in `zone` (an
 * IANA name) unless the value carries its own offset (Z, +08:00, +0800); with zone `offset` every value must
 * carry one. An xlsx date cell holds a wall-clock reading (exceljs gives it as a UTC Date): it is read in the zone.
 */
export function parseTime(v: CellValue | undefined, format: ImportTimeFormat, zone: string): number | null {
  if (v === undefined) return null;
  const fromValue = zone === IMPORT_ZONE_FROM_VALUE;
  if (v instanceof Date) {
    const t = v.getTime();
    if (!Number.isFinite(t) || fromValue) return null;
    return instantOfWall(t, zone);
  }
  if (format === 'epochSeconds' || format === 'epochMillis') {
    const n = typeof v === 'number' ? v : decimalNumber(v);
    if (!Number.isFinite(n)) return null;
    const ms = format === 'epochSeconds' ? Math.round(n * 1000) : Math.round(n);
    return inRange(ms) ? ms : null;
  }
  if (format === 'excelSerial' || typeof v === 'number') {
    const n = typeof v === 'number' ? v : decimalNumber(v);
    if (!Number.isFinite(n) || fromValue) return null;
    // Day 25569 is 1970-01-01 (the 1900 date system, its leap-year bug included).
    const wall = Math.round((n - 25569) * 86_400_000);
    return inRange(wall) ? instantOfWall(wall, zone) : null;
  }
  const parts = wallParts(v.trim(), format);
  if (!parts) return null;
  const { y, mo, d, h, mi, s, ms, offset } = parts;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  // 31 February and the like roll over in Date.UTC: refused.
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  let t: number;
  if (offset !== null) t = wall - offset;
  else if (fromValue) return null;
  else t = instantOfWall(wall, zone);
  return inRange(t) ? t : null;
}

const inRange = (t: number): boolean => Number.isFinite(t) && t >= 0 && t < 253402300800000;

const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const YMD =
  /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DMY =
  /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function wallParts(
  s: string,
  format: ImportTimeFormat,
): { y: number; mo: number; d: number; h: number; mi: number; s: number; ms: number; offset: number | null } | null {
  let m: RegExpExecArray | null;
  let y: string, mo: string, d: string;
  if (format === 'iso') {
    m = ISO.exec(s) ?? YMD.exec(s);
    if (!m) return null;
    [y, mo, d] = [m[1]!, m[2]!, m[3]!];
  } else if (format === 'yyyy/MM/dd HH:mm:ss') {
    m = YMD.exec(s);
    if (!m) return null;
    [y, mo, d] = [m[1]!, m[2]!, m[3]!];
  } else {
    m = DMY.exec(s);
    if (!m) return null;
    [y, mo, d] = format === 'dd/MM/yyyy HH:mm:ss' ? [m[3]!, m[2]!, m[1]!] : [m[3]!, m[1]!, m[2]!];
  }
  const frac = m[7] ?? '';
  return {
    y: Number(y),
    mo: Number(mo),
    d: Number(d),
    h: Number(m[4] ?? 0),
    mi: Number(m[5] ?? 0),
    s: Number(m[6] ?? 0),
    ms: frac ? Math.round(Number(`0.${frac}`) * 1000) : 0,
    offset: offsetMs(m[8]),
  };
}

function offsetMs(z: string | undefined): number | null {
  if (!z) return null;
  if (z.toUpperCase() === 'Z') return 0;
  const sign = z[0] === '-' ? -1 : 1;
  const digits = z.slice(1).replace(':', '');
  const h = Number(digits.slice(0, 2));
  const mi = Number(digits.slice(2) || 0);
  if (h > 14 || mi > 59) return null;
  return sign * (h * 3600_000 + mi * 60_000);
}
