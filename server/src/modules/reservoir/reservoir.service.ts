// The reservoir (issue 17): water level from the source a section is set to (auto: the site's water-level
// device, reservoir water level (11) before water level (3); manual: the section's manual water levels), storage
// from the capacity table (the section's, else the site's) by linear interpolation, and the comprehensive report.
import {
  DEFORMATION_MODULE_IDS,
  RAIN_MODULE_ID,
  RESERVOIR_LEVEL_MODULE_IDS,
  RESERVOIR_LIMITS,
  SEEPAGE_MODULE_IDS,
  Status,
  monitorTypeOf,
  parseTime,
  reportPeriod,
  roundDecimal,
  storageAt,
  type CapacityRow,
  type ComprehensiveReport,
  type Language,
  type ManualWaterRow,
  type ReservoirStatisticsType,
  type WaterHis,
  type WaterInfo,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import { capacityRows } from '../sections/index.ts';
import * as repo from './reservoir.repository.ts';
import { pointChunk, summarise, type Chunk } from './reservoir.stats.ts';
import { comprehensiveDocument } from './reservoir.document.ts';

/** Decimals: levels and storage (m, 10,000 m³), rainfall (mm), other quantities. */
export const LEVEL_DECIMALS = 2;
export const RAIN_DECIMALS = 1;
export const OTHER_DECIMALS = 2;
const RAW_LIMIT = 20_000;
const iso = (t: number) => new Date(t).toISOString();
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

interface Source {
  source: 'auto' | 'manual';
  section: repo.SectionInfo | null;
  device: repo.DeviceInfo | null;
}

export class ReservoirService {
  constructor(private readonly ctx: AppContext) {}

  private async site(user: SessionUser, platformId: number): Promise<repo.ReservoirSite> {
    const s = await repo.findSite(this.ctx.db, user.scope, platformId);
    if (!s) throw new AppError(Status.notFound, 'platformNotFound');
    if (s.type !== 'reservoir') throw new AppError(Status.invalid, 'reservoirOnly');
    return s;
  }

  /** The section asked for (of this site), else the site's first; its water level source and device. */
  private async source(user: SessionUser, site: repo.ReservoirSite, segmentId: number | undefined): Promise<Source> {
    let section: repo.SectionInfo | null;
    if (segmentId !== undefined) {
      const s = await repo.findSection(this.ctx.db, user.scope, segmentId);
      if (!s || s.platformId !== site.id) throw new AppError(Status.notFound, 'sectionNotFound');
      section = s;
    } else section = (await repo.firstSection(this.ctx.db, site.id)) ?? null;
    // A site without sections has no manual levels (they are kept per section): its device, if any.
    const source = section?.source ?? 'auto';
    let device: repo.DeviceInfo | null = null;
    if (source === 'auto') {
      const all = await repo.devicesOf(this.ctx.db, site.id, RESERVOIR_LEVEL_MODULE_IDS);
      for (const m of RESERVOIR_LEVEL_MODULE_IDS) {
        device = all.find((d) => d.moduleId === m) ?? null;
        if (device) break;
      }
    }
    return { source, section, device };
  }

  /** The capacity table of the section when it has one, else the site's. */
  private async capacity(siteId: number, section: repo.SectionInfo | null): Promise<CapacityRow[]> {
    if (section) {
      const own = await capacityRows(this.ctx.db, siteId, section.id);
      if (own.length) return own;
    }
    return capacityRows(this.ctx.db, siteId, null);
  }

  private sourceOut(s: Source) {
    return {
      source: s.source,
      segmentId: s.section?.id ?? null,
      segmentName: s.section?.name ?? null,
      deviceId: s.device?.id ?? null,
      deviceName: s.device?.name ?? null,
    };
  }

  private flood(site: repo.ReservoirSite) {
    return {
      floodLevel: num(site.details.floodLevel),
      limitedFloodLevel: num(site.details.limitedFloodLevel),
    };
  }

  async info(user: SessionUser, platformId: number, segmentId: number | undefined): Promise<WaterInfo> {
    const site = await this.site(user, platformId);
    const src = await this.source(user, site, segmentId);
    const table = await this.capacity(site.id, src.section);
    const latest =
      src.source === 'manual'
        ? src.section && (await repo.latestManual(this.ctx.db, src.section.id))
        : src.device && (await repo.latestValue(this.ctx.db, src.device.id, 'waterLevel'));
    const level = latest ? roundDecimal(latest.v, LEVEL_DECIMALS) : null;
    const storage = storageAt(table, latest?.v);
    const f = this.flood(site);
    return {
      ...this.sourceOut(src),
      platformId: site.id,
      platformName: site.name,
      level,
      time: latest ? iso(latest.t) : null,
      storage: storage === null ? null : roundDecimal(storage, LEVEL_DECIMALS),
      ...f,
      totalCapacity: num(site.details.totalCapacity),
      bottomElevation: src.section?.bottomElevation ?? null,
      overLimited:
        level !== null && f.limitedFloodLevel !== null
          ? roundDecimal(level - f.limitedFloodLevel, LEVEL_DECIMALS)
          : null,
    };
  }

  private async period(
    user: SessionUser,
    q: { startTime: string | number; endTime: string | number; timeZone?: string | undefined },
    maxDays: number,
  ) {
    const tz = await requestTimeZone(this.ctx, user.id, q.timeZone);
    const p = reportPeriod(q.startTime, q.endTime, tz, maxDays);
    if (p === 'empty') throw new AppError(Status.invalid, 'badTimeRange');
    if (p === 'tooLong') throw new AppError(Status.invalid, 'reportPeriodTooLong', { max: maxDays });
    return { tz, ...p };
  }

  async history(
    user: SessionUser,
    q: {
      platformId: number;
      segmentId?: number | undefined;
      startTime: string | number;
      endTime: string | number;
      timeZone?: string | undefined;
    },
  ): Promise<WaterHis> {
    const site = await this.site(user, q.platformId);
    const { tz, from, to } = await this.period(user, q, RESERVOIR_LIMITS.maxDays);
    const src = await this.source(user, site, q.segmentId);
    const table = await this.capacity(site.id, src.section);
    let points: { t: number; v: number }[] = [];
    if (src.source === 'manual' && src.section) points = await repo.manualLevels(this.ctx.db, src.section.id, from, to);
    if (src.source === 'auto' && src.device) {
      points = await repo.rawValues(this.ctx.db, src.device.id, 'waterLevel', from, to, RAW_LIMIT + 1);
      // Too many for a chart: the level at the end of each hour.
      if (points.length > RAW_LIMIT)
        points = (await repo.hourRows(this.ctx.db, src.device.id, 'waterLevel', from, to)).map((h) => ({
          t: h.lastT,
          v: h.last,
        }));
    }
    return {
      ...this.sourceOut(src),
      timeZone: tz,
      ...this.flood(site),
      list: points.map((p) => {
        const s = storageAt(table, p.v);
        return {
          time: iso(p.t),
          level: roundDecimal(p.v, LEVEL_DECIMALS),
          storage: s === null ? null : roundDecimal(s, LEVEL_DECIMALS),
        };
      }),
    };
  }

  async comprehensive(
    user: SessionUser,
    lang: Language,
    q: {
      platformId: number;
      segmentId?: number | undefined;
      statisticsType: ReservoirStatisticsType;
      startTime: string | number;
      endTime: string | number;
      timeZone?: string | undefined;
    },
  ): Promise<ComprehensiveReport> {
    const site = await this.site(user, q.platformId);
    const unit = q.statisticsType;
    const { tz, from, to } = await this.period(
      user,
      q,
      unit === 'hour' ? RESERVOIR_LIMITS.maxHourDays : RESERVOIR_LIMITS.maxDays,
    );
    const src = await this.source(user, site, q.segmentId);
    const table = await this.capacity(site.id, src.section);
    const hours = async (deviceId: number, quantity: string): Promise<Chunk[]> =>
      (await repo.hourRows(this.ctx.db, deviceId, quantity, from, to)).map((h) => ({ ...h }));
    let levelChunks: Chunk[] = [];
    if (src.source === 'manual' && src.section)
      levelChunks = (await repo.manualLevels(this.ctx.db, src.section.id, from, to)).map(pointChunk);
    if (src.source === 'auto' && src.device) levelChunks = await hours(src.device.id, 'waterLevel');
    const lv = summarise(levelChunks, from, to, unit, tz, LEVEL_DECIMALS);
    const st = (v: number | null) => {
      const s = storageAt(table, v);
      return s === null ? null : roundDecimal(s, LEVEL_DECIMALS);
    };
    const f = this.flood(site);
    const storageFirst = st(lv.firstRaw);
    const storageLast = st(lv.lastOverall);
    const water = {
      periods: lv.periods.map((p, i) => ({ ...p, storage: st(lv.lastRaw[i] ?? null) })),
      first: lv.first,
      last: lv.last,
      max: lv.max,
      min: lv.min,
      storageFirst,
      storageLast,
      storageChange:
        storageFirst !== null && storageLast !== null ? roundDecimal(storageLast - storageFirst, LEVEL_DECIMALS) : null,
      overLimitedPeriods:
        f.limitedFloodLevel === null
          ? 0
          : lv.periods.filter((p) => p.max !== null && p.max > f.limitedFloodLevel!).length,
    };
    const groups: ComprehensiveReport['groups'] = [];
    const plan = [
      ['seepage', SEEPAGE_MODULE_IDS],
      ['deformation', DEFORMATION_MODULE_IDS],
      ['rain', [RAIN_MODULE_ID]],
    ] as const;
    for (const [group, ids] of plan) {
      const devices = await repo.devicesOf(this.ctx.db, site.id, ids);
      const out: ComprehensiveReport['groups'][number]['devices'] = [];
      for (const d of devices.sort((a, b) => ids.indexOf(a.moduleId as never) - ids.indexOf(b.moduleId as never))) {
        for (const qd of monitorTypeOf(d.moduleId)?.quantities ?? []) {
          const dec = group === 'rain' ? RAIN_DECIMALS : OTHER_DECIMALS;
          const s = summarise(await hours(d.id, qd.key), from, to, unit, tz, dec);
          out.push({
            deviceId: d.id,
            deviceName: d.name,
            moduleId: d.moduleId,
            quantity: qd.key,
            unit: qd.unit,
            periods: s.periods,
            avg: s.avg,
            max: s.max,
            min: s.min,
            first: s.first,
            last: s.last,
            sum: qd.accumulated ? s.sum : null,
            change: qd.accumulated ? null : s.change,
          });
        }
      }
      groups.push({ group, devices: out });
    }
    const base = {
      ...this.sourceOut(src),
      platformId: site.id,
      platformName: site.name,
      statisticsType: unit,
      timeZone: tz,
      from: iso(from),
      to: iso(to),
      ...f,
      water,
      groups,
    };
    return { ...base, document: comprehensiveDocument(base, lang, site.details) };
  }

  // ------------------------------------------------------------------------------------- manual levels

  private async reservoirSection(user: SessionUser, segmentId: number) {
    const s = await repo.findSection(this.ctx.db, user.scope, segmentId);
    if (!s) throw new AppError(Status.notFound, 'sectionNotFound');
    if (s.platformType !== 'reservoir') throw new AppError(Status.invalid, 'reservoirOnly');
    return s;
  }

  private checkLevel(s: repo.SectionInfo, elevation: number) {
    if (s.bottomElevation !== null && elevation < s.bottomElevation)
      throw new AppError(Status.invalid, 'waterLevelTooLow', { min: s.bottomElevation });
  }

  private time(v: string | number, tz: string): number {
    const t = parseTime(v, tz);
    if (t === null) throw new AppError(Status.invalid, 'badTimeRange');
    return t;
  }

  async list(
    user: SessionUser,
    q: {
      pageNum: number;
      pageSize: number;
      platformId?: number | undefined;
      segmentId?: number | undefined;
      startTime?: string | number | undefined;
      endTime?: string | number | undefined;
      timeZone?: string | undefined;
      sortField?: string | undefined;
      sortOrder?: 'ascend' | 'descend' | undefined;
    },
  ): Promise<{ list: ManualWaterRow[]; total: number }> {
    const tz = await requestTimeZone(this.ctx, user.id, q.timeZone);
    const page = await repo.listManual(this.ctx.db, user.scope, {
      ...q,
      from: q.startTime === undefined ? undefined : this.time(q.startTime, tz),
      to: q.endTime === undefined ? undefined : this.time(q.endTime, tz),
    });
    const tables = new Map<number, CapacityRow[]>();
    const list: ManualWaterRow[] = [];
    for (const r of page.list) {
      let table = tables.get(r.segmentId);
      if (!table) {
        table = await this.capacity(r.platformId, { id: r.segmentId } as repo.SectionInfo);
        tables.set(r.segmentId, table);
      }
      const s = storageAt(table, r.elevation);
      list.push({ ...r, storage: s === null ? null : roundDecimal(s, LEVEL_DECIMALS) });
    }
    return { list, total: page.total };
  }

  async add(
    user: SessionUser,
    b: { segmentId: number; time: string | number; elevation: number; timeZone?: string | undefined },
  ): Promise<number> {
    const s = await this.reservoirSection(user, b.segmentId);
    this.checkLevel(s, b.elevation);
    const tz = await requestTimeZone(this.ctx, user.id, b.timeZone);
    const t = this.time(b.time, tz);
    try {
      const [id] = await repo.insertManual(this.ctx.db.k, s.id, [{ t, elevation: b.elevation }], user.id);
      return id!;
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'riverWaterTimeExists');
      throw e;
    }
  }

  /** All or none: a duplicate time in the batch or one already stored refuses the whole batch. */
  async insert(
    user: SessionUser,
    b: { segmentId: number; levels: { time: string | number; elevation: number }[]; timeZone?: string | undefined },
  ): Promise<number> {
    const s = await this.reservoirSection(user, b.segmentId);
    const tz = await requestTimeZone(this.ctx, user.id, b.timeZone);
    const seen = new Set<number>();
    const rows = b.levels.map((x, i) => {
      const t = parseTime(x.time, tz);
      if (t === null) throw new AppError(Status.invalid, 'waterLevelRowInvalid', { row: i + 1 });
      if (
        !Number.isFinite(x.elevation) ||
        x.elevation < RESERVOIR_LIMITS.minElevation ||
        x.elevation > RESERVOIR_LIMITS.maxElevation
      )
        throw new AppError(Status.invalid, 'waterLevelRowInvalid', { row: i + 1 });
      if (s.bottomElevation !== null && x.elevation < s.bottomElevation)
        throw new AppError(Status.invalid, 'waterLevelTooLow', { min: s.bottomElevation });
      if (seen.has(t)) throw new AppError(Status.invalid, 'waterLevelRowDuplicate', { row: i + 1 });
      seen.add(t);
      return { t, elevation: x.elevation };
    });
    try {
      return (await this.ctx.db.k.transaction().execute((tx) => repo.insertManual(tx, s.id, rows, user.id))).length;
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'riverWaterTimeExists');
      throw e;
    }
  }

  async edit(
    user: SessionUser,
    b: { id: number; time?: string | number | undefined; elevation: number; timeZone?: string | undefined },
  ): Promise<void> {
    const w = await repo.findManual(this.ctx.db, user.scope, b.id);
    if (!w) throw new AppError(Status.notFound, 'riverWaterNotFound');
    const s = await this.reservoirSection(user, w.sectionId);
    this.checkLevel(s, b.elevation);
    const t = b.time === undefined ? w.time : this.time(b.time, await requestTimeZone(this.ctx, user.id, b.timeZone));
    try {
      await repo.updateManual(this.ctx.db, w.id, t, b.elevation);
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'riverWaterTimeExists');
      throw e;
    }
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    if (!(await repo.findManual(this.ctx.db, user.scope, id)))
      throw new AppError(Status.notFound, 'riverWaterNotFound');
    await repo.deleteManual(this.ctx.db, id);
  }
}
