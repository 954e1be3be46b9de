// The devices feature's contract: the route table here; schemas and catalogues in schemas.ts (a screen that only
// calls a route does not download the schemas: tools/vite-contract.ts blanks a route's schemas in the browser).
import { z } from 'zod';
import { zPage } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import {
  deviceAddBody,
  deviceEditBody,
  deviceExportQuery,
  deviceIdBody,
  deviceImportBody,
  deviceImportJobSchema,
  deviceImportProgressQuery,
  deviceListQuery,
  deviceOptionSchema,
  deviceOptionsQuery,
  deviceRoleQuery,
  deviceRowSchema,
  gnssDeviceAddBody,
  gnssDeviceEditBody,
} from './schemas.ts';

export * from './catalogue.ts';
export * from './schemas.ts';

const tags = ['devices'];
const D = '/api/v2/data/information/device';
const P = perm('information:device');

/**
 * Every device route needs information:device (also the common/* ones), except the list, which the read-only
 * deviceInfo screen (information:commonDevice) shows too, and getAllDeviceDataList: any signed-in user, limited
 * to the data scope, because the monitoring screens' device pickers use it.
 */
export const devicesRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${D}/common/getListPage`,
    permission: perm('information:device', 'information:commonDevice'),
    summary: "Devices in the caller's data scope, paged, filtered and sorted",
    tags,
    query: deviceListQuery,
    response: zPage(deviceRowSchema),
  },
  listByRole: {
    method: 'GET',
    path: `${D}/common/getListByRoleId`,
    permission: P,
    summary: "Every bound device of the caller's data scope (roleId accepted for compatibility)",
    tags,
    query: deviceRoleQuery,
    response: z.array(deviceRowSchema),
  },
  add: {
    method: 'POST',
    path: `${D}/common/add`,
    permission: P,
    summary: 'Add a device (an unbound device with the same number is taken back)',
    tags,
    body: deviceAddBody,
    response: z.object({ deviceId: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${D}/common/edit`,
    permission: P,
    summary: 'Edit a device',
    tags,
    body: deviceEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${D}/common/delete`,
    permission: P,
    summary: 'Delete a device permanently',
    tags,
    body: deviceIdBody,
    response: z.null(),
  },
  unbind: {
    method: 'POST',
    path: `${D}/module/device/deleteDeviceData`,
    permission: P,
    summary: 'Unbind a device from its site and terminal; it can be added again',
    tags,
    body: deviceIdBody,
    response: z.null(),
  },
  gnssAdd: {
    method: 'POST',
    path: `${D}/common/gnss/add`,
    permission: P,
    summary: 'Add a GNSS device (module 1) with its solution parameters',
    tags,
    body: gnssDeviceAddBody,
    response: z.object({ deviceId: z.number().int() }),
  },
  gnssEdit: {
    method: 'POST',
    path: `${D}/common/gnss/edit`,
    permission: P,
    summary: 'Edit a GNSS device',
    tags,
    body: gnssDeviceEditBody,
    response: z.null(),
  },
  options: {
    method: 'GET',
    path: `${D}/getAllDeviceDataList`,
    permission: LOGIN,
    summary: "Every bound device of the caller's data scope with site name and monitor type (pickers)",
    tags,
    query: deviceOptionsQuery,
    response: z.array(deviceOptionSchema),
  },
  import: {
    method: 'POST',
    path: `${D}/common/import`,
    permission: P,
    summary: 'Import devices from a CSV or XLSX file (base64); answers a job id',
    tags,
    body: deviceImportBody,
    response: z.object({ jobId: z.string(), total: z.number().int() }),
  },
  importProgress: {
    method: 'GET',
    path: `${D}/common/importProgress`,
    permission: P,
    summary: 'Progress and row errors of an import job of the caller',
    tags,
    query: deviceImportProgressQuery,
    response: deviceImportJobSchema,
  },
  export: {
    method: 'GET',
    path: `${D}/common/export`,
    permission: P,
    summary: 'Download the filtered devices as CSV or XLSX (token header or ?token=)',
    tags,
    query: deviceExportQuery,
    tokenInQuery: true,
    // No response schema: the answer is the file, not an envelope.
  },
});
