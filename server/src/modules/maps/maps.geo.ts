// Reading KML, KMZ and GeoJSON files into one GeoJSON FeatureCollection (WGS-84) with each feature's name and
// style (issue 21). Nothing here trusts the file: XML errors, zip bombs, missing or out-of-range coordinates and
// oversized files are refused with a translated message before anything is saved.
import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';
import { MAP_LIMITS, Status, type LayerFormat, type MapFeatureCollection } from '@geosentry/contract';
import { AppError } from '../../platform/http/errors.ts';
import { zipBomb, zipEntries, zipRead } from '../../platform/files/zip.ts';

type Geometry = { type: string; coordinates?: unknown; geometries?: Geometry[] };
type Feature = MapFeatureCollection['features'][number];

const bad = (format: string, reason: string): AppError =>
  new AppError(Status.invalid, 'mapLayerBadFile', { format, reason });

/** The format of an upload by its name and first bytes (KMZ is a zip, KML is XML, GeoJSON is JSON). */
export function layerFormatOf(fileName: string, buf: Buffer): LayerFormat {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  const zip = buf.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'));
  if (ext === 'kmz' && zip) return 'kmz';
  const head = buf
    .subarray(0, 200)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (ext === 'kml' && head.startsWith('<')) return 'kml';
  if ((ext === 'geojson' || ext === 'json') && (head.startsWith('{') || head.startsWith('['))) return 'geojson';
  if (['kml', 'kmz', 'geojson', 'json'].includes(ext))
    throw bad(ext === 'json' ? 'GeoJSON' : ext.toUpperCase(), 'content');
  throw new AppError(Status.invalid, 'mapLayerType');
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const colour = (v: unknown): string | null => (typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v) ? v : null);

/** Checks every position of a geometry: [lon, lat(, alt)] numbers in range; keeps lon, lat only. */
function cleanCoords(c: unknown, depth: number, format: string): unknown {
  if (!Array.isArray(c)) throw bad(format, 'coordinates');
  if (depth === 0) {
    const lon = num(c[0]);
    const lat = num(c[1]);
    if (lon === null || lat === null) throw bad(format, 'coordinates');
    if (Math.abs(lon) > 180 || Math.abs(lat) > 90) throw new AppError(Status.invalid, 'mapLayerCoordinates');
    return [lon, lat];
  }
  return c.map((x) => cleanCoords(x, depth - 1, format));
}

const DEPTH: Record<string, number> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
};

/** Flattens GeometryCollections; drops null geometries; checks coordinates. */
function geometries(g: Geometry | null | undefined, format: string): Geometry[] {
  if (!g) return [];
  if (g.type === 'GeometryCollection') return (g.geometries ?? []).flatMap((x) => geometries(x, format));
  const depth = DEPTH[g.type];
  if (depth === undefined) throw bad(format, `geometry ${String(g.type).slice(0, 40)}`);
  return [{ type: g.type, coordinates: cleanCoords(g.coordinates, depth, format) }];
}

function normalise(features: unknown[], format: string): MapFeatureCollection {
  const out: Feature[] = [];
  for (const f of features) {
    if (!f || typeof f !== 'object') throw bad(format, 'feature');
    const ff = f as { type?: unknown; geometry?: Geometry | null; properties?: Record<string, unknown> | null };
    if (ff.type !== 'Feature') throw bad(format, 'feature');
    const p = ff.properties ?? {};
    const name =
      typeof p.name === 'string' ? p.name.slice(0, 200) : typeof p.title === 'string' ? p.title.slice(0, 200) : null;
    const style = {
      color: colour(p.stroke) ?? colour(p['marker-color']),
      weight: num(p['stroke-width']),
      opacity: num(p['stroke-opacity']),
      fillColor: colour(p.fill),
      fillOpacity: num(p['fill-opacity']),
    };
    for (const g of geometries(ff.geometry, format)) {
      out.push({ type: 'Feature', geometry: g as Feature['geometry'], properties: { name, style } });
      if (out.length > MAP_LIMITS.maxFeatures)
        throw new AppError(Status.invalid, 'mapLayerTooMany', { max: MAP_LIMITS.maxFeatures });
    }
  }
  if (!out.length) throw new AppError(Status.invalid, 'mapLayerNoFeatures');
  return { type: 'FeatureCollection', features: out };
}

function parseKml(text: string): MapFeatureCollection {
  // DOCTYPEs are refused: no entity expansion of any kind.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw bad('KML', 'DOCTYPE');
  let errors = 0;
  let doc: Parameters<typeof kml>[0];
  try {
    doc = new DOMParser({
      onError: (level: string) => {
        if (level !== 'warning') errors++;
      },
    }).parseFromString(text, 'text/xml') as unknown as Parameters<typeof kml>[0];
  } catch {
    throw bad('KML', 'XML');
  }
  if (errors || !doc?.documentElement || doc.documentElement.localName !== 'kml') throw bad('KML', 'XML');
  const fc = kml(doc, { skipNullGeometry: true }) as { features: unknown[] };
  return normalise(fc.features, 'KML');
}

function parseGeoJson(text: string): MapFeatureCollection {
  let v: unknown;
  try {
    v = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw bad('GeoJSON', 'JSON');
  }
  const o = v as { type?: unknown; features?: unknown; geometry?: unknown; coordinates?: unknown };
  if (o?.type === 'FeatureCollection' && Array.isArray(o.features)) return normalise(o.features, 'GeoJSON');
  if (o?.type === 'Feature') return normalise([o], 'GeoJSON');
  if (typeof o?.type === 'string' && (o.coordinates !== undefined || o.type === 'GeometryCollection'))
    return normalise([{ type: 'Feature', geometry: o, properties: {} }], 'GeoJSON');
  throw bad('GeoJSON', 'type');
}

/** The KML document of a KMZ: doc.kml, else the first .kml at the top level (zip checked for bombs). */
function kmzText(buf: Buffer): string {
  const entries = zipEntries(buf);
  if (!entries || zipBomb(entries)) throw bad('KMZ', 'zip');
  const kmls = entries.filter((e) => e.name.toLowerCase().endsWith('.kml'));
  const entry = kmls.find((e) => e.name.toLowerCase() === 'doc.kml') ?? kmls[0];
  if (!entry) throw bad('KMZ', 'doc.kml');
  const data = zipRead(buf, entry, MAP_LIMITS.maxLayerBytes);
  if (!data) throw bad('KMZ', 'doc.kml');
  return data.toString('utf8');
}

/** Parses an upload into features; throws a translated error for anything malformed. */
export function parseGeoFile(fileName: string, buf: Buffer): { format: LayerFormat; data: MapFeatureCollection } {
  if (buf.length > MAP_LIMITS.maxLayerBytes) throw new AppError(Status.tooLarge, 'tooLarge');
  const format = layerFormatOf(fileName, buf);
  const text = format === 'kmz' ? kmzText(buf) : buf.toString('utf8');
  return { format, data: format === 'geojson' ? parseGeoJson(text) : parseKml(text) };
}

export function countKinds(fc: MapFeatureCollection): { points: number; lines: number; polygons: number } {
  const c = { points: 0, lines: 0, polygons: 0 };
  for (const f of fc.features) {
    const t = f.geometry.type;
    if (t.endsWith('Point')) c.points++;
    else if (t.endsWith('LineString')) c.lines++;
    else c.polygons++;
  }
  return c;
}

/** The outer rings of every polygon, with the feature's name ([lon, lat] points). */
export function polygonsOf(fc: MapFeatureCollection): { name: string | null; ring: [number, number][] }[] {
  const out: { name: string | null; ring: [number, number][] }[] = [];
  for (const f of fc.features) {
    if (f.geometry.type === 'Polygon')
      out.push({ name: f.properties.name, ring: (f.geometry.coordinates as [number, number][][])[0] ?? [] });
    if (f.geometry.type === 'MultiPolygon')
      for (const p of f.geometry.coordinates as [number, number][][][])
        out.push({ name: f.properties.name, ring: p[0] ?? [] });
  }
  return out;
}
