import {
  ALARM_CURVES_MAX,
  ALARM_CURVES_MINUTES,
  DEVICE_STATES,
  HOME_ALERT_DAYS,
  HOME_LATEST_ALERTS,
  PLATFORM_TYPES,
  RAIN_RANKING_HOURS,
  RAIN_RANKING_ROWS,
  SITE_STATES,
  Status,
  bucketStart,
  compassOf,
  periodLabel,
  quantitiesOf,
  siteStateOf,
  type AlertKind,
  type AlertLevel,
  type AlertStatus,
  type BigScreenData,
  type DashboardAlert,
  type DashboardSite,
  type DeviceAndData,
  type DeviceState,
  type HomeData,
  type PlatformType,
  type SiteState,
  type Weather,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { DataScope, SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import { sumOver } from '../moduleData/index.ts';
import * as repo from './dashboard.repository.ts';

type Levels = Record<'1' | '2' | '3' | '4', number>;
const levels = (): Levels => ({ 1: 0, 2: 0, 3: 0, 4: 0 });
const deviceCounts = (): Record<DeviceState, number> =>
  Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as Record<DeviceState, number>;
const siteCounts = (): Record<SiteState, number> =>
  Object.fromEntries(SITE_STATES.map((s) => [s, 0])) as Record<SiteState, number>;
const round1 = (x: number): number => Math.round(x * 10) / 10;
const RAIN_MODULE_ID = 2;
const WEATHER_MODULE_ID = 8;
const HOUR = 3_600_000;

interface Scoped {
  scope: DataScope;
  sites: repo.SiteRecord[];
  open: Awaited<ReturnType<typeof repo.openAlerts>>;
}

/**
 * Home and the big screen: what is wrong and where, in the caller's scope (spec §2, §4). A site's state follows
 * from its devices (siteStateOf); a device is online when seen within its offline hours (moduleData's isOnline).
 * Every count equals the list it links to: open alerts of level N = the alert list with level=N&status=open;
 * devices of a state = the device list with state=S&bound=true; sites of a kind = that kind's site list with the
 * same regionCode.
 */
export class DashboardService {
  constructor(private readonly ctx: AppContext) {}

  /** The caller's scope, narrowed to a region's subtree when one is given. */
  private async scope(user: SessionUser, regionCode: string | undefined): Promise<DataScope> {
    return regionCode ? repo.regionScope(this.ctx.db, user.scope, regionCode) : user.scope;
  }

  private presentSites(sites: repo.SiteRecord[], open: Scoped['open']): DashboardSite[] {
    const bySite = new Map<number, Levels>();
    for (const o of open) {
      let l = bySite.get(o.platformId);
      if (!l) bySite.set(o.platformId, (l = levels()));
      l[String(o.level) as '1'] += o.n;
    }
    return sites.map((s) => {
      const devices = { normal: s.normal, alert: s.alert, alarm: s.alarm, abnormal: s.abnormal, offline: s.offline };
      return {
        platformId: s.id,
        name: s.name,
        type: s.type as PlatformType,
        regionCode: s.regionCode,
        lon: s.lon,
        lat: s.lat,
        state: siteStateOf(devices),
        devices,
        open: bySite.get(s.id) ?? levels(),
      };
    });
  }

  private deviceTotals(sites: repo.SiteRecord[]) {
    const byState = deviceCounts();
    let online = 0;
    for (const s of sites) {
      for (const k of DEVICE_STATES) byState[k] += s[k];
      online += s.online;
    }
    const total = DEVICE_STATES.reduce((a, k) => a + byState[k], 0);
    return { total, online, offline: total - online, byState };
  }

  private openTotals(open: Scoped['open']) {
    const out = { open: levels(), openTotal: 0, untreated: 0, preProcess: 0 };
    for (const o of open) {
      out.open[String(o.level) as '1'] += o.n;
      out.openTotal += o.n;
      if (o.status === 'untreated') out.untreated += o.n;
      else out.preProcess += o.n;
    }
    return out;
  }

  private presentAlert(a: repo.DashboardAlertRecord): DashboardAlert {
    return {
      ...a,
      kind: a.kind as AlertKind,
      level: a.level as AlertLevel,
      status: a.status as AlertStatus,
    };
  }

  async home(
    user: SessionUser,
    q: { regionCode?: string | undefined; timeZone?: string | undefined },
    now = new Date(),
  ) {
    const db = this.ctx.db;
    const [tz, scope] = await Promise.all([
      requestTimeZone(this.ctx, user.id, q.timeZone),
      this.scope(user, q.regionCode),
    ]);
    // The HOME_ALERT_DAYS local days ending today.
    const starts = [bucketStart(now.getTime(), 'day', tz)];
    while (starts.length < HOME_ALERT_DAYS) starts.unshift(bucketStart(starts[0]! - 1, 'day', tz));
    const [{ sites, byModule: classes }, open, raised, latest] = await Promise.all([
      repo.sitesAndDevices(db, scope, this.ctx.config.defaultOfflineHours),
      repo.openAlerts(db, scope),
      repo.raisedByDay(db, scope, new Date(starts[0]!), tz),
      repo.latestAlerts(db, scope, HOME_LATEST_ALERTS),
    ]);
    const map = this.presentSites(sites, open);

    const siteStates = siteCounts();
    const byType = new Map<string, HomeData['sites']['byType'][number]>(
      PLATFORM_TYPES.map((type) => [type, { type, total: 0, byState: siteCounts() }]),
    );
    for (const s of map) {
      siteStates[s.state]++;
      const t = byType.get(s.type);
      if (t) {
        t.total++;
        t.byState[s.state]++;
      }
    }

    const days = new Map<string, HomeData['alertDays'][number]>(
      starts.map((st) => {
        const day = periodLabel(new Date(st).toISOString(), 'day', tz);
        return [day, { day, total: 0, levels: levels() }];
      }),
    );
    const types = new Map<number | null, HomeData['alertTypes'][number]>();
    for (const r of raised) {
      const d = days.get(r.day);
      // A row of a day before the first (none: `since` is its start) or after today (a clock ahead) is left out.
      if (!d) continue;
      d.total += r.n;
      d.levels[String(r.level) as '1'] += r.n;
      let t = types.get(r.moduleId);
      if (!t) types.set(r.moduleId, (t = { moduleId: r.moduleId, total: 0, levels: levels() }));
      t.total += r.n;
      t.levels[String(r.level) as '1'] += r.n;
    }

    const classification = new Map<number, HomeData['classification'][number]>();
    for (const c of classes) {
      let row = classification.get(c.moduleId);
      if (!row) classification.set(c.moduleId, (row = { moduleId: c.moduleId, total: 0, byState: deviceCounts() }));
      row.total += c.n;
      if (c.state in row.byState) row.byState[c.state as DeviceState] += c.n;
    }

    const out: HomeData = {
      timeZone: tz,
      at: now.toISOString(),
      sites: { total: map.length, byState: siteStates, byType: [...byType.values()] },
      devices: this.deviceTotals(sites),
      alerts: this.openTotals(open),
      alertDays: [...days.values()],
      alertTypes: [...types.values()].sort(
        (a, b) => b.total - a.total || (a.moduleId ?? Infinity) - (b.moduleId ?? Infinity),
      ),
      classification: [...classification.values()].sort((a, b) => a.moduleId - b.moduleId),
      map,
      latestAlerts: latest.map((a) => this.presentAlert(a)),
    };
    return out;
  }

  async bigScreen(user: SessionUser, q: { regionCode?: string | undefined; timeZone?: string | undefined }) {
    const db = this.ctx.db;
    if (q.timeZone) await requestTimeZone(this.ctx, user.id, q.timeZone); // checked; the windows are relative to now
    const scope = await this.scope(user, q.regionCode);
    const nowMs = Date.now();
    const [{ sites }, open, latest, gauges, reservoirs, alarms] = await Promise.all([
      repo.sitesAndDevices(db, scope, this.ctx.config.defaultOfflineHours),
      repo.openAlerts(db, scope),
      repo.latestAlerts(db, scope, HOME_LATEST_ALERTS),
      repo.rainGauges(db, scope),
      repo.reservoirs(db, scope),
      repo.alarmDevices(db, scope, ALARM_CURVES_MAX),
    ]);
    const [rain, curves] = await Promise.all([
      sumOver(
        db,
        gauges.map((g) => g.id),
        'rainfall',
        nowMs - RAIN_RANKING_HOURS * HOUR,
        nowMs,
      ),
      repo.recentSeries(
        db,
        alarms.map((a) => ({ deviceId: a.id, quantity: a.quantity, to: a.lastReadingAt ?? nowMs })),
        ALARM_CURVES_MINUTES,
      ),
    ]);
    const devices = this.deviceTotals(sites);
    const out: BigScreenData = {
      at: new Date(nowMs).toISOString(),
      devices,
      onlineRate: devices.total ? round1((devices.online / devices.total) * 100) : 0,
      sites: this.presentSites(sites, open),
      rainRanking: gauges
        .map((g) => ({
          deviceId: g.id,
          deviceName: g.deviceName,
          platformName: g.platformName,
          rain: round1(rain.get(g.id) ?? 0),
        }))
        .sort((a, b) => b.rain - a.rain || a.deviceName.localeCompare(b.deviceName) || a.deviceId - b.deviceId)
        .slice(0, RAIN_RANKING_ROWS),
      reservoirs: reservoirs.map((r) => ({
        platformId: r.id,
        name: r.name,
        level: r.level,
        at: r.at,
        floodLevel: r.floodLevel,
        limitedFloodLevel: r.limitedFloodLevel,
        percentOfFlood:
          r.level !== null && r.floodLevel !== null && r.floodLevel !== 0
            ? round1((r.level / r.floodLevel) * 100)
            : null,
      })),
      open: this.openTotals(open).open,
      latestAlerts: latest.map((a) => this.presentAlert(a)),
      alarmCurves: alarms.map((a) => ({
        deviceId: a.id,
        deviceName: a.deviceName,
        platformName: a.platformName,
        quantity: a.quantity,
        unit: quantitiesOf(a.moduleId).find((x) => x.key === a.quantity)?.unit ?? '',
        points: curves.get(a.id) ?? [],
      })),
    };
    return out;
  }

  async deviceAndData(
    user: SessionUser,
    q: { platformId?: number | undefined; regionCode?: string | undefined },
  ): Promise<DeviceAndData[]> {
    const scope = await this.scope(user, q.regionCode);
    const list = await repo.devicesWithData(this.ctx.db, scope, this.ctx.config.defaultOfflineHours, {
      platformId: q.platformId,
    });
    // A site out of scope (or out of the region) answers as a missing one.
    if (list.length === 0 && q.platformId !== undefined && !(await repo.siteOf(this.ctx.db, scope, q.platformId)))
      throw new AppError(Status.notFound, 'platformNotFound');
    return list.map((d) => {
      const values: Record<string, number> = {};
      for (const [k, v] of Object.entries(d.lastValues)) if (typeof v === 'number' && Number.isFinite(v)) values[k] = v;
      return {
        deviceId: d.id,
        deviceName: d.name,
        number: d.number,
        platformId: d.platformId,
        platformName: d.platformName,
        moduleId: d.moduleId,
        state: d.state as DeviceState,
        online: d.online,
        lastReadingAt: d.lastReadingAt,
        values,
        units: Object.fromEntries(quantitiesOf(d.moduleId).map((x) => [x.key, x.unit])),
      };
    });
  }

  /**
   * A site's weather from its own sensors: temperature, humidity and wind from its newest reporting type-8 device
   * (temperature and humidity, weather stations with wind), rain of the last hour and 24 hours from its newest
   * reporting rain gauge. With WEATHER_URL set, `providerUrl` is it with the site's {lat} and {lon}.
   */
  async weather(user: SessionUser, q: { platformId?: number | undefined }): Promise<Weather> {
    const db = this.ctx.db;
    const site = await repo.siteOf(db, user.scope, q.platformId);
    if (!site) {
      if (q.platformId !== undefined) throw new AppError(Status.notFound, 'platformNotFound');
      return {
        platformId: null,
        platformName: null,
        at: null,
        temperature: null,
        humidity: null,
        rain1h: null,
        rain24h: null,
        windSpeed: null,
        windDirection: null,
        windCompass: null,
        providerUrl: null,
      };
    }
    const devices = await repo.devicesWithData(db, user.scope, this.ctx.config.defaultOfflineHours, {
      platformId: site.id,
      moduleIds: [WEATHER_MODULE_ID, RAIN_MODULE_ID],
    });
    const newest = (list: repo.DeviceDataRecord[]) =>
      [...list].sort((a, b) => (b.lastReadingAt ?? '').localeCompare(a.lastReadingAt ?? '') || a.id - b.id)[0];
    const num = (d: repo.DeviceDataRecord | undefined, k: string): number | null => {
      const v = d?.lastValues[k];
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    };
    const station = newest(devices.filter((d) => d.moduleId === WEATHER_MODULE_ID && d.lastReadingAt));
    const gauge = newest(devices.filter((d) => d.moduleId === RAIN_MODULE_ID && d.lastReadingAt));
    const now = Date.now();
    let rain1h: number | null = null;
    let rain24h: number | null = null;
    if (gauge) {
      const [h1, h24] = await Promise.all([
        sumOver(db, [gauge.id], 'rainfall', now - HOUR, now),
        sumOver(db, [gauge.id], 'rainfall', now - 24 * HOUR, now),
      ]);
      rain1h = round1(h1.get(gauge.id) ?? 0);
      rain24h = round1(h24.get(gauge.id) ?? 0);
    }
    const windSpeed = num(station, 'windSpeed');
    const windDirection = num(station, 'windDirection');
    const at =
      [station?.lastReadingAt, gauge?.lastReadingAt]
        .filter((x): x is string => !!x)
        .sort()
        .at(-1) ?? null;
    const template = this.ctx.config.weatherUrl;
    return {
      platformId: site.id,
      platformName: site.name,
      at,
      temperature: num(station, 'temperature'),
      humidity: num(station, 'humidity'),
      rain1h,
      rain24h,
      windSpeed,
      windDirection,
      windCompass: windSpeed !== null && windDirection !== null ? compassOf(windDirection, windSpeed) : null,
      providerUrl:
        template && site.lat !== null && site.lon !== null
          ? template.replaceAll('{lat}', String(site.lat)).replaceAll('{lon}', String(site.lon))
          : null,
    };
  }
}
