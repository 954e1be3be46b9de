import {
  DEVICE_SORT_FIELDS,
  GNSS_MODULE_ID,
  devicesRoutes,
  quantitiesOf,
  deviceImportBody,
  deviceListQuery,
  gnssFourParameters,
  gnssSevenParameters,
  type DeviceFileFormat,
  type DeviceKind,
  type DeviceParams,
  type DeviceRow,
  type GnssParams,
  type StationType,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { getToken } from '../../shared/storage.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';
import type { PagedParams } from '../../shared/table/serverTable.ts';

export { DEVICE_SORT_FIELDS };

/** The list's filters, as the contract reads them. */
export type DeviceFilters = Partial<
  Pick<z.output<typeof deviceListQuery>, 'keyword' | 'platformId' | 'moduleId' | 'terminalId' | 'state' | 'regionCode'>
>;
export interface DeviceListParams extends PagedParams, DeviceFilters {}

type Num = number | null | undefined;

export interface SevenParameterValues {
  dx?: Num;
  dy?: Num;
  dz?: Num;
  rx?: Num;
  ry?: Num;
  rz?: Num;
  scale?: Num;
}
export interface FourParameterValues {
  dx?: Num;
  dy?: Num;
  rotation?: Num;
  scale?: Num;
}
export const SEVEN_KEYS = gnssSevenParameters.keyof().options;
export const FOUR_KEYS = gnssFourParameters.keyof().options;

export interface GnssFormValues {
  ellipsoid?: GnssParams['ellipsoid'];
  projection?: GnssParams['projection'];
  centralMeridian?: Num;
  zoneWidth?: Num;
  falseEasting?: Num;
  falseNorthing?: Num;
  projectionHeight?: Num;
  sevenParameters?: SevenParameterValues;
  fourParameters?: FourParameterValues;
  baseNumber?: string | null;
  baselineLength?: Num;
  maskAngle?: Num;
}

/** The device form: every Device field of spec §3, the initial value per quantity, and the GNSS parameters. */
export interface DeviceFormValues {
  platformId: number;
  terminalId: number;
  moduleId: number;
  deviceName: string;
  number: string;
  description?: string;
  group?: string;
  type?: DeviceKind | null;
  protocolType?: string;
  ip: string;
  port: number;
  communicationType?: string;
  serialPort?: string;
  baudRate?: Num;
  installedDepth?: Num;
  offset?: Num;
  initialX?: Num;
  initialY?: Num;
  initialZ?: Num;
  initialValues?: Record<string, Num>;
  filterThreshold?: Num;
  initialLevel?: Num;
  sensitivityCoefficient?: Num;
  temperatureCoefficient?: Num;
  initialFrequency?: Num;
  initialTemperature?: Num;
  offlineHours?: Num;
  stationType?: StationType | null;
  gnss?: GnssFormValues;
}

export const deviceKeys = {
  all: ['devices'] as const,
  list: (p: DeviceListParams) => ['devices', 'list', p] as const,
  count: (p: DeviceFilters) => ['devices', 'count', p] as const,
  options: (p: { platformId?: number | undefined; moduleId?: number | undefined }) =>
    ['devices', 'options', p] as const,
  gnssBases: (platformId: number | undefined) => ['devices', 'gnss-bases', platformId ?? null] as const,
  byNumber: (number: string) => ['devices', 'by-number', number] as const,
  importJob: (jobId: string) => ['devices', 'import', jobId] as const,
};

/** The address of a device's card (the hidden screen device/detail). */
export const deviceDetailPath = (d: { deviceId: number; number: string }) =>
  `/information/device/detail?deviceId=${d.deviceId}&number=${encodeURIComponent(d.number)}`;

/** A page of devices; a newer page request cancels an older one unless `keepEarlier` (pages shown side by side). */
export const fetchDevices = (p: DeviceListParams, keepEarlier = false) =>
  call(devicesRoutes.list, { ...p }, { keepEarlier });

/** How many devices match the filters (a one-row page: the total is counted on the server). */
export const countDevices = (f: DeviceFilters) =>
  call(devicesRoutes.list, { ...f, pageNum: 1, pageSize: 1 }, picker).then((p) => p.total);

/** Devices for pickers and read-only overviews (any signed-in user, limited to the data scope). */
export const fetchDeviceOptions = (p: { platformId?: number | undefined; moduleId?: number | undefined }) =>
  call(devicesRoutes.options, p, picker);

/** GNSS base stations of a site (a rover's baseline is solved against one). */
export const fetchGnssBases = (platformId: number) =>
  call(
    devicesRoutes.list,
    { platformId, moduleId: GNSS_MODULE_ID, pageNum: 1, pageSize: 1000, sortField: 'deviceName' },
    picker,
  ).then((p) => p.list.filter((d) => d.stationType === 'base'));

/** One device by its number (the list's keyword also matches names; the exact number is picked). */
export const fetchDeviceByNumber = (number: string) =>
  call(devicesRoutes.list, { keyword: number, pageNum: 1, pageSize: 100 }, picker).then(
    (p) => p.list.find((d) => d.number === number) ?? null,
  );

const num = (v: Num): number | undefined => (v === null || v === undefined || Number.isNaN(v) ? undefined : v);

/** A parameter set is sent only when every value is given (the form checks that it is all or nothing). */
function fullSet<K extends string>(keys: readonly K[], v: Partial<Record<K, Num>> | undefined) {
  if (!v) return undefined;
  const out = {} as Record<K, number>;
  for (const k of keys) {
    const x = num(v[k]);
    if (x === undefined) return undefined;
    out[k] = x;
  }
  return out;
}

export function gnssParamsOf(g: GnssFormValues | undefined, stationType: StationType | null | undefined) {
  return {
    ellipsoid: g?.ellipsoid ?? 'CGCS2000',
    projection: g?.projection ?? 'gaussKruger',
    centralMeridian: num(g?.centralMeridian),
    zoneWidth: num(g?.zoneWidth),
    falseEasting: num(g?.falseEasting),
    falseNorthing: num(g?.falseNorthing),
    projectionHeight: num(g?.projectionHeight),
    sevenParameters: fullSet(SEVEN_KEYS, g?.sevenParameters),
    fourParameters: fullSet(FOUR_KEYS, g?.fourParameters),
    baseNumber: stationType === 'rover' ? blankToUndefined(g?.baseNumber) : undefined,
    baselineLength: num(g?.baselineLength),
    maskAngle: num(g?.maskAngle),
  };
}

function body(v: DeviceFormValues, keptParams: DeviceParams | undefined) {
  // Only the quantities of the chosen monitor type (a changed type leaves the old ones behind).
  const keys = new Set(quantitiesOf(v.moduleId).map((q) => q.key));
  const quantities = Object.entries(v.initialValues ?? {}).flatMap(([k, x]) => {
    const n = num(x);
    return n === undefined || !keys.has(k) ? [] : [[k, n] as const];
  });
  const isGnss = v.moduleId === GNSS_MODULE_ID;
  return {
    platformId: v.platformId,
    terminalId: v.terminalId,
    moduleId: v.moduleId,
    deviceName: v.deviceName.trim(),
    number: v.number.trim(),
    description: blankToUndefined(v.description),
    group: blankToUndefined(v.group),
    type: v.type ?? undefined,
    protocolType: blankToUndefined(v.protocolType),
    ip: v.ip.trim(),
    port: v.port,
    communicationType: blankToUndefined(v.communicationType),
    serialPort: blankToUndefined(v.serialPort),
    baudRate: num(v.baudRate),
    installedDepth: num(v.installedDepth),
    offset: num(v.offset),
    initialX: num(v.initialX),
    initialY: num(v.initialY),
    initialZ: num(v.initialZ),
    initialValues: quantities.length ? Object.fromEntries(quantities) : undefined,
    filterThreshold: num(v.filterThreshold),
    initialLevel: num(v.initialLevel),
    sensitivityCoefficient: num(v.sensitivityCoefficient),
    temperatureCoefficient: num(v.temperatureCoefficient),
    initialFrequency: num(v.initialFrequency),
    initialTemperature: num(v.initialTemperature),
    offlineHours: num(v.offlineHours),
    stationType: isGnss ? (v.stationType ?? undefined) : undefined,
    // Other extras of an edited device are kept; GNSS parameters belong to GNSS devices only.
    params: keptParams?.extra ? { extra: keptParams.extra } : undefined,
    isGnss,
  };
}

/**
 * The GNSS routes require the station type, and so does the form for a GNSS device; should it still be missing,
 * it is sent missing and the server's validation message explains.
 */
const gnssStation = (v: DeviceFormValues) => v.stationType as StationType;

/** Adds a device: GNSS devices (monitor type 1) through the GNSS route with their solution parameters. */
export function addDevice(v: DeviceFormValues) {
  const { isGnss, ...b } = body(v, undefined);
  if (isGnss)
    return call(
      devicesRoutes.gnssAdd,
      { ...b, stationType: gnssStation(v), gnss: gnssParamsOf(v.gnss, v.stationType) },
      change,
    );
  return call(devicesRoutes.add, b, change);
}

/** Edits a device; a GNSS device stays on the GNSS route, a device becoming GNSS carries its parameters. */
export function editDevice(before: DeviceRow, v: DeviceFormValues) {
  const { isGnss, ...b } = body(v, before.params);
  const deviceId = before.deviceId;
  if (isGnss && before.moduleId === GNSS_MODULE_ID)
    return call(
      devicesRoutes.gnssEdit,
      { deviceId, ...b, stationType: gnssStation(v), gnss: gnssParamsOf(v.gnss, v.stationType) },
      change,
    );
  if (isGnss)
    return call(
      devicesRoutes.edit,
      { deviceId, ...b, params: { ...(b.params ?? {}), gnss: gnssParamsOf(v.gnss, v.stationType) } },
      change,
    );
  return call(devicesRoutes.edit, { deviceId, ...b }, change);
}

export const deleteDevice = (deviceId: number) => call(devicesRoutes.delete, { deviceId }, change);
export const unbindDevice = (deviceId: number) => call(devicesRoutes.unbind, { deviceId }, change);

export const startDeviceImport = (p: z.input<typeof deviceImportBody>) => call(devicesRoutes.import, p, change);
export const fetchImportProgress = (jobId: string) => call(devicesRoutes.importProgress, { jobId }, picker);

/** The export address with the filters, the sort, the token (downloads carry it in the query) and the language. */
export function exportUrl(format: DeviceFileFormat, p: DeviceListParams): string {
  const q = new URLSearchParams();
  q.set('format', format);
  const add = (k: string, v: string | number | undefined) => {
    if (v !== undefined && v !== '') q.set(k, String(v));
  };
  add('keyword', p.keyword);
  add('platformId', p.platformId);
  add('moduleId', p.moduleId);
  add('terminalId', p.terminalId);
  add('state', p.state);
  add('sortField', p.sortField);
  add('sortOrder', p.sortOrder);
  add('token', getToken() ?? undefined);
  add('language', currentLanguage());
  return `${devicesRoutes.export.path}?${q.toString()}`;
}

/**
 * Downloads the export: the file is fetched with the token and language headers (the monitor type column is
 * in the user's language) and saved through a hidden <a download>. An error answer comes back as an
 * envelope; then the error is thrown.
 */
export async function downloadExport(format: DeviceFileFormat, p: DeviceListParams): Promise<void> {
  const token = getToken();
  const res = await fetch(exportUrl(format, p), {
    headers: { language: currentLanguage(), ...(token ? { token } : {}) },
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const env = (await res.json().catch(() => null)) as { info?: string } | null;
    throw new Error(env?.info ?? res.statusText);
  }
  const blob = await res.blob();
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `devices.${format}`;
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
