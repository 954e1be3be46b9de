import {
  DEVICE_STATES,
  GNSS_MODULE_ID,
  MODULE_DATA_LIMITS,
  MODULE_REPORT_MAX_DAYS,
  RAIN_WINDOWS_HOURS,
  REPORT_TEMPLATE_COLUMNS,
  Status,
  aggregateOf,
  bucketStart,
  isDateOnly,
  isMonitorTypeId,
  monitorTypeLabel,
  monitorTypeOf,
  nextBucket,
  parseTime,
  periodLabel,
  quantitiesOf,
  resolveRange,
  tiltResultant,
  type Aggregation,
  type ClinometerAvg,
  type ClinometerRealTime,
  type DeviceRef,
  type DeviceState,
  type DeviceStatusData,
  type EditGnssResult,
  type GnssRealTime,
  type HistoricalData,
  type HistoryPoint,
  type HistorySeries,
  type IonosphereLatest,
  type Language,
  type MaxMinAvgData,
  type ModuleReport,
  type ModuleReportDevice,
  type QuantityStats,
  type RainLatest,
  type RealTimeDevice,
  type ReportCell,
  type ReportRow,
  type SatelliteInfo,
  type SmoothMethod,
  type SmoothPreview,
  type SmoothResult,
  type StatisticsType,
  type ReportTemplate,
  type TimeRange,
  type TimeWindow,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import * as repo from './moduleData.repository.ts';
import { clean, derive, derivedAt, smooth } from './derived.ts';
import { lttbIndices } from './lttb.ts';
import { isOnline } from './online.ts';
import * as reportData from './moduleData.reportData.ts';
import { NO_EXTRAS, extrasNeeded, moduleReportDocument, type ModuleReportExtras } from './moduleData.report.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';

const RAIN_MODULE_ID = 2;
const TILT_MODULE_ID = 9;
const GNSS_QUALITY = ['pdop', 'sats', 'fix'] as const;

const iso = (t: number): string => new Date(t).toISOString();
const isoOrNull = (t: number | null): string | null => (t === null ? null : iso(t));
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

interface RangeInput {
  range?: TimeRange | undefined;
  startTime?: string | number | undefined;
  endTime?: string | number | undefined;
  /** IANA name; default the user's zone, else TIME_ZONE. */
  timeZone?: string | undefined;
}

/** The monitoring query API: every read limited to the caller's data scope. */
export class ModuleDataService {
  constructor(
    private readonly ctx: AppContext,
    /** Told after stored readings changed (alert evaluation drops what it kept of them). */
    private readonly edited: (deviceIds: number[]) => void = () => undefined,
  ) {}

  // ---------------------------------------------------------------------------------------- helpers

  /** The zone of a request: its timeZone (checked), else the user's, else TIME_ZONE. */
  private zone(user: SessionUser, asked: string | undefined): Promise<string> {
    return requestTimeZone(this.ctx, user.id, asked);
  }

  private window(q: RangeInput, timeZone: string, now = Date.now()): TimeWindow {
    const w = resolveRange(q.range, q.startTime, q.endTime, now, timeZone);
    if (!w) throw new AppError(Status.invalid, 'badTimeRange');
    return w;
  }

  /** A device in the caller's scope (of one of the given types), else "does not exist". */
  private async device(user: SessionUser, deviceId: number, moduleIds?: readonly number[]): Promise<repo.DeviceRow> {
    const [d] = await repo.findDevices(this.ctx.db, user.scope, { deviceIds: [deviceId] });
    if (!d || (moduleIds && !moduleIds.includes(d.moduleId))) throw new AppError(Status.notFound, 'deviceNotFound');
    return d;
  }

  private async platform(user: SessionUser, platformId: number): Promise<{ id: number; name: string }> {
    const p = await repo.findPlatform(this.ctx.db, user.scope, platformId);
    if (!p) throw new AppError(Status.notFound, 'platformNotFound');
    return p;
  }

  /** Devices of a site or one device (both optional), of the given types; unknown site or device = missing. */
  private async devicesOf(
    user: SessionUser,
    f: { platformId?: number | undefined; deviceId?: number | undefined; moduleIds?: readonly number[] },
  ): Promise<repo.DeviceRow[]> {
    if (f.platformId !== undefined) await this.platform(user, f.platformId);
    if (f.deviceId !== undefined) {
      const d = await this.device(user, f.deviceId, f.moduleIds);
      if (f.platformId !== undefined && d.platformId !== f.platformId)
        throw new AppError(Status.notFound, 'deviceNotFound');
      return [d];
    }
    return repo.findDevices(this.ctx.db, user.scope, {
      platformId: f.platformId,
      ...(f.moduleIds ? { moduleIds: f.moduleIds } : {}),
    });
  }

  /** The quantities asked for: one (it must belong to the type), else the type's own quantities (GNSS: dN, dE, dH). */
  private quantities(moduleId: number, quantity: string | undefined): string[] {
    if (quantity !== undefined) {
      if (!quantitiesOf(moduleId).some((q) => q.key === quantity))
        throw new AppError(Status.invalid, 'quantityUnknown', { quantity });
      return [quantity];
    }
    const own = (monitorTypeOf(moduleId)?.quantities ?? []).map((q) => q.key);
    // GNSS: the displacement; its solution quality (pdop, sats, fix) has the ionosphere calls.
    return moduleId === GNSS_MODULE_ID ? own.filter((k) => !(GNSS_QUALITY as readonly string[]).includes(k)) : own;
  }

  private quantityInfo(moduleId: number, key: string, lang: Language): { label: string; unit: string } {
    const q = quantitiesOf(moduleId).find((x) => x.key === key);
    return { label: q ? q.label[lang] : key, unit: q?.unit ?? '' };
  }

  private online(d: repo.DeviceRow, now: number): boolean {
    return isOnline(d.lastSeenAt, d.offlineHours, this.ctx.config.defaultOfflineHours, now);
  }

  private ref(d: repo.DeviceRow): DeviceRef {
    return {
      deviceId: d.id,
      deviceName: d.name,
      number: d.number,
      moduleId: d.moduleId,
      platformId: d.platformId,
      platformName: d.platformName,
    };
  }

  private realTimeOf(d: repo.DeviceRow, lang: Language, now: number): RealTimeDevice {
    const values: Record<string, number> = {};
    for (const [k, v] of Object.entries(d.lastValues)) if (num(v) !== null) values[k] = v as number;
    return {
      ...this.ref(d),
      moduleName: monitorTypeLabel(d.moduleId, lang),
      state: d.state as DeviceState,
      online: this.online(d, now),
      lastSeenAt: isoOrNull(d.lastSeenAt),
      lastReadingAt: isoOrNull(d.lastReadingAt),
      values,
      units: Object.fromEntries(quantitiesOf(d.moduleId).map((q) => [q.key, q.unit])),
      battery: values.battery ?? null,
      voltage: values.voltage ?? null,
    };
  }

  // --------------------------------------------------------------------------------------- real time

  async realTime(
    user: SessionUser,
    lang: Language,
    q: { platformId?: number | undefined; moduleId?: number | undefined; deviceId?: number | undefined },
  ): Promise<RealTimeDevice[]> {
    const list = await this.devicesOf(user, {
      platformId: q.platformId,
      deviceId: q.deviceId,
      ...(q.moduleId !== undefined ? { moduleIds: [q.moduleId] } : {}),
    });
    const now = Date.now();
    return list.map((d) => this.realTimeOf(d, lang, now));
  }

  async clinometerRealTime(
    user: SessionUser,
    lang: Language,
    q: { platformId?: number | undefined; deviceId?: number | undefined },
  ): Promise<ClinometerRealTime[]> {
    const list = await this.devicesOf(user, { ...q, moduleIds: [TILT_MODULE_ID] });
    const now = Date.now();
    return list.map((d) => {
      const r = this.realTimeOf(d, lang, now);
      const tiltX = r.values.tiltX ?? null;
      const tiltY = r.values.tiltY ?? null;
      const res = tiltX !== null && tiltY !== null ? tiltResultant(tiltX, tiltY) : null;
      return { ...r, tiltX, tiltY, resultant: res?.resultant ?? null, azimuth: res?.azimuth ?? null };
    });
  }

  async deviceStatus(user: SessionUser, lang: Language, platformId: number): Promise<DeviceStatusData> {
    const p = await this.platform(user, platformId);
    const list = await repo.findDevices(this.ctx.db, user.scope, { platformId });
    const now = Date.now();
    const devices = list.map((d) => this.realTimeOf(d, lang, now));
    const counts = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as Record<DeviceState, number>;
    for (const d of devices) if (d.state in counts) counts[d.state]++;
    const online = devices.filter((d) => d.online).length;
    return {
      platformId,
      platformName: p.name,
      total: devices.length,
      online,
      offline: devices.length - online,
      counts,
      devices,
    };
  }

  // ----------------------------------------------------------------------------------------- history

  async history(
    user: SessionUser,
    lang: Language,
    q: RangeInput & {
      deviceId?: number | undefined;
      deviceIds: number[];
      quantity?: string | undefined;
      aggregation: Aggregation;
      maxPoints: number;
    },
  ): Promise<HistoricalData> {
    const tz = await this.zone(user, q.timeZone);
    const w = this.window(q, tz);
    const ids = [...new Set([...(q.deviceId !== undefined ? [q.deviceId] : []), ...q.deviceIds])];
    if (ids.length > MODULE_DATA_LIMITS.maxCompareDevices)
      throw new AppError(Status.invalid, 'tooManyDevices', { max: MODULE_DATA_LIMITS.maxCompareDevices });
    const devices = [];
    for (const id of ids) devices.push(await this.device(user, id));
    const out: HistoricalData = {
      from: iso(w.from),
      to: iso(w.to),
      aggregation: q.aggregation,
      timeZone: tz,
      devices: [],
    };
    for (const d of devices) {
      const series: HistorySeries[] = [];
      for (const key of this.quantities(d.moduleId, q.quantity))
        series.push(await this.series(d, key, lang, w, q.aggregation, q.maxPoints, tz));
      out.devices.push({ ...this.ref(d), series });
    }
    return out;
  }

  private async series(
    d: repo.DeviceRow,
    key: string,
    lang: Language,
    w: TimeWindow,
    aggregation: Aggregation,
    maxPoints: number,
    timeZone: string,
  ): Promise<HistorySeries> {
    const info = { ...this.quantityInfo(d.moduleId, key, lang), aggregate: aggregateOf(d.moduleId, key) };
    if (aggregation === 'original') {
      const n = await repo.countRaw(this.ctx.db, d.id, key, w.from, w.to);
      if (n > MODULE_DATA_LIMITS.maxRawReadings)
        throw new AppError(Status.invalid, 'tooManyReadings', { count: n, max: MODULE_DATA_LIMITS.maxRawReadings });
      const { t, v } = await repo.rawSeries(this.ctx.db, d.id, key, w.from, w.to);
      const der = derive(v);
      const idx = lttbIndices(t, v, maxPoints);
      const points: HistoryPoint[] = idx.map((i) => ({ ts: iso(t[i]!), value: v[i]!, ...der[i]! }));
      return { quantity: key, ...info, total: t.length, downsampled: idx.length < t.length, points };
    }
    const b = await repo.bucketSeries(this.ctx.db, aggregation, d.id, key, w.from, w.to, timeZone);
    // An accumulated quantity (rainfall) is charted by its bucket sums, anything else by bucket averages.
    const shown = info.aggregate === 'sum' ? b.total : b.avg;
    const idx = lttbIndices(b.t, shown, maxPoints);
    // Values, rate, acceleration and variation of the picked buckets only (rates from their neighbours).
    const cleaned = new Float64Array(b.length).fill(NaN);
    const value = (k: number): number => {
      let x = cleaned[k]!;
      if (Number.isNaN(x)) cleaned[k] = x = clean(shown[k]!);
      return x;
    };
    // One literal per point (no spread of the derived object): thousands of points per answer.
    const points: HistoryPoint[] = idx.map((i) => {
      const d = derivedAt(value, i);
      return {
        ts: iso(b.t[i]!),
        value: value(i),
        min: b.min[i]!,
        max: b.max[i]!,
        count: b.n[i]!,
        sum: clean(b.total[i]!),
        rate: d.rate,
        acceleration: d.acceleration,
        variation: d.variation,
      };
    });
    return { quantity: key, ...info, total: b.length, downsampled: idx.length < b.length, points };
  }

  private statsOf(
    a: repo.Agg | undefined,
    key: string,
    info: { label: string; unit: string; aggregate: 'sum' | 'avg' },
  ): QuantityStats {
    if (!a || a.n === 0)
      return {
        quantity: key,
        ...info,
        count: 0,
        sum: null,
        max: null,
        maxTs: null,
        min: null,
        minTs: null,
        avg: null,
        first: null,
        firstTs: null,
        last: null,
        lastTs: null,
        change: null,
      };
    return {
      quantity: key,
      ...info,
      count: a.n,
      sum: clean(a.total),
      max: a.max,
      maxTs: iso(a.maxTs),
      min: a.min,
      minTs: iso(a.minTs),
      avg: clean(a.total / a.n),
      first: a.first,
      firstTs: iso(a.firstTs),
      last: a.last,
      lastTs: iso(a.lastTs),
      change: clean(a.last - a.first),
    };
  }

  async maxMinAvg(
    user: SessionUser,
    lang: Language,
    q: RangeInput & { deviceId: number; quantity?: string | undefined },
  ): Promise<MaxMinAvgData> {
    const tz = await this.zone(user, q.timeZone);
    const w = this.window(q, tz);
    const d = await this.device(user, q.deviceId);
    const keys = this.quantities(d.moduleId, q.quantity);
    const stats = await repo.statsOver(this.ctx.db, [d.id], keys, w.from, w.to);
    const per = stats.get(d.id);
    return {
      ...this.ref(d),
      from: iso(w.from),
      to: iso(w.to),
      timeZone: tz,
      stats: keys.map((k) =>
        this.statsOf(per?.get(k), k, {
          ...this.quantityInfo(d.moduleId, k, lang),
          aggregate: aggregateOf(d.moduleId, k),
        }),
      ),
    };
  }

  async clinometerAvg(
    user: SessionUser,
    q: RangeInput & { platformId?: number | undefined; deviceId?: number | undefined },
  ): Promise<ClinometerAvg[]> {
    const w = this.window(q, await this.zone(user, q.timeZone));
    const list = await this.devicesOf(user, {
      platformId: q.platformId,
      deviceId: q.deviceId,
      moduleIds: [TILT_MODULE_ID],
    });
    const stats = await repo.statsOver(
      this.ctx.db,
      list.map((d) => d.id),
      ['tiltX', 'tiltY'],
      w.from,
      w.to,
    );
    return list.map((d) => {
      const x = stats.get(d.id)?.get('tiltX');
      const y = stats.get(d.id)?.get('tiltY');
      const tiltX = x && x.n ? clean(x.total / x.n) : null;
      const tiltY = y && y.n ? clean(y.total / y.n) : null;
      const res = tiltX !== null && tiltY !== null ? tiltResultant(tiltX, tiltY) : null;
      return {
        ...this.ref(d),
        count: Math.max(x?.n ?? 0, y?.n ?? 0),
        tiltX,
        tiltY,
        resultant: res?.resultant ?? null,
        azimuth: res?.azimuth ?? null,
      };
    });
  }

  // ---------------------------------------------------------------------------------- data processing

  async smoothPreview(
    user: SessionUser,
    q: RangeInput & { deviceId: number; quantity: string; method: SmoothMethod; window: number },
  ): Promise<SmoothPreview> {
    const w = this.window(q, await this.zone(user, q.timeZone));
    const d = await this.device(user, q.deviceId);
    this.quantities(d.moduleId, q.quantity);
    const n = await repo.countRaw(this.ctx.db, d.id, q.quantity, w.from, w.to);
    if (n > MODULE_DATA_LIMITS.maxSmoothReadings)
      throw new AppError(Status.invalid, 'tooManyReadings', { count: n, max: MODULE_DATA_LIMITS.maxSmoothReadings });
    const { t, v } = await repo.rawSeries(this.ctx.db, d.id, q.quantity, w.from, w.to);
    const s = smooth(v, q.method, q.window);
    return {
      deviceId: d.id,
      quantity: q.quantity,
      method: q.method,
      window: q.window,
      from: iso(w.from),
      to: iso(w.to),
      points: t.map((x, i) => ({ ts: iso(x), original: v[i]!, smoothed: s[i]! })),
    };
  }

  async smoothApply(
    user: SessionUser,
    q: {
      deviceId: number;
      quantity: string;
      startTime: string | number;
      endTime: string | number;
      timeZone?: string | undefined;
      method: SmoothMethod;
      window: number;
    },
  ): Promise<SmoothResult> {
    const tz = await this.zone(user, q.timeZone);
    const w = this.window({ range: 'custom', startTime: q.startTime, endTime: q.endTime }, tz);
    const d = await this.device(user, q.deviceId);
    this.quantities(d.moduleId, q.quantity);
    const changed = await repo.inTransaction(this.ctx.db, async (tx) => {
      const rows = await repo.readingsForUpdate(tx, d.id, w.from, w.to, q.quantity);
      if (rows.length > MODULE_DATA_LIMITS.maxSmoothReadings)
        throw new AppError(Status.invalid, 'tooManyReadings', {
          count: rows.length,
          max: MODULE_DATA_LIMITS.maxSmoothReadings,
        });
      const s = smooth(
        rows.map((r) => r.vals[q.quantity] as number),
        q.method,
        q.window,
      );
      const edits = rows
        .map((r, i) => ({ ts: r.ts, oldVals: r.vals, newVals: { ...r.vals, [q.quantity]: s[i]! } }))
        .filter((e) => e.newVals[q.quantity] !== e.oldVals[q.quantity]);
      if (edits.length === 0) return 0;
      await repo.logEdits(tx, d.id, 'smooth', user.id, edits);
      await repo.updateReadings(
        tx,
        d.id,
        edits.map((e) => ({ ts: e.ts, vals: e.newVals })),
      );
      await repo.recomputeRollups(
        tx,
        d.id,
        edits.map((e) => e.ts),
      );
      return edits.length;
    });
    if (changed) this.edited([d.id]);
    return { changed, from: iso(w.from), to: iso(w.to) };
  }

  async deleteData(
    user: SessionUser,
    q: {
      deviceId: number;
      startTime?: string | number | undefined;
      endTime?: string | number | undefined;
      timeZone?: string | undefined;
      ts: (string | number)[];
    },
  ): Promise<{ deleted: number }> {
    const tz = await this.zone(user, q.timeZone);
    const d = await this.device(user, q.deviceId);
    const what =
      q.ts.length > 0
        ? { tss: [...new Set(q.ts.map((x) => parseTime(x, tz)!))] }
        : this.window({ range: 'custom', startTime: q.startTime, endTime: q.endTime }, tz);
    const deleted = await repo.inTransaction(this.ctx.db, async (tx) => {
      const gone = await repo.deleteLogged(tx, d.id, user.id, what);
      if (gone.length) await repo.recomputeRollups(tx, d.id, gone);
      return gone.length;
    });
    if (deleted) this.edited([d.id]);
    return { deleted };
  }

  async editGnss(
    user: SessionUser,
    q: {
      deviceId: number;
      ts: string | number;
      dN?: number | undefined;
      dE?: number | undefined;
      dH?: number | undefined;
    },
  ): Promise<EditGnssResult> {
    const d = await this.device(user, q.deviceId, [GNSS_MODULE_ID]);
    const ts = parseTime(q.ts, await this.zone(user, undefined))!;
    const result = await repo.inTransaction(this.ctx.db, async (tx) => {
      const [row] = await repo.readingsAt(tx, d.id, [ts]);
      if (!row) throw new AppError(Status.notFound, 'readingNotFound');
      const values: Record<string, unknown> = { ...row.vals };
      if (q.dN !== undefined) values.dN = q.dN;
      if (q.dE !== undefined) values.dE = q.dE;
      if (q.dH !== undefined) values.dH = q.dH;
      await repo.logEdits(tx, d.id, 'edit', user.id, [{ ts, oldVals: row.vals, newVals: values }]);
      await repo.updateReadings(tx, d.id, [{ ts, vals: values }]);
      await repo.recomputeRollups(tx, d.id, [ts]);
      const nums: Record<string, number> = {};
      for (const [k, v] of Object.entries(values)) if (num(v) !== null) nums[k] = v as number;
      return { ts: iso(ts), values: nums };
    });
    this.edited([d.id]);
    return result;
  }

  // --------------------------------------------------------------------------------------------- rain

  async rainLatest(
    user: SessionUser,
    q: { platformId?: number | undefined; deviceId?: number | undefined; timeZone?: string | undefined },
  ): Promise<RainLatest[]> {
    // The windows are relative to now; a timeZone given is only checked.
    if (q.timeZone) await this.zone(user, q.timeZone);
    const list = await this.devicesOf(user, {
      platformId: q.platformId,
      deviceId: q.deviceId,
      moduleIds: [RAIN_MODULE_ID],
    });
    const ids = list.map((d) => d.id);
    const now = Date.now();
    const sums = new Map<number, Map<number, number>>();
    for (const h of RAIN_WINDOWS_HOURS)
      sums.set(h, await repo.sumOver(this.ctx.db, ids, 'rainfall', now - h * 3_600_000, now));
    return list.map((d) => ({
      ...this.ref(d),
      lastReadingAt: isoOrNull(d.lastReadingAt),
      windows: RAIN_WINDOWS_HOURS.map((h) => ({ hours: h, rainfall: clean(sums.get(h)!.get(d.id) ?? 0) })),
    }));
  }

  // --------------------------------------------------------------------------------------------- GNSS

  async gnssRealTime(
    user: SessionUser,
    q: { platformId?: number | undefined; deviceId?: number | undefined },
  ): Promise<GnssRealTime[]> {
    const list = await this.devicesOf(user, { ...q, moduleIds: [GNSS_MODULE_ID] });
    const now = Date.now();
    return list.map((d) => {
      const v = d.lastValues;
      const dN = num(v.dN);
      const dE = num(v.dE);
      const dH = num(v.dH);
      return {
        ...this.ref(d),
        state: d.state as DeviceState,
        online: this.online(d, now),
        ts: isoOrNull(d.lastReadingAt),
        dN,
        dE,
        dH,
        d2D: dN !== null && dE !== null ? clean(Math.hypot(dN, dE)) : null,
        d3D: dN !== null && dE !== null && dH !== null ? clean(Math.hypot(dN, dE, dH)) : null,
        sats: num(v.sats),
        pdop: num(v.pdop),
        fix: num(v.fix),
      };
    });
  }

  private satelliteOf(d: repo.DeviceRow): SatelliteInfo {
    const fix = num(d.lastValues.fix);
    return {
      ...this.ref(d),
      ts: isoOrNull(d.lastReadingAt),
      sats: num(d.lastValues.sats),
      pdop: num(d.lastValues.pdop),
      fix,
      fixLabel: fix === null ? null : fix >= 1 ? 'fixed' : 'float',
    };
  }

  async satelliteInfo(
    user: SessionUser,
    q: { platformId?: number | undefined; deviceId?: number | undefined },
  ): Promise<SatelliteInfo[]> {
    const list = await this.devicesOf(user, { ...q, moduleIds: [GNSS_MODULE_ID] });
    return list.map((d) => this.satelliteOf(d));
  }

  /** Newest quality plus the 24 hourly buckets up to now (the current hour included). */
  async ionosphereLatest(
    user: SessionUser,
    q: { platformId?: number | undefined; deviceId?: number | undefined },
  ): Promise<IonosphereLatest[]> {
    const list = await this.devicesOf(user, { ...q, moduleIds: [GNSS_MODULE_ID] });
    const now = Date.now();
    const from = repo.truncUtc(now, 'hour') - 23 * 3_600_000;
    const totals = await repo.hourlyTotals(
      this.ctx.db,
      list.map((d) => d.id),
      GNSS_QUALITY,
      from,
      now + 3_600_000,
    );
    const get = (id: number, k: string) => totals.find((x) => x.deviceId === id && x.quantity === k);
    const avg = (x: { n: number; total: number } | undefined) => (x && x.n ? clean(x.total / x.n) : null);
    return list.map((d) => ({
      ...this.satelliteOf(d),
      fixedRatio24h: avg(get(d.id, 'fix')),
      avgPdop24h: avg(get(d.id, 'pdop')),
      avgSats24h: avg(get(d.id, 'sats')),
      readings24h: Math.max(0, ...GNSS_QUALITY.map((k) => get(d.id, k)?.n ?? 0)),
    }));
  }

  async ionosphereHistory(
    user: SessionUser,
    lang: Language,
    q: RangeInput & { deviceId: number; aggregation: Aggregation; maxPoints: number },
  ): Promise<HistoricalData> {
    const tz = await this.zone(user, q.timeZone);
    const w = this.window(q, tz);
    const d = await this.device(user, q.deviceId, [GNSS_MODULE_ID]);
    const series: HistorySeries[] = [];
    for (const key of GNSS_QUALITY) series.push(await this.series(d, key, lang, w, q.aggregation, q.maxPoints, tz));
    return {
      from: iso(w.from),
      to: iso(w.to),
      aggregation: q.aggregation,
      timeZone: tz,
      devices: [{ ...this.ref(d), series }],
    };
  }

  // ------------------------------------------------------------------------------------------ reports

  async moduleReport(
    user: SessionUser,
    lang: Language,
    q: {
      platformId: number;
      moduleId: number;
      deviceName?: string | undefined;
      startTime: string | number;
      endTime: string | number;
      timeZone?: string | undefined;
      statisticsType: StatisticsType;
      template: ReportTemplate;
    },
  ): Promise<ModuleReport> {
    const tz = await this.zone(user, q.timeZone);
    const p = await this.platform(user, q.platformId);
    if (!isMonitorTypeId(q.moduleId)) throw new AppError(Status.notFound, 'monitorTypeNotFound');
    const start = parseTime(q.startTime, tz)!;
    let end = parseTime(q.endTime, tz)!;
    if (isDateOnly(q.endTime)) end = nextBucket(end, 'day', tz);
    // Whole local days.
    const from = bucketStart(start, 'day', tz);
    const endDay = bucketStart(end, 'day', tz);
    const to = endDay === end ? end : nextBucket(endDay, 'day', tz);
    if (to <= from) throw new AppError(Status.invalid, 'badTimeRange');
    const maxDays = MODULE_REPORT_MAX_DAYS[q.statisticsType];
    if (to - from > maxDays * 86_400_000) throw new AppError(Status.invalid, 'reportPeriodTooLong', { max: maxDays });
    const needle = q.deviceName?.toLowerCase();
    const all = await repo.findDevices(this.ctx.db, user.scope, { platformId: p.id, moduleIds: [q.moduleId] });
    // deviceName: the device of that name, else the devices whose name contains it.
    const exact = needle ? all.filter((d) => d.name.toLowerCase() === needle) : [];
    const list = exact.length ? exact : all.filter((d) => !needle || d.name.toLowerCase().includes(needle));
    const keys = this.quantities(q.moduleId, undefined);
    const rows = await repo.periodRows(
      this.ctx.db,
      q.statisticsType,
      list.map((d) => d.id),
      keys,
      from,
      to,
      tz,
    );
    const devices: ModuleReportDevice[] = list.map((d) => {
      const mine = rows.filter((r) => r.deviceId === d.id);
      const byPeriod = new Map<number, ReportRow>();
      for (const r of mine) {
        let row = byPeriod.get(r.t);
        if (!row)
          byPeriod.set(
            r.t,
            (row = { period: iso(r.t), label: periodLabel(iso(r.t), q.statisticsType, tz), values: {} }),
          );
        row.values[r.quantity] = cell(r);
      }
      const summary: Record<string, ReportCell> = {};
      for (const k of keys) {
        const qs = mine.filter((r) => r.quantity === k);
        if (qs.length === 0) continue;
        summary[k] = cell({
          n: qs.reduce((s, r) => s + r.n, 0),
          total: qs.reduce((s, r) => s + r.total, 0),
          min: Math.min(...qs.map((r) => r.min)),
          max: Math.max(...qs.map((r) => r.max)),
          first: qs[0]!.first,
          last: qs[qs.length - 1]!.last,
        });
      }
      return { ...this.ref(d), rows: [...byPeriod.values()].sort((a, b) => a.period.localeCompare(b.period)), summary };
    });
    const report: Omit<ModuleReport, 'document'> = {
      platformId: p.id,
      platformName: p.name,
      moduleId: q.moduleId,
      moduleName: monitorTypeLabel(q.moduleId, lang),
      statisticsType: q.statisticsType,
      template: q.template,
      // A report of accumulated quantities only (rainfall) shows their total where others show the average.
      columns: REPORT_TEMPLATE_COLUMNS[q.template].map((c) =>
        c === 'avg' && keys.length > 0 && keys.every((k) => aggregateOf(q.moduleId, k) === 'sum') ? 'sum' : c,
      ),
      from: iso(from),
      to: iso(to),
      timeZone: tz,
      quantities: keys.map((k) => ({
        key: k,
        ...this.quantityInfo(q.moduleId, k, lang),
        aggregate: aggregateOf(q.moduleId, k),
      })),
      devices,
    };
    const extras = await this.reportExtras(report.template, list, keys, from, to);
    const code = monitorTypeOf(q.moduleId)?.code ?? 'module';
    const fileName = `report-${p.id}-${code}-${periodLabel(iso(from), 'day', tz)}-${q.statisticsType}-${q.template}`;
    return { ...report, document: moduleReportDocument(report as ModuleReport, lang, fileName, extras) };
  }

  /** What the report's template reads beyond the period statistics (moduleData.report.ts). */
  private async reportExtras(
    template: ReportTemplate,
    list: readonly repo.DeviceRow[],
    keys: readonly string[],
    from: number,
    to: number,
  ): Promise<ModuleReportExtras> {
    const need = extrasNeeded(template);
    const ids = list.map((d) => d.id);
    const db = this.ctx.db;
    const [bases, ext, alerts] = await Promise.all([
      need.bases ? reportData.baseValues(db, ids, keys, from) : undefined,
      need.extremes ? reportData.extremes(db, ids, keys, from, to) : undefined,
      need.alerts ? reportData.periodAlerts(db, ids, from, to) : undefined,
    ]);
    return {
      ...NO_EXTRAS,
      ...bases,
      ...ext,
      ...(alerts ? { alerts } : {}),
      states: new Map(list.map((d) => [d.id, d.state])),
    };
  }
}

function cell(r: { n: number; total: number; min: number; max: number; first: number; last: number }): ReportCell {
  return {
    max: r.max,
    min: r.min,
    avg: clean(r.total / r.n),
    first: r.first,
    last: r.last,
    change: clean(r.last - r.first),
    count: r.n,
    sum: clean(r.total),
  };
}
