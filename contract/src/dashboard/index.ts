import { z } from 'zod';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import {
  bigDataQuery,
  bigScreenSchema,
  dashboardQuery,
  deviceAndDataSchema,
  homeSchema,
  weatherQuery,
  weatherSchema,
} from './schemas.ts';

export * from './catalogue.ts';
export * from './schemas.ts';

const tags = ['dashboard'];
const HOME = perm('index');
const SCREEN = perm('digitalGallery');

export const dashboardRoutes = routeTable({
  home: {
    method: 'GET',
    path: '/api/v2/data/dashboard/getHome',
    permission: HOME,
    summary: "Home: sites and devices by state, open alerts by level, 30 days of alerts, the map (caller's scope)",
    tags,
    query: dashboardQuery,
    response: homeSchema,
  },
  bigScreen: {
    method: 'GET',
    path: '/api/v2/data/dashboard/getBigScreen',
    permission: SCREEN,
    summary: 'Big screen: online rate, rainfall ranking, reservoir levels, alert ticker, curves of devices in alarm',
    tags,
    query: dashboardQuery,
    response: bigScreenSchema,
  },
  deviceAndData: {
    method: 'GET',
    path: '/api/v2/data/bigData/getDeviceAndData',
    permission: perm('digitalGallery', 'index'),
    summary: "Devices in the caller's scope with their state and newest values (filter platformId, regionCode)",
    tags,
    query: bigDataQuery,
    response: z.array(deviceAndDataSchema),
  },
  weather: {
    method: 'GET',
    path: '/api/v2/data/dashboard/getWeather',
    permission: LOGIN,
    summary: "A site's weather from its own rain, temperature, humidity and wind sensors (or the configured provider)",
    tags,
    query: weatherQuery,
    response: weatherSchema,
  },
});
