// The devices feature's catalogues: kinds, states, patterns and limits (constants, no schemas: a screen that shows a
// device state does not download zod).

/** Device kinds (spec §3 Device type). */
export const DEVICE_KINDS = [
  'engine',
  'rainGauge',
  'clinometer',
  'waterGauge',
  'tilt',
  'soilMoisture',
  'solarBattery',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/** Device states (spec §4). A new device is offline until its first reading. */
export const DEVICE_STATES = ['normal', 'alert', 'alarm', 'abnormal', 'offline'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** Base or rover station (GNSS). */
export const STATION_TYPES = ['base', 'rover'] as const;
export type StationType = (typeof STATION_TYPES)[number];

/** Suggested values for the free-text protocol and communication fields (not enforced). */
export const DEVICE_PROTOCOL_SUGGESTIONS = ['MQTT', 'HTTP', 'Modbus-RTU', 'Modbus-TCP', 'TCP', 'UDP', 'NTRIP'] as const;
export const COMMUNICATION_TYPE_SUGGESTIONS = [
  '4G',
  '5G',
  'NB-IoT',
  'LoRa',
  'Ethernet',
  'RS485',
  'BeiDou SMS',
] as const;

/** A device number is the MQTT topic id (devices/{number}/readings): no '/', '+', '#' or spaces. */
export const DEVICE_NUMBER_PATTERN = /^[A-Za-z0-9_.:-]+$/;

export const GNSS_ELLIPSOIDS = ['WGS84', 'CGCS2000', 'Beijing54', 'Xian80'] as const;
export const GNSS_PROJECTIONS = ['gaussKruger', 'utm', 'none'] as const;

export const DEVICE_SORT_FIELDS = [
  'deviceName',
  'number',
  'moduleId',
  'platformName',
  'terminalName',
  'state',
  'lastSeenAt',
  'createdAt',
] as const;

/** At most this many data rows per import file. */
export const DEVICE_IMPORT_MAX_ROWS = 20_000;
/** Largest import file, bytes (before base64). */
export const DEVICE_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
