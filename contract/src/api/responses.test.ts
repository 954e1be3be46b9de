import { describe, expect, it } from 'vitest';
import * as contract from '../index.ts';
import type { RouteDef } from './routes.ts';

/** Routes whose answer is a file or an image, not an envelope: they have no response schema. */
const FILE_ROUTES = new Set([
  'alertsRoutes.reportExport',
  'devicesRoutes.export',
  'filesRoutes.download',
  'filesRoutes.getOriginalImage',
  'moduleDataRoutes.getModuleDataReport',
  'vibrationRoutes.getVibrationReportFile',
  'reservoirRoutes.getReportComprehensiveFile',
  'generalReportRoutes.getGeneralReportFile',
  'reportJobRoutes.download',
  'mapsRoutes.tile',
  'mapsRoutes.tianditu',
  'threeDRoutes.modelFile',
  'threeDRoutes.tileFile',
  'panoramasRoutes.image',
  'cameraRoutes.liveFile',
  'cameraRoutes.snapshotFile',
]);

const isRoute = (v: unknown): v is RouteDef =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'permission' in v;

describe('response schemas', () => {
  it('every enveloped route of the contract declares the shape of its data', () => {
    const missing: string[] = [];
    let routes = 0;
    for (const [table, value] of Object.entries(contract)) {
      if (!table.endsWith('Routes') || typeof value !== 'object' || value === null) continue;
      for (const [name, route] of Object.entries(value)) {
        if (!isRoute(route)) continue;
        routes++;
        const id = `${table}.${name}`;
        if (!route.response && !FILE_ROUTES.has(id)) missing.push(`${id} (${route.method} ${route.path})`);
        if (route.response && FILE_ROUTES.has(id)) missing.push(`${id} is listed as a file route but has a schema`);
      }
    }
    expect(routes).toBeGreaterThan(200);
    expect(missing).toEqual([]);
  });
});
