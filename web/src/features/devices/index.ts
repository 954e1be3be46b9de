/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { deviceRoutes } from './routes.tsx';
export { DEVICE_STATE_COLORS, DeviceStateTag } from './DeviceStateTag.tsx';
export { deviceKeys, fetchDeviceOptions } from './devicesApi.ts';
