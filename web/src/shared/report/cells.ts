import type { ReportCellValue, ReportColumn } from '@geosentry/contract';
import { cleanValue } from '../format.ts';
import { formatInZone } from '../time.ts';

/**
 * A table cell as the report shows it: numbers padded to the column's decimals (already rounded by the server,
 * never rounded again beyond float noise), times (ISO UTC) as wall time in the document's zone, '' for empty.
 */
export function cellText(v: ReportCellValue, col: ReportColumn, zone: string): string {
  if (v === null || v === '') return '';
  if (col.kind === 'time' && typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isFinite(t) ? formatInZone(t, zone) : v;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return '';
    const d = col.decimals;
    return d === undefined ? String(cleanValue(v)) : cleanValue(v, d).toFixed(d);
  }
  return v;
}

/** The column's heading with its unit: "Displacement (mm)". */
export const columnTitle = (c: ReportColumn): string => (c.unit ? `${c.label} (${c.unit})` : c.label);
