// The rules of area monitoring (issue 21): polygons checked (in range, not crossing themselves), the devices inside
// decided here (point in polygon on the server), the area's level from its devices by its rule.
import {
  AREA_LIMITS,
  AREA_SORT_FIELDS,
  DEFAULT_AREA_RULE,
  Status,
  areaBody,
  areaLevel,
  areaListQuery,
  openRing,
  pointInRing,
  ringProblem,
  type AreaInfo,
  type AreaRow,
  type AreaRule,
  type ParsedPolygon,
  type Ring,
} from '@geosentry/contract';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { findSite } from '../../platform/auth/sites.ts';
import { AppError, conflict, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import { parseGeoFile, polygonsOf, readUpload } from '../maps/index.ts';
import * as repo from './areas.repository.ts';

type Body = z.output<typeof areaBody>;

/** The devices inside an area (placed devices of its site whose point lies in the polygon). */
export function devicesInside(area: repo.AreaRecord, devices: readonly repo.PlacedDevice[]): repo.PlacedDevice[] {
  const [x0, y0, x1, y1] = area.bbox;
  return devices.filter(
    (d) =>
      d.platformId === area.platformId &&
      d.lat !== null &&
      d.lon !== null &&
      d.lon >= x0 &&
      d.lon <= x1 &&
      d.lat >= y0 &&
      d.lat <= y1 &&
      pointInRing(d.lon, d.lat, area.ring),
  );
}

function checkRing(points: readonly { lat: number; lon: number }[]): Ring {
  const raw = points.map((p) => [p.lon, p.lat] as [number, number]);
  const problem = ringProblem(raw, AREA_LIMITS.maxPoints);
  if (problem === 'outOfRange') throw new AppError(Status.invalid, 'areaOutOfRange');
  if (problem === 'selfCrossing') throw new AppError(Status.invalid, 'areaSelfCrossing');
  if (problem === 'tooFewPoints') throw new AppError(Status.invalid, 'areaTooFewPoints');
  if (problem === 'tooManyPoints')
    throw new AppError(Status.invalid, 'areaTooManyPoints', { max: AREA_LIMITS.maxPoints });
  if (problem === 'noArea') throw new AppError(Status.invalid, 'areaNoArea');
  return openRing(raw);
}

function checkRule(rule: AreaRule | undefined): AreaRule {
  const r = rule ?? DEFAULT_AREA_RULE;
  if (r.steps.some((s) => s.makes <= s.level)) throw new AppError(Status.invalid, 'areaRuleInvalid');
  return r;
}

export class AreasService {
  constructor(private readonly ctx: AppContext) {}
  private get db() {
    return this.ctx.db;
  }

  private summarise(a: repo.AreaRecord, devices: readonly repo.PlacedDevice[]): AreaRow {
    const inside = devicesInside(a, devices);
    return {
      id: a.id,
      name: a.name,
      description: a.description,
      platformId: a.platformId,
      platformName: a.platformName,
      level: areaLevel(
        inside.map((d) => d.level),
        a.rule,
      ),
      devices: inside.length,
      alerting: inside.filter((d) => d.level > 0).length,
      updatedAt: a.updatedAt,
    };
  }

  async list(u: SessionUser, q: z.output<typeof areaListQuery>) {
    const areas = await repo.listAreas(this.db, u.scope, q);
    const devices = await repo.siteDevices(this.db, [...new Set(areas.map((a) => a.platformId))]);
    const rows = areas.map((a) => this.summarise(a, devices));
    const field = (AREA_SORT_FIELDS as readonly string[]).includes(q.sortField ?? '')
      ? (q.sortField as (typeof AREA_SORT_FIELDS)[number])
      : null;
    const key = (r: AreaRow): string | number =>
      field === 'name'
        ? r.name.toLowerCase()
        : field === 'platformName'
          ? r.platformName.toLowerCase()
          : field === 'devices'
            ? r.devices
            : field === 'updatedAt'
              ? r.updatedAt
              : field === 'level'
                ? r.level
                : -r.level;
    const dir = field && q.sortOrder === 'descend' ? -1 : 1;
    rows.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id) * dir;
    });
    const start = (q.pageNum - 1) * q.pageSize;
    return { list: rows.slice(start, start + q.pageSize), total: rows.length };
  }

  async info(u: SessionUser, id: number): Promise<AreaInfo> {
    const a = await repo.findArea(this.db, u.scope, id);
    if (!a) throw notFound();
    const devices = await repo.siteDevices(this.db, [a.platformId]);
    const inside = devicesInside(a, devices);
    return {
      ...this.summarise(a, devices),
      points: a.ring.map(([lon, lat]) => ({ lat, lon })),
      rule: a.rule,
      deviceList: inside.map((d) => ({
        deviceId: d.deviceId,
        deviceName: d.deviceName,
        number: d.number,
        moduleId: d.moduleId,
        lat: d.lat!,
        lon: d.lon!,
        state: d.state,
        level: d.level,
      })),
      alerts: await repo.openAlerts(
        this.db,
        inside.map((d) => d.deviceId),
      ),
      unplaced: devices.filter((d) => d.lat === null || d.lon === null).length,
    };
  }

  private async write(u: SessionUser, b: Body): Promise<repo.AreaWrite> {
    if (!(await findSite(this.db, u.scope, b.platformId))) throw notFound();
    return {
      platformId: b.platformId,
      name: b.name,
      description: b.description ?? null,
      ring: checkRing(b.points),
      rule: checkRule(b.rule),
      userId: u.id,
    };
  }

  async add(u: SessionUser, b: Body): Promise<number> {
    const w = await this.write(u, b);
    try {
      return await repo.insertArea(this.db, w);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('areaNameTaken');
      throw e;
    }
  }

  async edit(u: SessionUser, id: number, b: Body): Promise<void> {
    if (!(await repo.findArea(this.db, u.scope, id))) throw notFound();
    const w = await this.write(u, b);
    try {
      await repo.updateArea(this.db, id, w);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('areaNameTaken');
      throw e;
    }
  }

  async remove(u: SessionUser, id: number): Promise<void> {
    if (!(await repo.findArea(this.db, u.scope, id))) throw notFound();
    await repo.deleteArea(this.db, id);
  }

  /** The polygons of an uploaded KML, KMZ or GeoJSON file, each checked as an area would be. */
  async parseFile(req: FastifyRequest): Promise<ParsedPolygon[]> {
    const up = await readUpload(req, AREA_LIMITS.maxFileBytes);
    const { data } = parseGeoFile(up.fileName ?? '', up.buffer!);
    const polys = polygonsOf(data);
    if (!polys.length) throw new AppError(Status.invalid, 'areaNoPolygon');
    return polys.map((p) => {
      const ring = checkRing(p.ring.map(([lon, lat]) => ({ lat, lon })));
      return { name: p.name, points: ring.map(([lon, lat]) => ({ lat, lon })) };
    });
  }
}
