import { HomeOutlined, SettingOutlined } from '@ant-design/icons';
import type { AppRoute } from './route-types.ts';
import { HomePage } from '../features/dashboard/index.ts';
import { UserInfoPage } from '../features/session/index.ts';

/**
 * The route tree of the console (spec §2). Features declare their screens in
 * web/src/features/<feature>/routes.tsx as exported AppRoute[] arrays whose names end with
 * 'Routes'; they are collected here, so a feature appears as soon as its file lands.
 */
const featureModules = import.meta.glob<Record<string, unknown>>('../features/*/routes.tsx', { eager: true });

/** Features whose screens sit in the /system group, in menu order. */
const SYSTEM_FEATURES = ['users', 'roles', 'permissions', 'audit', 'maps'];

/** The information group (spec §2): shown right after home. */
const INFORMATION_PATH = '/information';

function isAppRouteArray(v: unknown): v is AppRoute[] {
  return (
    Array.isArray(v) &&
    v.every(
      (r) =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as AppRoute).path === 'string' &&
        typeof (r as AppRoute).titleKey === 'string',
    )
  );
}

/**
 * The order of features in groups several of them contribute to (the /information group: sites, enterprises,
 * sections, regions, then terminals, devices, persons, external files, as in spec §2); features not listed
 * follow in file order.
 */
const GROUP_FEATURE_ORDER = [
  'platforms',
  'enterprises',
  'sections',
  'regions',
  'terminals',
  'devices',
  'monitorTypes',
  'persons',
  'tsManagement',
  'externalFiles',
  // Top-level groups in the spec's menu order (§2): monitoring, then alerts.
  'monitor',
  'monitorViews',
  'alerts',
  'alertNotifications',
];

/**
 * Merges top-level routes that declare the same path (a group several features contribute to, like
 * '/information'): the first declaration gives the title, icon, roles and redirect (later ones fill what it
 * leaves out) and the children are concatenated in feature order. Other routes keep their order.
 */
function mergeGroups(routes: AppRoute[]): AppRoute[] {
  const out: AppRoute[] = [];
  const at = new Map<string, number>();
  for (const r of routes) {
    const i = at.get(r.path);
    const seen = i === undefined ? undefined : out[i];
    if (i === undefined || !seen) {
      at.set(r.path, out.length);
      out.push(r);
      continue;
    }
    const { roles: _roles, ...merged } = { ...r, ...seen };
    // A role list only narrows the group when every contributor declares one.
    const roles = seen.roles && r.roles ? [...new Set([...seen.roles, ...r.roles])] : undefined;
    out[i] = { ...merged, ...(roles ? { roles } : {}), children: [...(seen.children ?? []), ...(r.children ?? [])] };
  }
  return out;
}

function collect(): { system: AppRoute[]; information: AppRoute | undefined; other: AppRoute[] } {
  const byFeature = new Map<string, AppRoute[]>();
  for (const [file, mod] of Object.entries(featureModules)) {
    const feature = /features\/([^/]+)\/routes\.tsx$/.exec(file)?.[1];
    if (!feature) continue;
    const list: AppRoute[] = [];
    for (const [name, value] of Object.entries(mod))
      if (name.endsWith('Routes') && isAppRouteArray(value)) list.push(...value);
    byFeature.set(feature, list);
  }
  const system = SYSTEM_FEATURES.flatMap((f) => byFeature.get(f) ?? []);
  const rank = (f: string): number => {
    const i = GROUP_FEATURE_ORDER.indexOf(f);
    return i < 0 ? GROUP_FEATURE_ORDER.length : i;
  };
  const ordered = [...byFeature.entries()]
    .filter(([f]) => !SYSTEM_FEATURES.includes(f))
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .flatMap(([, list]) => list);
  const merged = mergeGroups(ordered);
  const information = merged.find((r) => r.path === INFORMATION_PATH);
  const other = merged.filter((r) => r.path !== INFORMATION_PATH);
  return { system, information, other };
}

const features = collect();

/** Screens inside the main layout. Groups (with children) redirect to their first permitted child. */
export const appRoutes: AppRoute[] = [
  {
    path: '/home',
    titleKey: 'home:title',
    roles: ['index'],
    affix: true,
    icon: <HomeOutlined />,
    element: HomePage,
    consoleCatalogues: true,
  },
  ...(features.information ? [features.information] : []),
  ...features.other,
  ...(features.system.length > 0
    ? [
        {
          path: '/system',
          titleKey: 'common:menu.system',
          roles: ['system'],
          icon: <SettingOutlined />,
          children: features.system,
        } satisfies AppRoute,
      ]
    : []),
  { path: '/userinfo', titleKey: 'session:userInfo.title', hidden: true, element: UserInfoPage },
];
