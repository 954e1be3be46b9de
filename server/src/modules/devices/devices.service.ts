import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { ZodError } from 'zod';
import {
  deviceAddBody,
  DEVICE_IMPORT_COLUMNS,
  DEVICE_IMPORT_MAX_BYTES,
  DEVICE_IMPORT_MAX_ROWS,
  GNSS_MODULE_ID,
  monitorTypeLabel,
  Status,
  type DeviceFileFormat,
  type DeviceImportError,
  type DeviceImportJob,
  type DeviceInput,
  type DeviceOption,
  type DeviceRow,
  type GnssParams,
  type Language,
  type StationType,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { RULES, translate, type MessageKey } from '../../platform/http/messages.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { getTerminal } from '../terminals/index.ts';
import { findSite } from '../../platform/auth/sites.ts';
import * as repo from './devices.repository.ts';
import {
  parseCsv,
  parseXlsx,
  writeCsv,
  writeXlsx,
  type Cell,
  type ParsedTable,
} from '../../platform/files/spreadsheet.ts';

/** Rows per insert transaction during an import. */
const IMPORT_BATCH = 500;
/** Row errors kept per import job. */
const MAX_IMPORT_ERRORS = 2000;

export type GnssInput = Omit<DeviceInput, 'moduleId' | 'stationType'> & {
  moduleId: number;
  stationType: StationType;
  gnss: GnssParams;
};

/** The translated row errors of a zod validation, in the shape of the API's validation errors. */
export function zodRowErrors(e: ZodError, row: number, lang: Language): DeviceImportError[] {
  return e.issues.map((i) => {
    const field = i.path.join('.') || '(row)';
    const missing = i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined;
    const rule = missing ? 'required' : i.code;
    return { row, field, message: `${field} ${(RULES[rule] ?? RULES.custom!)[lang]}` };
  });
}

/**
 * Told the device numbers added, bound, moved, unbound or deleted, after the change committed (buildApp hands
 * ingest's device cache here, so a device added a moment ago is accepted at once).
 */
export type DevicesChanged = (numbers: readonly string[]) => void;

export class DevicesService {
  constructor(
    private readonly ctx: AppContext,
    private readonly devicesChanged: DevicesChanged = () => undefined,
  ) {}

  private changed(numbers: readonly string[]): void {
    if (numbers.length) this.devicesChanged(numbers);
  }

  list(
    user: SessionUser,
    f: repo.DeviceFilter & { pageNum: number; pageSize: number },
  ): Promise<{ list: DeviceRow[]; total: number }> {
    return repo.listDevices(this.ctx.db, user.scope, f);
  }

  /** Every bound device of the caller's scope. */
  byRole(user: SessionUser): Promise<DeviceRow[]> {
    return repo.allDevices(this.ctx.db, user.scope, { bound: true });
  }

  options(
    user: SessionUser,
    lang: Language,
    f: { platformId?: number | undefined; moduleId?: number | undefined },
  ): Promise<DeviceOption[]> {
    return repo.deviceOptions(this.ctx.db, user.scope, lang, f);
  }

  private async mustGet(user: SessionUser, id: number): Promise<DeviceRow> {
    const d = await repo.getDevice(this.ctx.db, user.scope, id);
    if (!d) throw new AppError(Status.notFound, 'deviceNotFound');
    return d;
  }

  /** Site in scope, terminal of that site, and the GNSS base station named by a rover. */
  private async checkPlacement(user: SessionUser, d: DeviceInput): Promise<void> {
    if (!(await findSite(this.ctx.db, user.scope, d.platformId)))
      throw new AppError(Status.notFound, 'platformNotFound');
    const t = await getTerminal(this.ctx.db, user.scope, d.terminalId);
    if (!t) throw new AppError(Status.notFound, 'terminalNotFound');
    if (t.platformId !== d.platformId) throw new AppError(Status.invalid, 'terminalOtherSite');
    const base = d.params?.gnss?.baseNumber;
    if (base && !(await repo.findGnssBase(this.ctx.db, d.platformId, base))) {
      throw new AppError(Status.invalid, 'gnssBaseNotFound', { number: base });
    }
  }

  private uniqueError(e: unknown, d: DeviceInput): unknown {
    if (isUniqueViolation(e, 'devices_number_uq'))
      return new AppError(Status.conflict, 'deviceExists', { number: d.number });
    if (isUniqueViolation(e, 'devices_name_uq'))
      return new AppError(Status.conflict, 'deviceNameExists', { name: d.deviceName });
    return e;
  }

  /** Conflicts with other devices; answers the unbound device with this number, which the add takes back. */
  private async checkUnique(d: DeviceInput, self?: number): Promise<repo.DeviceIdentity | undefined> {
    const found = await repo.devicesByNumberOrName(this.ctx.db.k, [d.number], [d.deviceName]);
    const sameNumber = found.find((x) => x.number === d.number && x.id !== self);
    if (sameNumber && (self !== undefined || sameNumber.platform_id !== null)) {
      throw new AppError(Status.conflict, 'deviceExists', { number: d.number });
    }
    const reclaim = sameNumber;
    if (
      found.some(
        (x) => x.device_name.toLowerCase() === d.deviceName.toLowerCase() && x.id !== self && x.id !== reclaim?.id,
      )
    ) {
      throw new AppError(Status.conflict, 'deviceNameExists', { name: d.deviceName });
    }
    return reclaim;
  }

  /**
   * Adds a device. A device number held by an unbound device (spec §4: unbind, "the device can be added again")
   * takes that device back: same id and history, the new fields, the new site and terminal.
   */
  async add(user: SessionUser, d: DeviceInput): Promise<number> {
    await this.checkPlacement(user, d);
    const reclaim = await this.checkUnique(d);
    let id: number;
    try {
      id = await this.ctx.db.k.transaction().execute(async (trx) => {
        if (reclaim) {
          await repo.updateDevice(trx, reclaim.id, d, { fromPlatformId: null, reclaim: true });
          return reclaim.id;
        }
        return repo.insertDevice(trx, d);
      });
    } catch (e) {
      throw this.uniqueError(e, d);
    }
    // Ingest accepts the new device's readings at once (its cache held the number as unknown).
    this.changed([d.number]);
    return id;
  }

  async edit(user: SessionUser, id: number, d: DeviceInput): Promise<void> {
    const before = await this.mustGet(user, id);
    await this.checkPlacement(user, d);
    await this.checkUnique(d, id);
    try {
      await this.ctx.db.k
        .transaction()
        .execute((trx) => repo.updateDevice(trx, id, d, { fromPlatformId: before.platformId }));
    } catch (e) {
      throw this.uniqueError(e, d);
    }
    this.changed([before.number, d.number]);
  }

  private fromGnss(g: GnssInput): DeviceInput {
    const { gnss, ...rest } = g;
    return { ...rest, moduleId: GNSS_MODULE_ID, params: { ...(rest.params ?? {}), gnss } };
  }

  addGnss(user: SessionUser, g: GnssInput): Promise<number> {
    return this.add(user, this.fromGnss(g));
  }

  async editGnss(user: SessionUser, id: number, g: GnssInput): Promise<void> {
    const before = await this.mustGet(user, id);
    if (before.moduleId !== GNSS_MODULE_ID) throw new AppError(Status.notFound, 'deviceNotFound');
    await this.edit(user, id, this.fromGnss(g));
  }

  /** Permanent deletion (the web warns that it cannot be undone). */
  async remove(user: SessionUser, id: number): Promise<void> {
    const d = await this.mustGet(user, id);
    await repo.deleteDevice(this.ctx.db, id);
    this.changed([d.number]);
  }

  /** Unbinds a device from its site and terminal; its number can be added again. */
  async unbind(user: SessionUser, id: number): Promise<void> {
    const d = await this.mustGet(user, id);
    if (d.bound || d.terminalId !== null) await repo.unbindDevice(this.ctx.db, id);
    this.changed([d.number]);
  }

  // ---- export -------------------------------------------------------------------------------------------

  async exportFile(
    user: SessionUser,
    lang: Language,
    format: DeviceFileFormat,
    f: repo.DeviceFilter,
  ): Promise<{ body: Buffer; contentType: string; filename: string }> {
    const rows = await repo.allDevices(this.ctx.db, user.scope, f);
    const extra = ['deviceId', 'moduleName', 'platformName', 'terminalName', 'state', 'bound', 'lastSeenAt'] as const;
    const header = [...DEVICE_IMPORT_COLUMNS, ...extra];
    const cells = rows.map((r): Cell[] => [
      ...DEVICE_IMPORT_COLUMNS.map((c): Cell => {
        const v = r[c];
        if (v === null || v === undefined) return null;
        if (c === 'initialValues' || c === 'params') return Object.keys(v as object).length ? JSON.stringify(v) : null;
        return v as Cell;
      }),
      r.deviceId,
      monitorTypeLabel(r.moduleId, lang),
      r.platformName,
      r.terminalName,
      r.state,
      r.bound,
      r.lastSeenAt,
    ]);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    if (format === 'xlsx') {
      return {
        body: await writeXlsx('devices', header, cells),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        filename: `devices-${stamp}.xlsx`,
      };
    }
    return { body: writeCsv(header, cells), contentType: 'text/csv; charset=utf-8', filename: `devices-${stamp}.csv` };
  }

  // ---- import -------------------------------------------------------------------------------------------

  /**
   * Reads the file at once (a file that cannot be read is refused here), records a job and answers its id;
   * the rows are validated and inserted in the background (importProgress reports on them).
   */
  async startImport(
    user: SessionUser,
    lang: Language,
    body: {
      format: DeviceFileFormat;
      contentBase64: string;
      platformId?: number | undefined;
      terminalId?: number | undefined;
    },
  ): Promise<{ jobId: string; total: number }> {
    const buf = Buffer.from(body.contentBase64, 'base64');
    if (buf.length > DEVICE_IMPORT_MAX_BYTES) throw new AppError(Status.tooLarge, 'tooLarge');
    let table: ParsedTable;
    try {
      table = body.format === 'xlsx' ? await parseXlsx(buf) : parseCsv(buf.toString('utf8'));
    } catch {
      throw new AppError(Status.invalid, 'importFileInvalid', { format: body.format.toUpperCase() });
    }
    if (!table.rows.length) throw new AppError(Status.invalid, 'importEmpty');
    if (table.rows.length > DEVICE_IMPORT_MAX_ROWS)
      throw new AppError(Status.invalid, 'importTooManyRows', { max: DEVICE_IMPORT_MAX_ROWS });

    const jobId = crypto.randomUUID();
    const db = this.ctx.db.k;
    await db
      .deleteFrom('import_jobs')
      .where('created_at', '<', sql<Date>`now() - interval '7 days'`)
      .execute();
    await db
      .insertInto('import_jobs')
      .values({ id: jobId, kind: 'devices', user_id: user.id, total: table.rows.length })
      .execute();
    void this.runImport(jobId, user, lang, table, { platformId: body.platformId, terminalId: body.terminalId }).catch(
      async (e: unknown) => {
        this.ctx.log.error({ err: e, jobId }, 'device import failed');
        await db
          .updateTable('import_jobs')
          .set({ status: 'failed', finished_at: new Date() })
          .where('id', '=', jobId)
          .execute()
          .catch(() => undefined);
      },
    );
    return { jobId, total: table.rows.length };
  }

  async importProgress(user: SessionUser, jobId: string): Promise<DeviceImportJob> {
    const j = await this.ctx.db.k
      .selectFrom('import_jobs')
      .select(['id', 'status', 'total', 'done', 'inserted', 'errors'])
      .where('id', '=', jobId)
      .where('user_id', '=', user.id)
      .where('kind', '=', 'devices')
      .executeTakeFirst();
    if (!j) throw new AppError(Status.notFound, 'importJobNotFound');
    return {
      jobId: j.id,
      status: j.status as DeviceImportJob['status'],
      total: j.total,
      done: j.done,
      inserted: j.inserted,
      errors: (j.errors ?? []) as DeviceImportError[],
    };
  }

  private async runImport(
    jobId: string,
    user: SessionUser,
    lang: Language,
    table: ParsedTable,
    defaults: { platformId?: number | undefined; terminalId?: number | undefined },
  ): Promise<void> {
    const db = this.ctx.db;
    const errors: DeviceImportError[] = [];
    const fail = (row: number, field: string, key: MessageKey, params: Record<string, string | number> = {}): void => {
      errors.push({ row, field, message: `${field}: ${translate(lang, key, params)}` });
    };
    // Column names as the export writes them; their case does not matter. Unknown columns are ignored.
    const known = new Map<string, string>(DEVICE_IMPORT_COLUMNS.map((c) => [c.toLowerCase(), c]));
    const header = table.header.map((h) => known.get(h.toLowerCase()) ?? null);
    const sites = new Map<number, boolean>();
    const terminals = new Map<number, number | null>();
    const numbersInFile = new Map<string, number>();
    const namesInFile = new Map<string, number>();
    const basesInFile = new Map<string, number>();
    let done = 0;
    let inserted = 0;

    for (let start = 0; start < table.rows.length; start += IMPORT_BATCH) {
      const chunk = table.rows.slice(start, start + IMPORT_BATCH);
      const valid: { row: number; d: DeviceInput }[] = [];
      for (const { row, cells } of chunk) {
        const obj: Record<string, string | number> = {};
        header.forEach((h, k) => {
          const v = cells[k];
          if (h && v !== undefined && v.trim() !== '') obj[h] = v;
        });
        if (obj.platformId === undefined && defaults.platformId !== undefined) obj.platformId = defaults.platformId;
        if (obj.terminalId === undefined && defaults.terminalId !== undefined) obj.terminalId = defaults.terminalId;
        const parsed = deviceAddBody.safeParse(obj);
        if (!parsed.success) {
          errors.push(...zodRowErrors(parsed.error, row, lang));
          continue;
        }
        const d = parsed.data;
        if (!sites.has(d.platformId))
          sites.set(d.platformId, (await findSite(db, user.scope, d.platformId)) !== undefined);
        if (!sites.get(d.platformId)) {
          fail(row, 'platformId', 'platformNotFound');
          continue;
        }
        if (!terminals.has(d.terminalId))
          terminals.set(d.terminalId, (await getTerminal(db, user.scope, d.terminalId))?.platformId ?? null);
        const tSite = terminals.get(d.terminalId);
        if (tSite === null || tSite === undefined) {
          fail(row, 'terminalId', 'terminalNotFound');
          continue;
        }
        if (tSite !== d.platformId) {
          fail(row, 'terminalId', 'terminalOtherSite');
          continue;
        }
        const numberRow = numbersInFile.get(d.number);
        if (numberRow !== undefined) {
          fail(row, 'number', 'importDuplicateInFile', { row: numberRow });
          continue;
        }
        const nameRow = namesInFile.get(d.deviceName.toLowerCase());
        if (nameRow !== undefined) {
          fail(row, 'deviceName', 'importDuplicateInFile', { row: nameRow });
          continue;
        }
        const base = d.params?.gnss?.baseNumber;
        if (base && basesInFile.get(base) !== d.platformId && !(await repo.findGnssBase(db, d.platformId, base))) {
          fail(row, 'params.gnss.baseNumber', 'gnssBaseNotFound', { number: base });
          continue;
        }
        numbersInFile.set(d.number, row);
        namesInFile.set(d.deviceName.toLowerCase(), row);
        valid.push({ row, d });
      }

      // Conflicts with devices already stored; an unbound device with the number is taken back.
      const existing = await repo.devicesByNumberOrName(
        db.k,
        valid.map((v) => v.d.number),
        valid.map((v) => v.d.deviceName),
      );
      const writes: { row: number; d: DeviceInput; reclaim?: number }[] = [];
      for (const v of valid) {
        const sameNumber = existing.find((x) => x.number === v.d.number);
        if (sameNumber && sameNumber.platform_id !== null) {
          fail(v.row, 'number', 'deviceExists', { number: v.d.number });
          continue;
        }
        const lower = v.d.deviceName.toLowerCase();
        if (existing.some((x) => x.device_name.toLowerCase() === lower && x.id !== sameNumber?.id)) {
          fail(v.row, 'deviceName', 'deviceNameExists', { name: v.d.deviceName });
          continue;
        }
        writes.push(sameNumber ? { ...v, reclaim: sameNumber.id } : v);
      }

      const write = async (trx: typeof db.k, w: (typeof writes)[number]): Promise<void> => {
        if (w.reclaim !== undefined)
          await repo.updateDevice(trx, w.reclaim, w.d, { fromPlatformId: null, reclaim: true });
        else await repo.insertDevice(trx, w.d);
      };
      try {
        await db.k.transaction().execute(async (trx) => {
          for (const w of writes) await write(trx, w);
        });
        inserted += writes.length;
      } catch {
        // A concurrent change made the batch fail: write its rows one by one and report the failures.
        for (const w of writes) {
          try {
            await db.k.transaction().execute((trx) => write(trx, w));
            inserted++;
          } catch (e) {
            const err = this.uniqueError(e, w.d);
            if (err instanceof AppError)
              fail(w.row, err.key === 'deviceExists' ? 'number' : 'deviceName', err.key, err.params);
            else throw e;
          }
        }
      }
      this.changed(writes.map((w) => w.d.number));
      for (const w of writes) {
        if (w.d.moduleId === GNSS_MODULE_ID && w.d.stationType === 'base') basesInFile.set(w.d.number, w.d.platformId);
      }
      done += chunk.length;
      await db.k
        .updateTable('import_jobs')
        .set({ done, inserted, errors: JSON.stringify(errors.slice(0, MAX_IMPORT_ERRORS)) })
        .where('id', '=', jobId)
        .execute();
    }
    await db.k
      .updateTable('import_jobs')
      .set({
        status: 'done',
        done,
        inserted,
        errors: JSON.stringify(errors.slice(0, MAX_IMPORT_ERRORS)),
        finished_at: new Date(),
      })
      .where('id', '=', jobId)
      .execute();
  }
}
