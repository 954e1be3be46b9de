import path from 'node:path';
import { isTimeZone } from '@geosentry/contract';

/** Every setting comes from the environment (README "Configuration" lists them). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Port of the embedded broker; 0 picks a free port, -1 runs none (HTTP ingest only). */
  mqttPort: number;
  mqttUrl: string | null;
  /** Client id prefix of the server's connections to an external broker (persistent sessions are per id). */
  mqttClientId: string;
  /** Embedded broker: largest MQTT packet accepted (fixed header included); a larger one closes the connection. */
  mqttMaxPacketBytes: number;
  /** Embedded broker: a connection that sends no CONNECT within this time is closed. */
  mqttConnectTimeoutMs: number;
  /** Embedded broker: open connections one address may hold. */
  mqttMaxConnectionsPerIp: number;
  /** Browser socket: origins allowed besides the console's own (same host); a request without Origin is allowed. */
  allowedOrigins: string[];
  captcha: boolean;
  /**
   * Check every answer's data against its route's response schema in the contract and answer a server error on a
   * mismatch (tests turn it on with CHECK_RESPONSES=1, so a server answer that drifts from the contract fails them).
   */
  checkResponses: boolean;
  adminAccount: string;
  adminPassword: string | null;
  demo: boolean;
  secretKey: string | null;
  systemTitle: string;
  projectTitle: string;
  copyright: string;
  supportPhone: string;
  /** The link of the top bar's app download QR code (spec §2); empty: the console's own address. */
  appDownloadUrl: string;
  /**
   * A third-party weather provider (WEATHER_URL): a URL template with {lat} and {lon}, filled with a site's
   * coordinates for the weather widget; null: the weather comes from the site's own sensors only.
   */
  weatherUrl: string | null;
  platformType: string;
  webDist: string | null;
  logLevel: string;
  /** Idle time after which a session ends (spec §9: 2 hours). */
  sessionIdleMs: number;
  /** Absolute lifetime of a session from its login, however active it is. */
  sessionMaxMs: number;
  /** Password evaluations per minute one client address may use (a token bucket; 0: no limit). */
  loginRatePerMinute: number;
  /** Fastify's trustProxy: false (default: trust no X-Forwarded-For), true, or addresses/CIDRs of trusted proxies. */
  trustProxy: boolean | string[];
  /** Sustained readings per second one device may send (a burst of 10 s worth is allowed). */
  ingestDeviceRate: number;
  /** Readings waiting for the writer at most before producers are held back. */
  ingestMaxQueue: number;
  /** Months of raw readings kept (0: keep all). Rollups are kept. */
  retentionMonths: number;
  /** Offline hours for devices that have none set. */
  defaultOfflineHours: number;
  /** Alert mail: SMTP server (smtp://user:pass@host:port, smtps://...) and sender; null: mail is not sent. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Alert SMS and voice gateways (POST JSON {to, templateCode, text, language}), with a bearer token. */
  smsGatewayUrl: string | null;
  voiceGatewayUrl: string | null;
  gatewayToken: string | null;
  /** Notification attempts before a message is marked failed, and the first retry delay (doubling each time). */
  notifyMaxAttempts: number;
  notifyRetryMs: number;
  /**
   * The system time zone (TIME_ZONE, IANA name; default the machine's): the calendar of buckets, "today" and
   * times in messages for users without a zone of their own.
   */
  timeZone: string;
  /** Deprecated (NOTIFY_TIME_ZONE): when set, the zone of {time} in every alert message, whoever receives it. */
  notifyTimeZone: string | null;
  /** Days a finished job (its result and files) and an unused upload are kept before the purge removes them. */
  jobResultDays: number;
  /** Background jobs run at the same time by one server process (1 or 2; the embedded database runs 1). */
  jobConcurrency: number;
  /** Imported readings older than this many hours are stored and rolled up but not judged by the alert rules. */
  importSilentHours: number;
  /** Largest 3D model file accepted (THREE_D_MAX_MODEL_MB, default 200). */
  threeDMaxModelBytes: number;
  /** Largest panorama image accepted (PANORAMA_MAX_MB, default 40). */
  panoramaMaxBytes: number;
  /**
   * How often report schedules are looked at (REPORT_SCHEDULE_TICK_SECONDS, default 30): a scheduled report is
   * started at most this long after its due time. Report job files are kept JOB_RESULT_DAYS.
   */
  reportScheduleTickMs: number;
  /** Cameras and live video (README "Cameras and live video"). */
  camera: CameraConfig;
}

export interface CameraConfig {
  /** Live streams open at once in the whole system (CAMERA_MAX_STREAMS, default 32) and per user (default 16). */
  maxStreams: number;
  maxStreamsPerUser: number;
  /** How long a signed stream address is valid (CAMERA_STREAM_URL_MINUTES, default 10). */
  streamUrlMs: number;
  /** A stream nobody fetched for this long is stopped (CAMERA_IDLE_SECONDS, default 20). */
  idleMs: number;
  /** The ffmpeg binary (FFMPEG, default ffmpeg on the PATH). */
  ffmpeg: string;
  /**
   * Seconds of each camera recorded when an alert fires on its site, from the alert on (CAMERA_ALERT_CLIP_SECONDS,
   * default 10, at most 300; 0: no clip, the snapshot only).
   */
  alertClipSeconds: number;
  /**
   * An external media server (MediaMTX, ZLMediaKit) instead of the server's own ffmpeg remux: CAMERA_MEDIA_SERVER
   * is an HLS address template with {camera} (the camera id), e.g. http://media:8888/cam{camera}/index.m3u8.
   */
  mediaServer: string | null;
}

const on = (v: string | undefined, dflt: boolean): boolean =>
  v === undefined || v === '' ? dflt : !['off', '0', 'false', 'no'].includes(v.toLowerCase());

/** A number setting that is not a number, or below its minimum, stops the start with a clear message. */
function atLeast(name: string, v: string | undefined, dflt: number, min: number): number {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name}: expected a number of at least ${min}, got "${v}"`);
  return n;
}

/**
 * TRUST_PROXY: unset/off = trust no proxy; true = any peer; else a comma list of the proxies' addresses/CIDRs.
 * A hop count is refused: Fastify 5 trusts nothing with one, as it cannot tell a proxy from a direct client.
 */
export function parseTrustProxy(v: string | undefined): boolean | string[] {
  const s = (v ?? '').trim();
  if (s === '' || ['off', 'false', 'no', '0'].includes(s.toLowerCase())) return false;
  if (['on', 'true', 'yes'].includes(s.toLowerCase())) return true;
  if (/^\d+$/.test(s))
    throw new Error('TRUST_PROXY: give true or the addresses/CIDRs of the proxies (a hop count is not supported)');
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

/** An IANA time zone setting (unset: null); a name that is not a time zone stops the start with a clear message. */
function zoneSetting(env: NodeJS.ProcessEnv, name: 'TIME_ZONE' | 'NOTIFY_TIME_ZONE'): string | null {
  const v = env[name]?.trim();
  if (!v) return null;
  if (!isTimeZone(v)) throw new Error(`${name}=${v} is not an IANA time zone name (e.g. Asia/Shanghai, UTC)`);
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const here = path.dirname(new URL(import.meta.url).pathname);
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || null,
    mqttPort: Number(env.MQTT_PORT ?? 1883),
    mqttUrl: env.MQTT_URL || null,
    mqttClientId: env.MQTT_CLIENT_ID || 'geosentry-ingest',
    mqttMaxPacketBytes: Number(env.MQTT_MAX_PACKET_BYTES || 256 * 1024),
    mqttConnectTimeoutMs: Number(env.MQTT_CONNECT_TIMEOUT_SECONDS || 10) * 1000,
    mqttMaxConnectionsPerIp: Number(env.MQTT_MAX_CONNECTIONS_PER_IP || 100),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, '').toLowerCase())
      .filter(Boolean),
    captcha: on(env.CAPTCHA, true),
    checkResponses: on(env.CHECK_RESPONSES, false),
    adminAccount: env.ADMIN_ACCOUNT || 'admin',
    adminPassword: env.ADMIN_PASSWORD || null,
    demo: on(env.DEMO, true),
    secretKey: env.SECRET_KEY || null,
    systemTitle: env.SYSTEM_TITLE || 'Geosentry',
    projectTitle: env.PROJECT_TITLE || '',
    copyright: env.COPYRIGHT || `© ${new Date().getFullYear()} Geosentry`,
    supportPhone: env.SUPPORT_PHONE || '400-000-0000',
    appDownloadUrl: env.APP_DOWNLOAD_URL?.trim() ?? '',
    weatherUrl: env.WEATHER_URL?.trim() || null,
    platformType: env.PLATFORM_TYPE || 'disaster',
    webDist: env.WEB_DIST === '' ? null : path.resolve(env.WEB_DIST ?? path.join(here, '../../web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    sessionIdleMs: Number(env.SESSION_IDLE_MINUTES ?? 120) * 60_000,
    sessionMaxMs: atLeast('SESSION_MAX_HOURS', env.SESSION_MAX_HOURS, 12, 0.001) * 3600_000,
    loginRatePerMinute: atLeast('LOGIN_RATE_PER_MINUTE', env.LOGIN_RATE_PER_MINUTE, 20, 0),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    ingestDeviceRate: Number(env.INGEST_DEVICE_RATE ?? 200),
    ingestMaxQueue: Number(env.INGEST_MAX_QUEUE ?? 50_000),
    retentionMonths: Number(env.RETENTION_MONTHS ?? 0),
    defaultOfflineHours: Number(env.DEFAULT_OFFLINE_HOURS ?? 24),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Geosentry <alerts@localhost>',
    smsGatewayUrl: env.SMS_GATEWAY_URL || null,
    voiceGatewayUrl: env.VOICE_GATEWAY_URL || null,
    gatewayToken: env.GATEWAY_TOKEN || null,
    notifyMaxAttempts: Number(env.NOTIFY_MAX_ATTEMPTS ?? 6),
    notifyRetryMs: Number(env.NOTIFY_RETRY_SECONDS ?? 30) * 1000,
    timeZone: zoneSetting(env, 'TIME_ZONE') ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
    notifyTimeZone: zoneSetting(env, 'NOTIFY_TIME_ZONE'),
    jobResultDays: atLeast('JOB_RESULT_DAYS', env.JOB_RESULT_DAYS, 7, 0.001),
    jobConcurrency: Math.min(2, atLeast('JOB_CONCURRENCY', env.JOB_CONCURRENCY, 1, 1)),
    importSilentHours: atLeast('IMPORT_SILENT_HOURS', env.IMPORT_SILENT_HOURS, 24, 0),
    threeDMaxModelBytes: Math.round(
      atLeast('THREE_D_MAX_MODEL_MB', env.THREE_D_MAX_MODEL_MB, 200, 0.001) * 1024 * 1024,
    ),
    panoramaMaxBytes: Math.round(atLeast('PANORAMA_MAX_MB', env.PANORAMA_MAX_MB, 40, 0.001) * 1024 * 1024),
    reportScheduleTickMs: atLeast('REPORT_SCHEDULE_TICK_SECONDS', env.REPORT_SCHEDULE_TICK_SECONDS, 30, 0.05) * 1000,
    camera: {
      maxStreams: atLeast('CAMERA_MAX_STREAMS', env.CAMERA_MAX_STREAMS, 32, 1),
      maxStreamsPerUser: atLeast('CAMERA_MAX_STREAMS_PER_USER', env.CAMERA_MAX_STREAMS_PER_USER, 16, 1),
      streamUrlMs: atLeast('CAMERA_STREAM_URL_MINUTES', env.CAMERA_STREAM_URL_MINUTES, 10, 0.1) * 60_000,
      idleMs: atLeast('CAMERA_IDLE_SECONDS', env.CAMERA_IDLE_SECONDS, 20, 1) * 1000,
      ffmpeg: env.FFMPEG || 'ffmpeg',
      alertClipSeconds: Math.min(
        300,
        Math.round(atLeast('CAMERA_ALERT_CLIP_SECONDS', env.CAMERA_ALERT_CLIP_SECONDS, 10, 0)),
      ),
      mediaServer: env.CAMERA_MEDIA_SERVER?.trim() || null,
    },
    ...overrides,
  };
}
