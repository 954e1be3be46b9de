import {
  decimalNumber,
  quantityKeysOf,
  type ImportMapping,
  type ImportRowError,
  type ImportRowErrorItem,
} from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { inScope, type SessionUser } from '../../platform/auth/access.ts';
import { cellText, type CellValue, type FileRecord } from './dataImport.parse.ts';
import { parseTime } from './dataImport.time.ts';
import * as repo from './dataImport.repository.ts';

/** A row that can be imported: its device (or section), site, instant and values. */
export interface GoodRow {
  line: number;
  target: number;
  platformId: number | null;
  ts: number;
  values: Record<string, number>;
}

const CACHE_MAX = 100_000;

/**
 * Checks the rows of a file against its mapping and the owner's rights as they are now: the device (section) by
 * its column or the fixed one, known and inside the data scope; the time; each mapped quantity a number and of
 * the device's monitor type. One error per row (the first found). Devices are looked up once per batch for the
 * keys not seen before.
 */
export class RowChecker {
  private targets = new Map<string, repo.TargetRecord | null>();
  private readonly quantities: [string, number][];
  private readonly labels: string[];

  constructor(
    private readonly db: Db,
    private readonly m: ImportMapping,
    private readonly owner: SessionUser,
    header: readonly string[],
  ) {
    this.quantities = m.target === 'readings' ? Object.entries(m.quantities) : [['elevation', m.elevationColumn ?? 0]];
    this.labels = [...header];
  }

  /** The header of a column, for error reports. */
  label(col: number): string {
    return this.labels[col] || `#${col + 1}`;
  }

  /** The mapping's columns that the header does not have. */
  missingColumns(): number[] {
    const cols = [
      this.m.timeColumn,
      ...this.quantities.map(([, c]) => c),
      ...(this.m.target === 'readings' ? [this.m.deviceColumn] : [this.m.sectionColumn]),
    ].filter((c): c is number => c !== undefined);
    return cols.filter((c) => c >= this.labels.length);
  }

  private keyOf(cells: readonly CellValue[]): string | null {
    const fixed = this.m.target === 'readings' ? this.m.deviceId : this.m.sectionId;
    if (fixed !== undefined) return String(fixed);
    const col = this.m.target === 'readings' ? this.m.deviceColumn! : this.m.sectionColumn!;
    const k = cellText(cells[col]).trim();
    if (!k) return null;
    return this.m.target === 'waterLevel' ? k.toLowerCase() : k;
  }

  private async resolve(keys: Set<string>): Promise<void> {
    const todo = [...keys].filter((k) => !this.targets.has(k));
    if (!todo.length) return;
    if (this.targets.size + todo.length > CACHE_MAX) this.targets.clear();
    const fixed = (this.m.target === 'readings' ? this.m.deviceId : this.m.sectionId) !== undefined;
    const found =
      this.m.target === 'readings'
        ? await repo.devicesBy(this.db, fixed ? 'id' : this.m.deviceKey, todo)
        : await repo.sectionsBy(this.db, fixed ? 'id' : 'name', todo);
    for (const k of todo) this.targets.set(k, found.get(k) ?? null);
  }

  async check(records: readonly FileRecord[]): Promise<{ good: GoodRow[]; errors: ImportRowErrorItem[] }> {
    const keys = new Set<string>();
    const keyOf: (string | null)[] = new Array(records.length);
    for (let i = 0; i < records.length; i++) {
      const k = this.keyOf(records[i]!.cells);
      keyOf[i] = k;
      if (k !== null) keys.add(k);
    }
    await this.resolve(keys);
    const good: GoodRow[] = [];
    const errors: ImportRowErrorItem[] = [];
    const readings = this.m.target === 'readings';
    const tcol = this.m.timeColumn;
    const err = (line: number, reason: ImportRowError, col: number | null, value: string | null) =>
      errors.push({
        line,
        reason,
        column: col === null ? null : this.label(col),
        value: value === null ? null : value.slice(0, 100),
      });
    rows: for (let i = 0; i < records.length; i++) {
      const { line, cells } = records[i]!;
      const key = keyOf[i]!;
      const keyCol = readings ? (this.m.deviceColumn ?? null) : (this.m.sectionColumn ?? null);
      if (key === null) {
        err(line, readings ? 'missingDevice' : 'missingSection', keyCol, null);
        continue;
      }
      const t = this.targets.get(key);
      if (!t) {
        err(line, readings ? 'unknownDevice' : 'unknownSection', keyCol, key);
        continue;
      }
      const visible = t.platformId === null ? this.owner.scope.all : inScope(this.owner.scope, t.platformId);
      if (!visible) {
        err(line, readings ? 'deviceOutOfScope' : 'sectionOutOfScope', keyCol, key);
        continue;
      }
      const ts = parseTime(cells[tcol], this.m.timeFormat, this.m.timeZone);
      if (ts === null) {
        err(line, 'badDate', tcol, cellText(cells[tcol]));
        continue;
      }
      const values: Record<string, number> = {};
      let n = 0;
      const allowed = readings ? quantityKeysOf(t.moduleId) : null;
      for (const [q, col] of this.quantities) {
        const c = cells[col];
        if (c === undefined || (typeof c === 'string' && c.trim() === '')) continue;
        const v = typeof c === 'number' ? c : c instanceof Date ? NaN : decimalNumber(c);
        if (!Number.isFinite(v)) {
          err(line, 'badNumber', col, cellText(c));
          continue rows;
        }
        if (allowed && !allowed.has(q)) {
          err(line, 'notOfType', col, q);
          continue rows;
        }
        values[q] = v;
        n++;
      }
      if (n === 0) {
        err(line, 'noValue', null, null);
        continue;
      }
      good.push({ line, target: t.id, platformId: t.platformId, ts, values });
    }
    return { good, errors };
  }
}
