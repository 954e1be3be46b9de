import fs from 'node:fs';
import { sql } from 'kysely';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DATA_IMPORT_PERMISSION,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_LISTED_ERRORS,
  IMPORT_MAX_ROWS,
  IMPORT_PREVIEW_ROWS,
  IMPORT_ZONE_FROM_VALUE,
  Status,
  isTimeZone,
  perm,
  type DryRunResult,
  type ImportFile,
  type ImportFormat,
  type ImportMapping,
  type ImportResult,
  type ImportRowErrorItem,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { mayCall, type SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import {
  JobError,
  ownJob,
  type JobContext,
  type JobFile,
  type JobRow,
  type JobRunner,
} from '../../platform/jobs/index.ts';
import { ensurePartition, writeBatch, type CommittedReading, type ReadingRow } from '../ingest/index.ts';
import { cellText, dataRows, detectFormat, readRecords, type FileRecord } from './dataImport.parse.ts';
import { RowChecker, type GoodRow } from './dataImport.check.ts';
import * as repo from './dataImport.repository.ts';

/** The display name of an upload: its last path segment, without control characters, at most 200 characters. */
function displayName(raw: string): string {
  const name = (raw.split(/[/\\]/).pop() ?? '').replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    '',
  );
  return name.trim().replace(/^\.+/, '').slice(-200);
}

export const DRY_RUN = 'dataImport.dryRun';
export const IMPORT = 'dataImport.import';

/** Rows written per transaction (with their checkpoint). */
const WRITE_BATCH = 20_000;

type DryRunParams = ImportMapping;
type ImportParams = ImportMapping & { dryRunJobId: number };
interface Checkpoint {
  rows: number;
  added: number;
  duplicates: number;
  silent: number;
  evaluated: number;
}

const MAY_IMPORT = perm(DATA_IMPORT_PERMISSION);

/**
 * Data import (spec §2 /data/dataImport): upload, preview, dry run and import of readings or manual water
 * levels. The dry run and the import are jobs of the platform's runner: rights are checked again when they run,
 * the import commits each batch with its checkpoint (a restart resumes after the last one; a reading already
 * stored is skipped, never stored twice), and readings newer than IMPORT_SILENT_HOURS go to the alert engine as
 * live ones do.
 */
export class DataImportService {
  constructor(
    private readonly ctx: AppContext,
    private readonly runner: JobRunner,
    /** Committed imported readings recent enough to be judged (app.ts hands them to the alert engine). */
    private readonly onRecent: (readings: CommittedReading[]) => void,
  ) {
    runner.register<DryRunParams>(DRY_RUN, (c) => this.dryRun(c));
    runner.register<ImportParams>(IMPORT, (c) => this.importRows(c));
  }

  // ------------------------------------------------------------------------------------------ upload

  /** Stores an uploaded file after checking its type by content; answers what the mapping screen shows. */
  async upload(user: SessionUser, file: { filename: string; stream: Readable & { truncated?: boolean } }) {
    const files = this.runner.files;
    const tmp = await files.tempPath();
    try {
      let size = 0;
      await pipeline(
        file.stream,
        async function* (src: AsyncIterable<Buffer>) {
          for await (const chunk of src) {
            size += chunk.length;
            if (size > IMPORT_MAX_BYTES) throw new AppError(Status.tooLarge, 'tooLarge');
            yield chunk;
          }
        },
        fs.createWriteStream(tmp, { mode: 0o640 }),
      );
      if (file.stream.truncated) throw new AppError(Status.tooLarge, 'tooLarge');
      const { format, sheets } = await detectFormat(tmp);
      const name = displayName(file.filename) || `import.${format}`;
      const id = await files.adopt(tmp, { ownerId: user.id, name, ext: format, size }, this.ctx.config.jobResultDays);
      const stored = await files.own(user.id, id);
      return this.previewOf(stored!, format, sheets, sheets[0]);
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  /** An uploaded file's header and first rows (another sheet of it when named). */
  async preview(user: SessionUser, fileId: string, sheet?: string): Promise<ImportFile> {
    const f = await this.ownFile(user.id, fileId);
    const { format, sheets } = await detectFormat(f.path);
    if (sheet !== undefined && !sheets.includes(sheet))
      throw new AppError(Status.invalid, 'importSheetNotFound', { sheet });
    return this.previewOf(f, format, sheets, sheet ?? sheets[0]);
  }

  private async previewOf(f: JobFile, format: ImportFormat, sheets: string[], sheet?: string): Promise<ImportFile> {
    let header: string[] | null = null;
    const rows: ImportFile['rows'] = [];
    outer: for await (const recs of readRecords(f.path, format, sheet)) {
      for (const r of recs) {
        if (r.cells.every((c) => typeof c === 'string' && c.trim() === '')) continue;
        if (!header) header = r.cells.map((c) => cellText(c).trim());
        else rows.push({ line: r.line, cells: r.cells.map(cellText) });
        if (rows.length >= IMPORT_PREVIEW_ROWS) break outer;
      }
    }
    if (!header) throw new AppError(Status.invalid, 'importEmpty');
    return {
      fileId: f.id,
      name: f.name,
      format,
      size: f.size,
      sheets,
      sheet: format === 'xlsx' ? (sheet ?? null) : null,
      header,
      rows,
    };
  }

  private async ownFile(ownerId: number, fileId: string): Promise<JobFile> {
    const f = await this.runner.files.own(ownerId, fileId);
    if (!f) throw new AppError(Status.notFound, 'importFileNotFound');
    return f;
  }

  // --------------------------------------------------------------------------------------- submit

  /** Queues a dry run of a file with its mapping. */
  async submitDryRun(user: SessionUser, m: ImportMapping): Promise<JobRow> {
    if (m.timeZone !== IMPORT_ZONE_FROM_VALUE && !isTimeZone(m.timeZone))
      throw new AppError(Status.invalid, 'importTimeZone', { zone: m.timeZone });
    await this.ownFile(user.id, m.fileId);
    return this.runner.submit(DRY_RUN, user.id, m);
  }

  /** Queues the import of a finished dry run's file and mapping; refused when the dry run found errors. */
  async submitImport(user: SessionUser, dryRunJobId: number): Promise<JobRow> {
    const dry = await ownJob(this.ctx.db.k, user.id, dryRunJobId);
    if (!dry || dry.kind !== DRY_RUN) throw new AppError(Status.notFound, 'jobNotFound');
    if (dry.state !== 'done' || !dry.result) throw new AppError(Status.invalid, 'importNeedsDryRun');
    const result = dry.result as DryRunResult;
    if (result.errorCount > 0) throw new AppError(Status.invalid, 'importDryRunFailed', { count: result.errorCount });
    await this.ownFile(user.id, (dry.params as DryRunParams).fileId);
    return this.runner.submit(IMPORT, user.id, { ...dry.params, dryRunJobId: dry.id });
  }

  // ------------------------------------------------------------------------------------------ jobs

  /** The owner's rights now: enabled and still holding the import permission, else the job fails. */
  private async owner(c: JobContext<ImportMapping>): Promise<SessionUser> {
    const u = await c.owner();
    if (!u || !mayCall(u, MAY_IMPORT)) throw new JobError('noPermission');
    return u;
  }

  /** The file's data rows in batches, with a checker of the owner's rights; the header is checked first. */
  private async *rowsOf(c: JobContext<ImportMapping>, owner: SessionUser) {
    const m = c.params;
    const f = await this.runner.files.own(c.ownerId, m.fileId);
    if (!f) throw new JobError('importFileNotFound');
    const { format } = await detectFormat(f.path).catch(() => {
      throw new JobError('importNotCsvOrXlsx');
    });
    let checker: RowChecker | null = null;
    let rows = 0;
    try {
      for await (const recs of dataRows(f.path, format, m.sheet, (header) => {
        checker = new RowChecker(this.ctx.db, m, owner, header);
        const missing = checker.missingColumns();
        if (missing.length) throw new JobError('importColumnMissing', { column: missing[0]! + 1 });
      })) {
        c.throwIfStopped();
        rows += recs.length;
        if (rows > IMPORT_MAX_ROWS) throw new JobError('importTooManyRows', { max: IMPORT_MAX_ROWS });
        yield { recs, checker: checker! as RowChecker };
      }
    } catch (e) {
      if (e instanceof AppError) throw new JobError(e.key, e.params);
      throw e;
    }
    if (rows === 0) throw new JobError('importEmpty');
  }

  private async dryRun(c: JobContext<DryRunParams>): Promise<{ result: DryRunResult }> {
    const m = c.params;
    const owner = await this.owner(c);
    await c.progress({ done: 0, phase: 'check' }, true);
    const seen = new Map<number, Set<number>>();
    const errors: ImportRowErrorItem[] = [];
    const errorCounts: Record<string, number> = {};
    let rows = 0;
    let errorCount = 0;
    let toAdd = 0;
    let duplicatesStored = 0;
    let duplicatesInFile = 0;
    let from = Infinity;
    let to = -Infinity;
    for await (const { recs, checker } of this.rowsOf(c, owner)) {
      const { good, errors: bad } = await checker.check(recs);
      rows += recs.length;
      errorCount += bad.length;
      for (const e of bad) {
        errorCounts[e.reason] = (errorCounts[e.reason] ?? 0) + 1;
        if (errors.length < IMPORT_MAX_LISTED_ERRORS) errors.push(e);
      }
      const fresh: GoodRow[] = [];
      for (const g of good) {
        let s = seen.get(g.target);
        if (!s) seen.set(g.target, (s = new Set()));
        if (s.has(g.ts)) {
          duplicatesInFile++;
          continue;
        }
        s.add(g.ts);
        fresh.push(g);
        if (g.ts < from) from = g.ts;
        if (g.ts > to) to = g.ts;
      }
      const ids = fresh.map((g) => g.target);
      const ts = fresh.map((g) => g.ts);
      const stored =
        m.target === 'readings'
          ? await repo.storedReadings(this.ctx.db, ids, ts)
          : await repo.storedWaterLevels(this.ctx.db, ids, ts);
      duplicatesStored += stored;
      toAdd += fresh.length - stored;
      await c.progress({ done: rows, phase: 'check' });
    }
    return {
      result: {
        target: m.target,
        rows,
        toAdd,
        duplicatesStored,
        duplicatesInFile,
        errorCount,
        errors,
        errorCounts,
        targets: seen.size,
        from: Number.isFinite(from) ? new Date(from).toISOString() : null,
        to: Number.isFinite(to) ? new Date(to).toISOString() : null,
      },
    };
  }

  private async importRows(c: JobContext<ImportParams>): Promise<{ result: ImportResult }> {
    const m = c.params;
    const owner = await this.owner(c);
    let cp = (c.checkpoint as Checkpoint | null) ?? null;
    let total: number | null = null;
    if (!cp) {
      // Checked whole with the owner's rights of now before anything is written: a file that no longer passes
      // (a device moved out of his scope since the dry run) imports nothing.
      await c.progress({ done: 0, phase: 'check' }, true);
      let rows = 0;
      let errorCount = 0;
      for await (const { recs, checker } of this.rowsOf(c, owner)) {
        const { errors } = await checker.check(recs);
        rows += recs.length;
        errorCount += errors.length;
        await c.progress({ done: rows, phase: 'check' });
      }
      if (errorCount) throw new JobError('importDryRunFailed', { count: errorCount });
      total = rows;
      cp = { rows: 0, added: 0, duplicates: 0, silent: 0, evaluated: 0 };
    }
    const state: Checkpoint = { ...cp };
    await c.progress({ done: state.rows, phase: 'write', ...(total !== null ? { total } : {}) }, true);
    const skip = state.rows;
    let consumed = 0;
    let pending: GoodRow[] = [];
    const hint = { fresh: true };
    const flush = async (): Promise<void> => {
      const rows = pending;
      pending = [];
      if (m.target === 'readings') await this.writeReadings(c, rows, consumed, state, hint);
      else await this.writeWaterLevels(c, rows, consumed, state);
    };
    for await (const { recs: chunk, checker } of this.rowsOf(c, owner)) {
      // In slices of WRITE_BATCH records, each written with its checkpoint: a position in the file (data rows
      // read), so a resumed import skips what the last committed batch covered.
      for (let i = 0; i < chunk.length; i += WRITE_BATCH) {
        const all = chunk.slice(i, i + WRITE_BATCH);
        const start = consumed;
        consumed += all.length;
        if (consumed <= skip) continue;
        c.throwIfStopped();
        const recs: FileRecord[] = start < skip ? all.slice(skip - start) : all;
        const { good, errors } = await checker.check(recs);
        if (errors.length) {
          const e = errors[0]!;
          throw new JobError('importFileChanged', { reason: e.reason, line: e.line });
        }
        pending.push(...good);
        if (pending.length >= WRITE_BATCH || consumed - state.rows >= WRITE_BATCH) await flush();
      }
    }
    if (pending.length || consumed > state.rows) await flush();
    return {
      result: {
        target: m.target,
        dryRunJobId: m.dryRunJobId,
        rows: consumed,
        added: state.added,
        duplicates: state.duplicates,
        silent: state.silent,
        evaluated: state.evaluated,
      },
    };
  }

  /** One transaction: the readings (ingest's statement: raw rows, rollups, newest values) and the checkpoint. */
  private async writeReadings(
    c: JobContext<ImportParams>,
    good: GoodRow[],
    consumed: number,
    state: Checkpoint,
    /** fresh: the last batch had no reading stored already, so the lean statement is tried first. */
    hint: { fresh: boolean },
  ) {
    const db = this.ctx.db;
    // The first of a (device, time) in the batch; later ones are duplicates (ON CONFLICT skips stored ones).
    const seen = new Set<string>();
    const rows: ReadingRow[] = [];
    const platformOf = new Map<number, number | null>();
    for (const g of good) {
      const k = `${g.target}:${g.ts}`;
      if (seen.has(k)) continue;
      seen.add(k);
      rows.push({ deviceId: g.target, ts: g.ts, values: g.values });
      platformOf.set(g.target, g.platformId);
    }
    await this.ensurePartitions(rows);
    const cutoff = Date.now() - this.ctx.config.importSilentHours * 3600_000;
    let inserted: ReadingRow[] = [];
    const next = { ...state, rows: consumed };
    await db.k.transaction().execute(async (tx) => {
      let r: { inserted: ReadingRow[] } = { inserted: [] };
      if (rows.length && hint.fresh) {
        // The lean statement first (nothing answered per reading), under a savepoint: a reading stored already
        // fails it (and writeBatch's own retry, in the failed transaction); then the statement that skips them.
        await sql`savepoint import_batch`.execute(tx);
        try {
          r = await writeBatch({ ...db, k: tx }, rows, { importId: c.id });
        } catch {
          await sql`rollback to savepoint import_batch`.execute(tx);
          hint.fresh = false;
        }
      }
      if (rows.length && !hint.fresh)
        r = await writeBatch({ ...db, k: tx }, rows, { expectRepeats: true, importId: c.id });
      inserted = r.inserted;
      const recent = inserted.filter((x) => x.ts >= cutoff).length;
      next.added = state.added + inserted.length;
      next.duplicates = state.duplicates + (good.length - inserted.length);
      next.evaluated = state.evaluated + recent;
      next.silent = state.silent + inserted.length - recent;
      await c.checkpointIn(tx, { done: consumed, phase: 'write', checkpoint: next });
    });
    Object.assign(state, next);
    const recent = inserted.filter((x) => x.ts >= cutoff);
    if (recent.length)
      this.onRecent(
        recent.map((x) => ({
          deviceId: x.deviceId,
          platformId: platformOf.get(x.deviceId) ?? null,
          ts: x.ts,
          values: x.values,
        })),
      );
  }

  private async writeWaterLevels(c: JobContext<ImportParams>, good: GoodRow[], consumed: number, state: Checkpoint) {
    const seen = new Set<string>();
    const rows: { sectionId: number; ts: number; elevation: number }[] = [];
    for (const g of good) {
      const k = `${g.target}:${g.ts}`;
      if (seen.has(k)) continue;
      seen.add(k);
      rows.push({ sectionId: g.target, ts: g.ts, elevation: g.values.elevation! });
    }
    const next = { ...state, rows: consumed };
    await this.ctx.db.k.transaction().execute(async (tx) => {
      const added = await repo.insertWaterLevels(tx, rows, c.id, c.ownerId);
      next.added = state.added + added;
      next.duplicates = state.duplicates + (good.length - added);
      next.silent = state.silent + added;
      await c.checkpointIn(tx, { done: consumed, phase: 'write', checkpoint: next });
    });
    Object.assign(state, next);
  }

  private partitions = new Set<string>();

  private async ensurePartitions(rows: readonly ReadingRow[]): Promise<void> {
    const months = new Map<string, number>();
    for (const r of rows) {
      const d = new Date(r.ts);
      const k = `${d.getUTCFullYear()}-${d.getUTCMonth()}`;
      if (!this.partitions.has(k) && !months.has(k)) months.set(k, r.ts);
    }
    for (const [k, ts] of months) {
      await ensurePartition(this.ctx.db, ts);
      this.partitions.add(k);
    }
  }
}
