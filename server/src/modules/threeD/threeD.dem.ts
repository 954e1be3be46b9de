import { fromArrayBuffer } from 'geotiff';
import type { Language } from '@geosentry/contract';

/**
 * An elevation model (DEM) on a regular grid in WGS-84 longitude and latitude (EPSG:4326, what national DEM
 * services and SRTM/ASTER tiles give): row 0 is the north edge. Heights in metres; NaN where there is no data.
 */
export interface Dem {
  cols: number;
  rows: number;
  west: number;
  south: number;
  east: number;
  north: number;
  heights: Float32Array;
}

export type DemFormat = 'geotiff' | 'asc';
export type DemResult = { ok: true; dem: Dem } | { ok: false; reason: DemReason };

/** At most this many cells are read (a 5,000 x 5,000 DEM); the mesh is resampled from them. */
export const DEM_MAX_CELLS = 25_000_000;

const REASONS = {
  unreadable: {
    en: 'it is neither a GeoTIFF nor an ESRI ASCII grid that can be read',
    zh: '文件不是可读取的 GeoTIFF 或 ESRI ASCII 栅格',
    ko: '읽을 수 있는 GeoTIFF 또는 ESRI ASCII 격자가 아닙니다',
  },
  projected: {
    en: 'its coordinates are projected; export the elevation model in WGS-84 longitude and latitude (EPSG:4326)',
    zh: '高程模型为投影坐标，请以 WGS-84 经纬度（EPSG:4326）导出',
    ko: '투영 좌표입니다. 고도 모델을 WGS-84 경위도(EPSG:4326)로 내보내세요',
  },
  bounds: {
    en: 'its extent is not within longitude -180 to 180 and latitude -85 to 85',
    zh: '范围不在经度 -180 至 180、纬度 -85 至 85 之内',
    ko: '범위가 경도 -180~180, 위도 -85~85 안에 있지 않습니다',
  },
  size: {
    en: 'it must have at least 2 x 2 and at most 25,000,000 cells',
    zh: '栅格须至少 2 x 2 个、至多 25,000,000 个像元',
    ko: '셀은 최소 2 x 2, 최대 25,000,000개여야 합니다',
  },
  noData: {
    en: 'it holds no elevation values',
    zh: '文件中没有高程值',
    ko: '고도 값이 없습니다',
  },
} as const satisfies Record<string, Record<Language, string>>;
export type DemReason = keyof typeof REASONS;
export const demReason = (r: DemReason, lang: Language): string => REASONS[r][lang];

/** The DEM format a file's bytes look like (TIFF magic, or the ASCII grid's first keyword), or null. */
export function demFormatOf(bytes: Buffer): DemFormat | null {
  if (bytes.length >= 4) {
    const m = bytes.subarray(0, 4).toString('latin1');
    if (m === 'II*\u0000' || m === 'MM\u0000*' || m === 'II+\u0000' || m === 'MM\u0000+') return 'geotiff';
  }
  return /^\s*ncols\s/i.test(bytes.subarray(0, 64).toString('latin1')) ? 'asc' : null;
}

export async function readDem(bytes: Buffer): Promise<DemResult> {
  const format = demFormatOf(bytes);
  try {
    const dem = format === 'geotiff' ? await readGeoTiff(bytes) : format === 'asc' ? readAsc(bytes) : 'unreadable';
    return typeof dem === 'string' ? { ok: false, reason: dem } : check(dem);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

function check(d: Dem): DemResult {
  const fail = (reason: DemReason): DemResult => ({ ok: false, reason });
  if (d.cols < 2 || d.rows < 2 || d.cols * d.rows > DEM_MAX_CELLS) return fail('size');
  const inRange = (v: number, lim: number): boolean => Number.isFinite(v) && v >= -lim && v <= lim;
  if (![d.west, d.east].every((v) => inRange(v, 180)) || ![d.south, d.north].every((v) => inRange(v, 85)))
    return fail('bounds');
  if (!(d.east > d.west && d.north > d.south)) return fail('bounds');
  if (!d.heights.some((h) => Number.isFinite(h))) return fail('noData');
  return { ok: true, dem: d };
}

/** GeoKeys: GTModelTypeGeoKey 2 is geographic; GeographicTypeGeoKey 4326 is WGS-84 (4490, CGCS2000, differs < 1 m). */
async function readGeoTiff(bytes: Buffer): Promise<Dem | DemReason> {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const tiff = await fromArrayBuffer(ab);
  const image = await tiff.getImage();
  const keys = image.getGeoKeys() ?? {};
  const model = keys.GTModelTypeGeoKey as number | undefined;
  const geographic = keys.GeographicTypeGeoKey as number | undefined;
  if (model === 1 || keys.ProjectedCSTypeGeoKey !== undefined) return 'projected';
  if (geographic !== undefined && geographic !== 4326 && geographic !== 4490 && geographic !== 32767)
    return 'projected';
  const cols = image.getWidth();
  const rows = image.getHeight();
  if (cols * rows > DEM_MAX_CELLS) return 'size';
  const [west, south, east, north] = image.getBoundingBox() as [number, number, number, number];
  const raster = (await image.readRasters({ samples: [0], interleave: true })) as unknown as ArrayLike<number>;
  const nodata = image.getGDALNoData();
  const heights = new Float32Array(cols * rows);
  for (let i = 0; i < heights.length; i++) {
    const v = Number(raster[i]);
    heights[i] = nodata !== null && v === nodata ? NaN : v;
  }
  return { cols, rows, west, south, east, north, heights };
}

/** ESRI ASCII grid: ncols, nrows, xllcorner|xllcenter, yllcorner|yllcenter, cellsize, [NODATA_value], rows N to S. */
function readAsc(bytes: Buffer): Dem | DemReason {
  const text = bytes.toString('latin1');
  const head: Record<string, number> = {};
  const re = /^\s*([A-Za-z_]+)\s+(\S+)\s*$/gm;
  let at = 0;
  for (let i = 0; i < 6; i++) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m || m.index !== at || !/^(ncols|nrows|xll|yll|cellsize|nodata)/i.test(m[1]!)) break;
    head[m[1]!.toLowerCase()] = Number(m[2]);
    at = re.lastIndex + 1;
  }
  const cols = head.ncols;
  const rows = head.nrows;
  const cell = head.cellsize;
  if (!cols || !rows || !cell || !Number.isInteger(cols) || !Number.isInteger(rows) || cell <= 0) return 'unreadable';
  if (cols * rows > DEM_MAX_CELLS) return 'size';
  const centre = head.xllcenter !== undefined;
  const west = (centre ? head.xllcenter! - cell / 2 : head.xllcorner!) ?? NaN;
  const south = (centre ? head.yllcenter! - cell / 2 : head.yllcorner!) ?? NaN;
  const nodata = head.nodata_value;
  const heights = new Float32Array(cols * rows);
  const values = text.slice(at).split(/\s+/).filter(Boolean);
  if (values.length !== cols * rows) return 'unreadable';
  for (let i = 0; i < heights.length; i++) {
    const v = Number(values[i]);
    heights[i] = !Number.isFinite(v) || v === nodata ? NaN : v;
  }
  return { cols, rows, west, south, east: west + cols * cell, north: south + rows * cell, heights };
}
