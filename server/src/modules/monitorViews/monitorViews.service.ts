import {
  DEVICE_STATES,
  KPA_PER_METRE_WATER,
  PIEZOMETER_MODULE_ID,
  SEEPAGE_PRESSURE_MODULE_ID,
  Status,
  perm,
  volumeAt,
  type DevicePosition,
  type Language,
  type PhreaticPoint,
  type PlatformType,
  type ReservoirSectionView,
  type SiteOverview,
  type StateCounts,
  type ViewSite,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { mayCall, type SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { RegionsService, regionName } from '../regions/index.ts';
import { findPlatform } from '../platforms/index.ts';
import { capacityRows, findSection } from '../sections/index.ts';
import * as repo from './monitorViews.repository.ts';

/** Reservoir water level devices, most specific first: reservoir water level, then water level. */
const RESERVOIR_LEVEL_MODULES = [11, 3];

export interface PositionInput {
  deviceId: number;
  sketchX?: number | undefined;
  sketchY?: number | undefined;
  lon?: number | undefined;
  lat?: number | undefined;
  clear?: 'sketch' | 'map' | undefined;
}

export class MonitorViewsService {
  private readonly regions: RegionsService;
  constructor(private readonly ctx: AppContext) {
    this.regions = new RegionsService(ctx);
  }

  private async mustSite(user: SessionUser, platformId: number): Promise<void> {
    if (!(await findPlatform(this.ctx.db, user.scope, platformId))) {
      throw new AppError(Status.notFound, 'platformNotFound');
    }
  }

  sites(user: SessionUser, type: PlatformType | undefined): Promise<ViewSite[]> {
    return repo.sitesInScope(this.ctx.db, user.scope, type);
  }

  async overview(user: SessionUser, platformId: number, lang: Language): Promise<SiteOverview> {
    const db = this.ctx.db;
    const p = await repo.siteHeader(db, user.scope, platformId);
    if (!p) throw new AppError(Status.notFound, 'platformNotFound');
    const [devices, terminals, bound, sections, index] = await Promise.all([
      repo.devicesOfSite(db, platformId),
      repo.terminalsOfSite(db, platformId),
      repo.boundModuleIds(db, platformId),
      repo.sectionsWithDevices(db, platformId),
      this.regions.index(),
    ]);
    const stateCounts = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as StateCounts;
    for (const d of devices) stateCounts[d.state] += 1;
    const moduleIds = [...new Set([...bound, ...devices.map((d) => d.moduleId)])].sort((a, b) => a - b);
    return {
      platformId: p.id,
      type: p.type as PlatformType,
      name: p.name,
      description: p.description,
      manager: p.manager,
      regionNames: index.path(p.region_code).map((r) => regionName(r, lang)),
      lon: p.lon,
      lat: p.lat,
      pictures: p.pictures ?? [],
      moduleIds,
      stateCounts,
      devices: devices.map(({ initialLevel: _, ...d }) => d),
      terminals: terminals.map((t) => {
        const own = devices.filter((d) => d.terminalId === t.terminalId);
        const seen = own.map((d) => d.lastSeenAt).filter((s): s is string => s !== null);
        return {
          ...t,
          online: own.some((d) => d.state !== 'offline'),
          lastSeenAt: seen.length > 0 ? seen.reduce((a, b) => (a > b ? a : b)) : null,
          deviceIds: own.map((d) => d.deviceId),
        };
      }),
      sections,
    };
  }

  async positions(user: SessionUser, platformId: number): Promise<DevicePosition[]> {
    await this.mustSite(user, platformId);
    return repo.positionsOfSite(this.ctx.db, platformId);
  }

  /**
   * Places a device of a site in the caller's scope. The schematic needs monitor:sketchMap, the map
   * monitor:moduleMap; each position comes as a pair.
   */
  async updatePosition(user: SessionUser, b: PositionInput): Promise<void> {
    const hasSketch = b.sketchX !== undefined || b.sketchY !== undefined;
    const hasMap = b.lon !== undefined || b.lat !== undefined;
    if (b.clear && (hasSketch || hasMap)) throw new AppError(Status.invalid, 'positionClearAlone');
    if (!b.clear && !hasSketch && !hasMap) throw new AppError(Status.invalid, 'positionMissing');
    if (hasSketch && (b.sketchX === undefined || b.sketchY === undefined)) {
      throw new AppError(Status.invalid, 'positionSketchPair');
    }
    if (hasMap && (b.lon === undefined || b.lat === undefined)) throw new AppError(Status.invalid, 'positionMapPair');
    const sketch = hasSketch || b.clear === 'sketch';
    const map = hasMap || b.clear === 'map';
    if (sketch && !mayCall(user, perm('monitor:sketchMap'))) throw new AppError(Status.noPermission, 'noPermission');
    if (map && !mayCall(user, perm('monitor:moduleMap'))) throw new AppError(Status.noPermission, 'noPermission');
    if ((await repo.findDeviceSite(this.ctx.db, user.scope, b.deviceId)) === undefined) {
      throw new AppError(Status.notFound, 'deviceNotFound');
    }
    const patch: repo.PositionPatch = {};
    if (sketch) patch.sketch = hasSketch ? { x: b.sketchX!, y: b.sketchY! } : null;
    if (map) patch.map = hasMap ? { lon: b.lon!, lat: b.lat! } : null;
    await repo.savePosition(this.ctx.db, b.deviceId, patch);
  }

  async reservoirSection(user: SessionUser, platformId: number, segmentId: number): Promise<ReservoirSectionView> {
    const db = this.ctx.db;
    await this.mustSite(user, platformId);
    const s = await findSection(db, user.scope, segmentId);
    if (!s || s.platformId !== platformId) throw new AppError(Status.notFound, 'sectionNotFound');
    const [own, site, heart, devices] = await Promise.all([
      capacityRows(db, platformId, segmentId),
      capacityRows(db, platformId, null),
      repo.heartWallDevices(db, segmentId),
      repo.devicesOfSite(db, platformId),
    ]);
    const capacity = own.length > 0 ? own : site;
    const capacityOf = own.length > 0 ? 'section' : site.length > 0 ? 'site' : null;

    let waterLevel: ReservoirSectionView['waterLevel'] = {
      value: null,
      from: null,
      deviceId: null,
      deviceName: null,
      ts: null,
    };
    if (s.waterLevelSource === 'manual') {
      waterLevel = { value: s.manualWaterLevel, from: 'manual', deviceId: null, deviceName: null, ts: null };
    } else {
      const reads = (d: repo.DeviceWithLevel) => typeof d.lastValues.waterLevel === 'number';
      const candidates = [
        ...heart.filter((d) => RESERVOIR_LEVEL_MODULES.includes(d.moduleId)),
        ...RESERVOIR_LEVEL_MODULES.flatMap((m) => devices.filter((d) => d.moduleId === m)),
      ];
      const d = candidates.find(reads) ?? candidates[0];
      if (d) {
        waterLevel = {
          value: d.lastValues.waterLevel ?? null,
          from: 'device',
          deviceId: d.deviceId,
          deviceName: d.deviceName,
          ts: d.lastReadingAt,
        };
      }
    }

    const phreatic: PhreaticPoint[] = heart
      .filter((d) => d.moduleId === PIEZOMETER_MODULE_ID || d.moduleId === SEEPAGE_PRESSURE_MODULE_ID)
      .map((d) => {
        const raw = (d.moduleId === PIEZOMETER_MODULE_ID ? d.lastValues.waterLevel : d.lastValues.pressure) ?? null;
        const base = d.initialLevel ?? s.bottomElevation;
        const level =
          d.moduleId === PIEZOMETER_MODULE_ID
            ? raw
            : raw !== null && base !== null
              ? base + raw / KPA_PER_METRE_WATER
              : null;
        return {
          deviceId: d.deviceId,
          deviceName: d.deviceName,
          moduleId: d.moduleId,
          state: d.state,
          level,
          raw,
          ts: d.lastReadingAt,
        };
      });

    return {
      segmentId: s.segmentId,
      platformId: s.platformId,
      name: s.name,
      info: s.info,
      bottomElevation: s.bottomElevation,
      upstreamCoords: s.upstreamCoords,
      waterLevelSource: s.waterLevelSource,
      capacity,
      capacityOf,
      waterLevel,
      volume: waterLevel.value === null ? null : volumeAt(capacity, waterLevel.value),
      phreatic,
    };
  }
}
