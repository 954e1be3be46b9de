// The devices feature's schemas and catalogues (the route table is in index.ts: a screen that only calls a route
// does not download the schemas, see tools/vite-contract.ts).
import { z } from 'zod';
import { pageQuery, zInt, zNum, zOptText, zSortField, zText } from '../api/zod.ts';
import { GNSS_MODULE_ID, isMonitorTypeId, quantitiesOf } from '../monitorTypes/catalogue.ts';
import { isIpAddress, jsonField, optBool, optEnum, optInt, optNum, portNumber, reqInt } from './fields.ts';
import {
  DEVICE_KINDS,
  DEVICE_STATES,
  STATION_TYPES,
  type StationType,
  DEVICE_NUMBER_PATTERN,
  GNSS_ELLIPSOIDS,
  GNSS_PROJECTIONS,
  DEVICE_IMPORT_MAX_BYTES,
} from './catalogue.ts';

/** Seven-parameter (Bursa-Wolf) datum transformation: shifts in m, rotations in arc seconds, scale in ppm. */
export const gnssSevenParameters = z.object({
  dx: zNum(),
  dy: zNum(),
  dz: zNum(),
  rx: zNum(),
  ry: zNum(),
  rz: zNum(),
  scale: zNum(),
});
/** Four-parameter plane transformation: shifts in m, rotation in arc seconds, scale in ppm. */
export const gnssFourParameters = z.object({ dx: zNum(), dy: zNum(), rotation: zNum(), scale: zNum() });

/** GNSS solution parameters (spec §3): ellipsoid, projection, seven/four-parameter sets, baseline, mask angle. */
export const gnssParams = z.object({
  ellipsoid: z.enum(GNSS_ELLIPSOIDS).default('CGCS2000'),
  projection: z.enum(GNSS_PROJECTIONS).default('gaussKruger'),
  /** Central meridian of the projection, degrees. */
  centralMeridian: optNum(z.number().min(-180).max(180)),
  /** Zone width of a Gauss-Krüger projection, degrees. */
  zoneWidth: optInt(z.number().refine((v) => v === 3 || v === 6, { message: '3 or 6' })),
  falseEasting: optNum(),
  falseNorthing: optNum(),
  /** Height of the projection surface, m. */
  projectionHeight: optNum(),
  sevenParameters: jsonField(gnssSevenParameters),
  fourParameters: jsonField(gnssFourParameters),
  /** Baseline: the device number of the base station a rover is solved against, and its length in m. */
  baseNumber: optDeviceNumber(),
  baselineLength: optNum(z.number().positive()),
  /** Elevation mask angle, degrees. */
  maskAngle: optNum(z.number().min(0).max(90)).transform((v) => v ?? 10),
});
export type GnssParams = z.output<typeof gnssParams>;

function optDeviceNumber() {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string().trim().min(1).max(64).regex(DEVICE_NUMBER_PATTERN).optional(),
  );
}

/** Kind-specific extras kept in the device's `params`: the GNSS parameters, and flat extra values. */
export const deviceParams = z
  .object({
    gnss: gnssParams.optional(),
    extra: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).optional(),
  })
  .strict();
export type DeviceParams = z.output<typeof deviceParams>;

/** The fields of a device (spec §3 Device). Required (spec §5): name, number, IP, port, terminal. */
export const deviceFields = {
  deviceName: zText(100),
  number: z.string().trim().min(1).max(64).regex(DEVICE_NUMBER_PATTERN),
  description: zOptText(2000),
  group: zOptText(100),
  /** Monitor type: a module id of the catalogue. */
  moduleId: reqInt().refine(isMonitorTypeId, { message: 'unknown monitor type' }),
  platformId: reqInt(),
  /** A terminal of the same site. */
  terminalId: reqInt(),
  type: optEnum(DEVICE_KINDS),
  protocolType: zOptText(50),
  ip: z.string().trim().min(1).max(64).refine(isIpAddress, { message: 'not an IP address' }),
  port: reqInt(portNumber()),
  /** Installed depth, m. */
  installedDepth: optNum(),
  offset: optNum(),
  /** Hours without data after which the device counts as offline. */
  offlineHours: optNum(z.number().positive().max(8760)),
  stationType: optEnum(STATION_TYPES),
  initialX: optNum(),
  initialY: optNum(),
  initialZ: optNum(),
  /** Initial value per quantity of the monitor type, e.g. {"dN": 0, "dE": 0}. */
  initialValues: jsonField(z.record(z.string().max(64), z.number())),
  filterThreshold: optNum(z.number().min(0)),
  communicationType: zOptText(50),
  serialPort: zOptText(50),
  baudRate: optInt(z.number().min(1).max(4_000_000)),
  initialLevel: optNum(),
  sensitivityCoefficient: optNum(),
  temperatureCoefficient: optNum(),
  initialFrequency: optNum(z.number().min(0)),
  initialTemperature: optNum(),
  params: jsonField(deviceParams),
};

type DeviceShape = {
  moduleId: number;
  initialValues?: Record<string, number> | undefined;
  params?: DeviceParams | undefined;
};

/** Cross-field rules: initial values name quantities of the monitor type; GNSS parameters only on GNSS devices. */
function deviceRules(v: DeviceShape, ctx: z.RefinementCtx): void {
  const keys = new Set(quantitiesOf(v.moduleId).map((q) => q.key));
  for (const k of Object.keys(v.initialValues ?? {})) {
    if (!keys.has(k))
      ctx.addIssue({ code: 'custom', path: ['initialValues', k], message: 'not a quantity of the monitor type' });
  }
  if (v.params?.gnss && v.moduleId !== GNSS_MODULE_ID) {
    ctx.addIssue({ code: 'custom', path: ['params', 'gnss'], message: 'GNSS parameters on a non-GNSS device' });
  }
}

export const deviceAddBody = z.object(deviceFields).superRefine(deviceRules);
export const deviceEditBody = z.object({ deviceId: zInt(), ...deviceFields }).superRefine(deviceRules);
export type DeviceInput = z.output<typeof deviceAddBody>;

const gnssFields = {
  ...deviceFields,
  moduleId: z.preprocess(
    (v) => (v === undefined || v === '' || v === null ? GNSS_MODULE_ID : typeof v === 'string' ? Number(v) : v),
    z.literal(GNSS_MODULE_ID),
  ),
  stationType: z.enum(STATION_TYPES),
  /** The GNSS solution parameters (an object, or JSON text in a form). */
  gnss: z.preprocess((v) => {
    if (typeof v !== 'string') return v ?? {};
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, gnssParams),
};
function gnssRules(v: DeviceShape & { stationType: StationType; gnss: GnssParams }, ctx: z.RefinementCtx): void {
  deviceRules(v, ctx);
  if (v.stationType === 'base' && v.gnss.baseNumber) {
    ctx.addIssue({ code: 'custom', path: ['gnss', 'baseNumber'], message: 'a base station has no base' });
  }
}
export const gnssDeviceAddBody = z.object(gnssFields).superRefine(gnssRules);
export const gnssDeviceEditBody = z.object({ deviceId: zInt(), ...gnssFields }).superRefine(gnssRules);

export const deviceIdBody = z.object({ deviceId: zInt() });

const deviceFilters = {
  keyword: zOptText(100),
  platformId: optInt(),
  moduleId: optInt(),
  terminalId: optInt(),
  state: optEnum(DEVICE_STATES),
  /** false: only unbound devices (site-less, visible to callers who see every site); true: only bound ones. */
  bound: optBool(),
  /** The devices of the sites in this region and every region below it (home's regional screening links here). */
  regionCode: zOptText(20),
};

export const deviceListQuery = pageQuery().extend(deviceFilters);
export const deviceRoleQuery = z.object({ roleId: optInt() });
export const deviceOptionsQuery = z.object({ platformId: optInt(), moduleId: optInt() });

export const DEVICE_FILE_FORMATS = ['csv', 'xlsx'] as const;
export type DeviceFileFormat = (typeof DEVICE_FILE_FORMATS)[number];
export const deviceExportQuery = z.object({
  format: z.enum(DEVICE_FILE_FORMATS).default('csv'),
  ...deviceFilters,
  sortField: zSortField(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
});

/**
 * Bulk import. The browser reads the file and sends it base64-encoded. Row 1 holds the column names
 * (DEVICE_IMPORT_COLUMNS, in any order; unknown columns are ignored); platformId and terminalId default to
 * the values given here. Answers {jobId} at once; the rows are checked and inserted in the background.
 */
export const deviceImportBody = z.object({
  format: z.enum(DEVICE_FILE_FORMATS),
  contentBase64: z
    .string()
    .min(1)
    .max(Math.ceil((DEVICE_IMPORT_MAX_BYTES * 4) / 3) + 4),
  platformId: optInt(),
  terminalId: optInt(),
});
export const deviceImportProgressQuery = z.object({ jobId: z.string().trim().min(1).max(64) });

/** The columns of the import file (the body fields of common/add); the export writes the same names first. */
export const DEVICE_IMPORT_COLUMNS = Object.keys(deviceFields) as (keyof typeof deviceFields)[];

export const deviceImportErrorSchema = z.object({
  /** Spreadsheet row number (row 1 is the header). */
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type DeviceImportError = z.output<typeof deviceImportErrorSchema>;
export const deviceImportJobSchema = z.object({
  jobId: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  inserted: z.number().int(),
  errors: z.array(deviceImportErrorSchema),
});
export type DeviceImportJob = z.output<typeof deviceImportJobSchema>;

const int = () => z.number().int();
export const deviceRowSchema = z.object({
  deviceId: int(),
  deviceName: z.string(),
  number: z.string(),
  description: z.string().nullable(),
  group: z.string().nullable(),
  moduleId: int(),
  platformId: int().nullable(),
  platformName: z.string().nullable(),
  terminalId: int().nullable(),
  terminalName: z.string().nullable(),
  type: z.enum(DEVICE_KINDS).nullable(),
  protocolType: z.string().nullable(),
  ip: z.string().nullable(),
  port: int().nullable(),
  installedDepth: z.number().nullable(),
  offset: z.number().nullable(),
  offlineHours: z.number().nullable(),
  stationType: z.enum(STATION_TYPES).nullable(),
  initialX: z.number().nullable(),
  initialY: z.number().nullable(),
  initialZ: z.number().nullable(),
  initialValues: z.record(z.string(), z.number()),
  filterThreshold: z.number().nullable(),
  communicationType: z.string().nullable(),
  serialPort: z.string().nullable(),
  baudRate: int().nullable(),
  initialLevel: z.number().nullable(),
  sensitivityCoefficient: z.number().nullable(),
  temperatureCoefficient: z.number().nullable(),
  initialFrequency: z.number().nullable(),
  initialTemperature: z.number().nullable(),
  /** The stored kind-specific extras (checked by the same schema as on input). */
  params: deviceParams,
  state: z.enum(DEVICE_STATES),
  bound: z.boolean(),
  lastSeenAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeviceRow = z.output<typeof deviceRowSchema>;

/** A device for pickers (getAllDeviceDataList): site name and the monitor type label in the caller's language. */
export const deviceOptionSchema = z.object({
  deviceId: int(),
  deviceName: z.string(),
  number: z.string(),
  moduleId: int(),
  moduleName: z.string(),
  platformId: int(),
  platformName: z.string(),
  terminalId: int().nullable(),
  state: z.enum(DEVICE_STATES),
});
export type DeviceOption = z.output<typeof deviceOptionSchema>;
