import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { AlertChannel, AlertEvent, AlertLevel } from '@geosentry/contract';
import { signLogin } from '@geosentry/contract';
import { ADMIN_PASSWORD, buildPlatform, tempDir, type TestApp } from '../../../test/harness.ts';
import { loadConfig, type Config } from '../../config.ts';
import { buildApp, type BuiltApp } from '../../app.ts';
import type { Db } from '../../platform/db/db.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';

/** Test fixtures of the notification feature: a local SMTP server, a local HTTP gateway, alert rows. */

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  body: string;
  headers: Record<string, string>;
}

function decodeWords(v: string): string {
  // Adjacent encoded words are joined without the whitespace between them (RFC 2047 §6.2).
  return v
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _cs: string, enc: string, text: string) => {
      if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => `%${h}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    });
}

function decodeQuotedPrintable(s: string): string {
  const joined = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses a single-part text message (what the mail channel sends). */
export function parseMail(raw: string): { subject: string; body: string; headers: Record<string, string> } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.slice(split + 4);
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (cte === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (cte === 'quoted-printable') body = decodeQuotedPrintable(body);
  return { subject: decodeWords(headers.subject ?? ''), body: body.replace(/\r\n$/, '').trim(), headers };
}

/** A local SMTP server that keeps every message it receives. */
export async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface GatewayRequest {
  at: number;
  path: string;
  authorization: string | undefined;
  body: { to: string; templateCode: string | null; text: string; language: string; channel: string };
  answered: number;
}

/** A local HTTP gateway that records what it receives; `status` decides the next answers (default 200). */
export async function startGateway(): Promise<{
  url: string;
  requests: GatewayRequest[];
  /** Answers to give, in order; when empty, `fallback`. */
  script: number[];
  fallback: { status: number };
  close(): Promise<void>;
}> {
  const requests: GatewayRequest[] = [];
  const script: number[] = [];
  const fallback = { status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = script.length ? script.shift()! : fallback.status;
      requests.push({
        at: Date.now(),
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as GatewayRequest['body'],
        answered: status,
      });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script,
    fallback,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until the check holds (or fails after the timeout). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition') {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Site {
  platformId: number;
  deviceId: number;
}

/** A site with a rain gauge (through the API). */
export async function siteWithGauge(t: TestApp, admin: string, name: string, n: string): Promise<Site> {
  const platformId = await buildPlatform(t, { type: 'disaster', name });
  const { terminalId } = await addTerminal(t, admin, platformId, `SN-${n}`);
  const deviceId = await addDevice(t, admin, deviceBody(platformId, terminalId, n));
  return { platformId, deviceId };
}

/**
 * Raises an alert the way the alerts service does: the alert row and the event's transaction listeners in one
 * transaction, then the after-commit listeners. Answers the event.
 */
export async function raiseAlert(
  built: Pick<BuiltApp, 'ctx' | 'alertEvents'>,
  db: Db,
  site: Site,
  o: {
    level: AlertLevel;
    groupId: number | null;
    channels: AlertChannel[];
    pushIntervalMinutes?: number;
    value?: number;
    threshold?: number;
    at?: string;
  },
): Promise<AlertEvent> {
  const at = o.at ?? new Date().toISOString();
  const event = await db.k.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('alerts')
      .values({
        platform_id: site.platformId,
        device_id: site.deviceId,
        quantity: 'rainfall',
        kind: 'single',
        family: `single:rainfall:threshold:${Math.random()}`,
        value_type: 'threshold',
        level: o.level,
        first_level: o.level,
        threshold: o.threshold ?? 30,
        first_value: o.value ?? 42.5,
        last_value: o.value ?? 42.5,
        first_at: at,
        last_at: at,
        evidence: '{}',
        group_id: o.groupId,
        channels: o.channels,
        push_interval_minutes: o.pushIntervalMinutes ?? 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ev: AlertEvent = {
      alertId: row.id,
      kind: 'raised',
      level: o.level,
      previousLevel: null,
      platformId: site.platformId,
      platformName: '',
      deviceId: site.deviceId,
      deviceName: '',
      deviceNumber: '',
      quantity: 'rainfall',
      ruleId: null,
      relationId: null,
      groupId: o.groupId,
      channels: o.channels,
      pushIntervalMinutes: o.pushIntervalMinutes ?? 0,
      valueType: 'threshold',
      value: o.value ?? 42.5,
      metric: o.value ?? 42.5,
      threshold: o.threshold ?? 30,
      at,
    };
    const names = await tx
      .selectFrom('platforms')
      .innerJoin('devices', 'devices.platform_id', 'platforms.id')
      .select(['platforms.name as p', 'devices.device_name as d', 'devices.number as n'])
      .where('devices.id', '=', site.deviceId)
      .executeTakeFirstOrThrow();
    ev.platformName = names.p;
    ev.deviceName = names.d;
    ev.deviceNumber = names.n;
    await built.alertEvents.emitTx(tx, ev);
    return ev;
  });
  built.alertEvents.emit(built.ctx, event);
  return event;
}

/** Escalates an alert (or records more hits at its level) the way the alerts service does. */
export async function updateAlert(
  built: Pick<BuiltApp, 'ctx' | 'alertEvents'>,
  db: Db,
  event: AlertEvent,
  o: { level?: AlertLevel; hits?: number; value?: number },
): Promise<AlertEvent | null> {
  const escalated = o.level !== undefined && o.level > event.level;
  const next: AlertEvent = {
    ...event,
    kind: 'escalated',
    previousLevel: event.level,
    level: o.level ?? event.level,
    value: o.value ?? event.value,
    at: new Date().toISOString(),
  };
  await db.k.transaction().execute(async (tx) => {
    await tx
      .updateTable('alerts')
      .set((eb) => ({
        level: next.level,
        count: eb('count', '+', o.hits ?? 1),
        last_value: next.value,
        last_at: next.at,
      }))
      .where('id', '=', event.alertId)
      .execute();
    if (escalated) await built.alertEvents.emitTx(tx, next);
  });
  if (!escalated) return null;
  built.alertEvents.emit(built.ctx, next);
  return next;
}

/** A server on a given database, with the harness's calls (enough of TestApp for the fixtures). */
export async function serverOn(db: { db: Db; url: string | null }, overrides: Partial<Config>, signIn = true) {
  const config = loadConfig(
    {},
    {
      dataDir: tempDir(),
      captcha: false,
      demo: false,
      adminPassword: ADMIN_PASSWORD,
      webDist: null,
      logLevel: 'silent',
      databaseUrl: db.url,
      mqttPort: -1,
      mqttUrl: null,
      ...overrides,
    },
  );
  const built = await buildApp(config, { db: db.db, logger: false });
  await built.app.ready();
  const api: TestApp['api'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { language: 'en', 'content-type': 'application/json' };
    if (opts.token) headers.token = opts.token;
    const res = await built.app.inject({
      method,
      url,
      query: opts.query,
      headers,
      payload: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    return res.json();
  };
  const login = signIn
    ? await api<{ token: string }>('POST', '/api/v2/manage/user/login', {
        body: { account: 'admin', ...signLogin(ADMIN_PASSWORD), flag: 1 },
      })
    : null;
  return { built, api, token: login?.data.token ?? '', t: { api, db: db.db } as unknown as TestApp };
}
