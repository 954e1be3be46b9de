import {
  MIN_UPSTREAM_COORDS,
  SECTION_PLATFORM_TYPES,
  SECTION_WATER_LEVEL_MODULE_IDS,
  Status,
  monitorTypeLabel,
  type CapacityRow,
  type DeviceState,
  type Language,
  type SegmentModuleDevices,
  type SegmentWaterDevice,
  type HeartWallBinding,
  type RiverWaterElevationRow,
  type SectionRow,
  type UpstreamPoint,
  type WaterLevelSource,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { findPlatform } from '../platforms/index.ts';
import * as repo from './sections.repository.ts';

export class SectionsService {
  constructor(private readonly ctx: AppContext) {}

  private async mustSite(user: SessionUser, platformId: number): Promise<{ id: number; type: string }> {
    const p = await findPlatform(this.ctx.db, user.scope, platformId);
    if (!p) throw new AppError(Status.notFound, 'platformNotFound');
    return p;
  }

  private async mustGet(user: SessionUser, segmentId: number): Promise<SectionRow> {
    const s = await repo.findSection(this.ctx.db, user.scope, segmentId);
    if (!s) throw new AppError(Status.notFound, 'sectionNotFound');
    return s;
  }

  private async unique<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'nameDuplicate');
      throw e;
    }
  }

  async byPlatform(user: SessionUser, platformId: number): Promise<SectionRow[]> {
    await this.mustSite(user, platformId);
    return repo.sectionsOf(this.ctx.db, platformId);
  }

  list(user: SessionUser, f: repo.SectionListFilter): Promise<{ list: SectionRow[]; total: number }> {
    return repo.listSections(this.ctx.db, user.scope, f);
  }

  async add(user: SessionUser, platformId: number, w: repo.SectionWrite): Promise<number> {
    const p = await this.mustSite(user, platformId);
    if (!(SECTION_PLATFORM_TYPES as readonly string[]).includes(p.type))
      throw new AppError(Status.invalid, 'sectionKindNotAllowed');
    return this.unique(() => repo.insertSection(this.ctx.db, platformId, w));
  }

  async edit(user: SessionUser, segmentId: number, w: repo.SectionWrite): Promise<void> {
    await this.mustGet(user, segmentId);
    await this.unique(() => repo.updateSection(this.ctx.db, segmentId, w));
  }

  async remove(user: SessionUser, segmentId: number): Promise<void> {
    await this.mustGet(user, segmentId);
    await repo.deleteSection(this.ctx.db, segmentId);
  }

  async updatePosition(user: SessionUser, segmentId: number, x: number, y: number): Promise<void> {
    await this.mustGet(user, segmentId);
    await repo.setPosition(this.ctx.db, segmentId, { x, y });
  }

  /** Spec §5: at least 3 upstream-face coordinates. */
  async setUpstreamCoords(user: SessionUser, segmentId: number, coords: UpstreamPoint[]): Promise<void> {
    await this.mustGet(user, segmentId);
    if (coords.length < MIN_UPSTREAM_COORDS) throw new AppError(Status.invalid, 'upstreamCoordsTooFew');
    await repo.setUpstreamCoords(this.ctx.db, segmentId, coords);
  }

  /**
   * Spec §5: the upstream coordinates come first; automatic needs a water-level device on the site; a
   * manual level lies between the section's bottom elevation and the highest upstream point (where known).
   */
  async setWaterLevel(
    user: SessionUser,
    segmentId: number,
    source: WaterLevelSource,
    level: number | undefined,
  ): Promise<void> {
    const s = await this.mustGet(user, segmentId);
    if (s.upstreamCoords.length < MIN_UPSTREAM_COORDS) throw new AppError(Status.invalid, 'upstreamCoordsFirst');
    if (source === 'auto') {
      const devices = await repo.deviceCountOfModules(this.ctx.db, s.platformId, SECTION_WATER_LEVEL_MODULE_IDS);
      if (devices === 0) throw new AppError(Status.invalid, 'waterLevelDeviceFirst');
    } else {
      if (level === undefined) throw new AppError(Status.invalid, 'waterLevelRequired');
      if (s.bottomElevation !== null && level < s.bottomElevation) {
        throw new AppError(Status.invalid, 'waterLevelTooLow', { min: s.bottomElevation });
      }
      const tops = s.upstreamCoords.map((p) => p.elevation).filter((e): e is number => typeof e === 'number');
      if (tops.length > 0 && level > Math.max(...tops)) {
        throw new AppError(Status.invalid, 'waterLevelTooHigh', { max: Math.max(...tops) });
      }
    }
    await repo.setWaterLevel(this.ctx.db, segmentId, source, source === 'manual' ? level : undefined);
  }

  /** The site (in scope) and, when given, its section: a section of another site answers like a missing one. */
  private async capacityTarget(
    user: SessionUser,
    platformId: number,
    segmentId: number | undefined,
  ): Promise<number | null> {
    await this.mustSite(user, platformId);
    if (segmentId === undefined) return null;
    const s = await repo.findSection(this.ctx.db, user.scope, segmentId);
    if (!s || s.platformId !== platformId) throw new AppError(Status.notFound, 'sectionNotFound');
    return s.segmentId;
  }

  async capacity(user: SessionUser, platformId: number, segmentId: number | undefined): Promise<CapacityRow[]> {
    const sectionId = await this.capacityTarget(user, platformId, segmentId);
    return repo.capacityRows(this.ctx.db, platformId, sectionId);
  }

  /** The table rises: by row number, each row has a higher level and no smaller volume than the one before. */
  async setCapacity(
    user: SessionUser,
    platformId: number,
    segmentId: number | undefined,
    rows: CapacityRow[],
  ): Promise<void> {
    const sectionId = await this.capacityTarget(user, platformId, segmentId);
    const sorted = [...rows].sort((a, b) => a.index - b.index);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const cur = sorted[i]!;
      if (cur.index === prev.index) throw new AppError(Status.invalid, 'capacityIndexRepeated', { index: cur.index });
      if (cur.waterLevelElevation <= prev.waterLevelElevation || cur.waterVolume < prev.waterVolume) {
        throw new AppError(Status.invalid, 'capacityNotRising', { index: cur.index });
      }
    }
    await repo.replaceCapacityRows(this.ctx.db, platformId, sectionId, sorted);
  }

  async heartWall(user: SessionUser, segmentId: number): Promise<HeartWallBinding[]> {
    await this.mustGet(user, segmentId);
    return repo.heartWallBindings(this.ctx.db, segmentId);
  }

  /** Binds devices of the section's site; if any is not one, nothing is bound. */
  async bindHeartWall(user: SessionUser, segmentId: number, deviceIds: number[]): Promise<void> {
    const s = await this.mustGet(user, segmentId);
    const ids = [...new Set(deviceIds)];
    const onSite = await repo.devicesOnSite(this.ctx.db, s.platformId, ids);
    const stranger = ids.find((id) => !onSite.has(id));
    if (stranger !== undefined) throw new AppError(Status.invalid, 'sectionDeviceNotOnSite', { id: stranger });
    await repo.bindHeartWall(this.ctx.db, segmentId, ids);
  }

  async unbindHeartWall(user: SessionUser, id: number): Promise<void> {
    if (!(await repo.findHeartWallBinding(this.ctx.db, user.scope, id))) {
      throw new AppError(Status.notFound, 'heartWallBindingNotFound');
    }
    await repo.deleteHeartWallBinding(this.ctx.db, id);
  }

  /** The devices of the section's site grouped by monitor type, each with its core-wall binding to the section. */
  async moduleAndDevices(user: SessionUser, segmentId: number, lang: Language): Promise<SegmentModuleDevices[]> {
    const s = await this.mustGet(user, segmentId);
    const groups: SegmentModuleDevices[] = [];
    for (const d of await repo.siteDevicesWithBinding(this.ctx.db, s.platformId, segmentId)) {
      let g = groups.at(-1);
      if (!g || g.moduleId !== d.moduleId) {
        g = { moduleId: d.moduleId, moduleName: monitorTypeLabel(d.moduleId, lang), devices: [] };
        groups.push(g);
      }
      g.devices.push({
        deviceId: d.id,
        deviceName: d.deviceName,
        number: d.number,
        state: d.state as DeviceState,
        heartWallBindingId: d.heartWallBindingId,
      });
    }
    return groups;
  }

  /**
   * Water-level devices of the section's site (segmentId), of a site (platformId), or of every site in scope.
   * A section and a site that do not belong together answer like a missing section.
   */
  async waterDevices(
    user: SessionUser,
    f: repo.WaterDeviceFilter & { segmentId?: number | undefined },
    lang: Language,
  ): Promise<{ list: SegmentWaterDevice[]; total: number }> {
    let platformId = f.platformId;
    if (f.segmentId !== undefined) {
      const s = await this.mustGet(user, f.segmentId);
      if (platformId !== undefined && platformId !== s.platformId) {
        throw new AppError(Status.notFound, 'sectionNotFound');
      }
      platformId = s.platformId;
    } else if (platformId !== undefined) {
      await this.mustSite(user, platformId);
    }
    const page = await repo.listWaterDevices(this.ctx.db, user.scope, SECTION_WATER_LEVEL_MODULE_IDS, {
      ...f,
      platformId,
    });
    const auto = await repo.autoSectionsOf(this.ctx.db, [...new Set(page.list.map((d) => d.platformId))]);
    const walls = await repo.heartWallSectionsOf(
      this.ctx.db,
      page.list.map((d) => d.id),
    );
    const list = page.list.map((d): SegmentWaterDevice => {
      const level = d.lastValues.waterLevel;
      return {
        deviceId: d.id,
        deviceName: d.deviceName,
        number: d.number,
        moduleId: d.moduleId,
        moduleName: monitorTypeLabel(d.moduleId, lang),
        platformId: d.platformId,
        platformName: d.platformName,
        terminalId: d.terminalId,
        terminalName: d.terminalName,
        state: d.state as DeviceState,
        lastReadingAt: d.lastReadingAt,
        lastWaterLevel: typeof level === 'number' ? level : null,
        autoSections: auto
          .filter((a) => a.platformId === d.platformId)
          .map((a) => ({ segmentId: a.segmentId, name: a.name })),
        heartWallSections: walls
          .filter((w) => w.deviceId === d.id)
          .map((w) => ({ segmentId: w.segmentId, name: w.name })),
      };
    });
    return { list, total: page.total };
  }

  riverWater(user: SessionUser, f: repo.RiverWaterFilter): Promise<{ list: RiverWaterElevationRow[]; total: number }> {
    return repo.listWaterLevels(this.ctx.db, user.scope, f);
  }

  async addRiverWater(user: SessionUser, segmentId: number, time: Date, elevation: number): Promise<number> {
    const s = await this.mustGet(user, segmentId);
    if (s.platformType !== 'river') throw new AppError(Status.invalid, 'riverWaterRiverOnly');
    try {
      return await repo.insertRiverWater(this.ctx.db, segmentId, time, elevation, user.id);
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'riverWaterTimeExists');
      throw e;
    }
  }

  async deleteRiverWater(user: SessionUser, id: number): Promise<void> {
    if (!(await repo.findRiverWater(this.ctx.db, user.scope, id)))
      throw new AppError(Status.notFound, 'riverWaterNotFound');
    await repo.deleteRiverWater(this.ctx.db, id);
  }
}
