import path from 'node:path';

/** Every setting comes from the environment (README "Configuration" lists them). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  mqttPort: number;
  mqttUrl: string | null;
  captcha: boolean;
  adminAccount: string;
  adminPassword: string | null;
  demo: boolean;
  secretKey: string | null;
  systemTitle: string;
  projectTitle: string;
  copyright: string;
  supportPhone: string;
  platformType: string;
  webDist: string | null;
  logLevel: string;
  /** Idle time after which a session ends (spec §9: 2 hours). */
  sessionIdleMs: number;
}

const on = (v: string | undefined, dflt: boolean): boolean =>
  v === undefined || v === '' ? dflt : !['off', '0', 'false', 'no'].includes(v.toLowerCase());

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const here = path.dirname(new URL(import.meta.url).pathname);
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || null,
    mqttPort: Number(env.MQTT_PORT ?? 1883),
    mqttUrl: env.MQTT_URL || null,
    captcha: on(env.CAPTCHA, true),
    adminAccount: env.ADMIN_ACCOUNT || 'admin',
    adminPassword: env.ADMIN_PASSWORD || null,
    demo: on(env.DEMO, true),
    secretKey: env.SECRET_KEY || null,
    systemTitle: env.SYSTEM_TITLE || 'Geosentry',
    projectTitle: env.PROJECT_TITLE || 'Monitoring and early warning',
    copyright: env.COPYRIGHT || `© ${new Date().getFullYear()} Geosentry`,
    supportPhone: env.SUPPORT_PHONE || '400-000-0000',
    platformType: env.PLATFORM_TYPE || 'disaster',
    webDist: env.WEB_DIST === '' ? null : path.resolve(env.WEB_DIST ?? path.join(here, '../../web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    sessionIdleMs: Number(env.SESSION_IDLE_MINUTES ?? 120) * 60_000,
    ...overrides,
  };
}
