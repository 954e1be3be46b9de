/**
 * The permission catalogue: every route role key of spec §6 plus the common permissions
 * (appDownload, digitalGallery, digitalGallery:common). Level 1 entries are menu groups; level 2
 * entries are their screens. The server seeds this tree; administrators may add more (two levels).
 */
export interface PermissionSeed {
  code: string;
  name: string;
  type: 'menu' | 'common';
  path?: string;
  children?: PermissionSeed[];
}

const m = (code: string, name: string, path?: string): PermissionSeed => ({
  code,
  name,
  type: 'menu',
  ...(path ? { path } : {}),
});

export const PERMISSION_CATALOGUE: PermissionSeed[] = [
  { ...m('index', 'Home', '/home'), children: [] },
  {
    ...m('information', 'Information', '/information'),
    children: [
      m('information:enterprise', 'Enterprise management'),
      m('information:enterprise:tailings', 'Enterprise management (tailings)'),
      m('information:platform:disaster', 'Hazard point management'),
      m('information:platform:reservoir', 'Reservoir management'),
      m('information:platform:river', 'River management'),
      m('information:platform:tailings', 'Tailings pond management'),
      m('information:platform:bridge', 'Bridge management'),
      m('information:platform:sideslope', 'Slope management'),
      m('information:segment', 'Sections'),
      m('information:platformInfo', 'Platform info'),
      m('information:road', 'Road segments'),
      m('information:terminal', 'Terminals'),
      m('information:commonDevice', 'Common devices'),
      m('information:device', 'Monitoring devices'),
      m('information:reservoirWater', 'Reservoir water elevation'),
      m('information:riverWater', 'River water elevation'),
      m('information:responsible', 'Responsible persons'),
      m('information:TSManagement', 'TS management'),
      m('information:external-file', 'External files link'),
    ],
  },
  {
    ...m('camera', 'Cameras', '/camera'),
    children: [
      m('camera:real-time', 'Real-time video'),
      m('camera:cameraTask', 'Video tasks'),
      m('camera:camera', 'Camera management'),
      m('camera:group', 'Camera groups'),
    ],
  },
  {
    ...m('area', 'Area monitoring', '/areasmos'),
    children: [m('area:monitor', 'Area monitor'), m('area:manage', 'Area management')],
  },
  {
    ...m('threeDimensional', '3D', '/dimensional'),
    children: [m('threeDimensional:show', '3D view'), m('threeDimensional:manage', '3D management')],
  },
  {
    ...m('monitor', 'Monitoring', '/monitor'),
    children: [
      m('monitor:platform:disaster', 'Hazard point display'),
      m('monitor:platform:tailings', 'Tailings display'),
      m('monitor:platform:reservoir', 'Reservoir display'),
      m('monitor:platform:river', 'River display'),
      m('monitor:platform:sideslope', 'Slope display'),
      m('monitor:platform:bridge', 'Bridge display'),
      m('monitor:sketchMap', 'Sketch map'),
      m('monitor:moduleMap', 'Device distribution'),
      m('monitor:riverMap', 'River view'),
      m('monitor:reservoirMap', 'Reservoir view'),
      m('monitor:segmentMap', 'Section display'),
      m('monitor:realtime-trade', 'Real-time data (trade)'),
      m('monitor:realtime', 'Real-time data'),
      m('monitor:realtime-sxxy', 'Real-time data (sxxy)'),
      m('monitor:history', 'Historical data'),
      m('monitor:dataProcessing', 'Data processing'),
      m('monitor:predict', 'Data forecast'),
      m('monitor:comparison', 'Data comparison'),
      m('monitor:monitorStation', 'Monitoring station'),
      m('monitor:report', 'Report'),
      m('monitor:generalReport', 'General report'),
      m('monitor:vibrationReport', 'Vibration report'),
      m('monitor:dataImport', 'Data import'),
    ],
  },
  {
    ...m('alert-predict', 'Alerts', '/alert'),
    children: [
      m('alert-predict:alert', 'Alerts'),
      m('alert-predict:report', 'Alert report'),
      m('alert-predict:alert-value', 'Alert thresholds'),
      m('alert-predict:alert-contract', 'Alert contacts'),
      m('alert-predict:alert-setting', 'Alert configuration'),
      m('alert-predict:alert-template', 'Alert templates'),
    ],
  },
  {
    ...m('supervisor', 'Safety supervision', '/archives'),
    children: [
      m('supervisor:dynamic', 'Dynamic supervision'),
      m('supervisor:plan', 'Plan management'),
      m('supervisor:archive', 'Security files'),
    ],
  },
  {
    ...m('task', 'Tasks', '/task'),
    children: [
      m('task:receivetask', 'My tasks'),
      m('task:assignedtask', 'Assigned tasks'),
      m('task:reviewtask', 'Task review'),
    ],
  },
  {
    ...m('system', 'System', '/system'),
    children: [
      m('system:data', 'Data permission'),
      m('system:database', 'Databases'),
      m('system:user', 'Users', '/system/user'),
      m('system:role', 'Roles', '/system/role'),
      m('system:permission', 'Menu management', '/system/jurisdiction'),
      m('system:audit', 'Audit log', '/system/audit'),
    ],
  },
  { code: 'appDownload', name: 'App download', type: 'common' },
  {
    code: 'digitalGallery',
    name: 'Big screen',
    type: 'common',
    children: [{ code: 'digitalGallery:common', name: 'Big screen (common)', type: 'common' }],
  },
];

/** The role codes seeded at first start. The super administrator holds every permission and sees every site. */
export const SUPER_ADMIN_ROLE = 'superAdmin';
export const USER_ROLE = 'user';

/** Codes the ordinary User role receives at seed time. */
export const USER_ROLE_SEED_CODES = [
  'index',
  'monitor',
  'monitor:realtime',
  'monitor:history',
  'alert-predict',
  'alert-predict:alert',
  'appDownload',
];

export function allCatalogueCodes(): string[] {
  const out: string[] = [];
  const walk = (list: PermissionSeed[]): void => {
    for (const p of list) {
      out.push(p.code);
      if (p.children) walk(p.children);
    }
  };
  walk(PERMISSION_CATALOGUE);
  return out;
}
