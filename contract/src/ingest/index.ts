import { z } from 'zod';
import { PUBLIC, perm, routeTable } from '../api/routes.ts';

/**
 * The device contract (architecture.md §4). A terminal (data logger) publishes on MQTT topic
 * `devices/{deviceNumber}/readings`, authenticated as username = terminal id, password = its key, or
 * POSTs to /api/v2/ingest/readings with the same body. The body is one reading or an array of them:
 *   {"ts": "<ISO 8601>" | <epoch ms>, "values": {"<quantity>": <number>, ...}}
 * An HTTP batch may mix devices: an item may carry `"device": "<number>"` instead of the header.
 */
export const READING_TOPIC_PREFIX = 'devices/';
export const READING_TOPIC_SUFFIX = '/readings';
export const READING_TOPIC_FILTER = 'devices/+/readings';

export function readingTopic(deviceNumber: string): string {
  return `${READING_TOPIC_PREFIX}${deviceNumber}${READING_TOPIC_SUFFIX}`;
}

/** The device number in a reading topic, or null when the topic is not one. */
export function deviceOfTopic(topic: string): string | null {
  if (!topic.startsWith(READING_TOPIC_PREFIX) || !topic.endsWith(READING_TOPIC_SUFFIX)) return null;
  const n = topic.slice(READING_TOPIC_PREFIX.length, topic.length - READING_TOPIC_SUFFIX.length);
  return n && !n.includes('/') ? n : null;
}

/** Limits of one message. */
export const INGEST_LIMITS = {
  /** Readings in one message or request. */
  maxReadings: 1000,
  /** Quantities in one reading. */
  maxValues: 64,
  /** A timestamp may be at most this far ahead of the server clock (logger clocks drift). */
  maxFutureMs: 60 * 60_000,
  /** Earliest accepted timestamp. */
  minTs: Date.UTC(2000, 0, 1),
  /** Absolute value bound: anything larger is a broken sensor or a unit error. */
  maxAbsValue: 1e12,
} as const;

/** Why a message was refused (counted per reason; the HTTP answer names it). */
export const REJECT_REASONS = [
  'badJson',
  'badShape',
  'tooMany',
  'badTimestamp',
  'futureTimestamp',
  'noValues',
  'badValue',
  'unknownQuantity',
  'unknownDevice',
  'notYourDevice',
  'badCredentials',
  'rateLimited',
  'overloaded',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export interface ParsedReading {
  /** Device number given in the item (HTTP batches), else undefined. */
  device?: string;
  ts: number;
  values: Record<string, number>;
}

export type ParseResult = { ok: true; readings: ParsedReading[] } | { ok: false; reason: RejectReason; detail: string };

function fail(reason: RejectReason, detail: string): ParseResult {
  return { ok: false, reason, detail };
}

/** Parses a timestamp (ISO 8601 text or epoch milliseconds); NaN when it is neither. */
export function parseTs(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : NaN;
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v)) return Date.parse(v);
  if (typeof v === 'string' && /^\d{10,13}$/.test(v)) return Number(v);
  return NaN;
}

/**
 * Checks a decoded message against the device contract. Pure: the quantity check takes the set of
 * quantities allowed for the device (null: any well-formed name), `now` is the server clock.
 */
export function parseReadingPayload(
  body: unknown,
  opts: { now: number; allowDeviceField?: boolean } = { now: Date.now() },
): ParseResult {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) return fail('badShape', 'empty array');
  if (items.length > INGEST_LIMITS.maxReadings)
    return fail('tooMany', `${items.length} readings, at most ${INGEST_LIMITS.maxReadings}`);
  const out: ParsedReading[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as unknown;
    if (!it || typeof it !== 'object' || Array.isArray(it)) return fail('badShape', `item ${i} is not an object`);
    const o = it as Record<string, unknown>;
    const ts = parseTs(o.ts);
    if (!Number.isFinite(ts) || ts < INGEST_LIMITS.minTs) return fail('badTimestamp', `item ${i}: ts ${String(o.ts)}`);
    if (ts > opts.now + INGEST_LIMITS.maxFutureMs) return fail('futureTimestamp', `item ${i}: ts in the future`);
    const vals = o.values;
    if (!vals || typeof vals !== 'object' || Array.isArray(vals)) return fail('badShape', `item ${i}: values`);
    const keys = Object.keys(vals);
    if (keys.length === 0) return fail('noValues', `item ${i}: no values`);
    if (keys.length > INGEST_LIMITS.maxValues) return fail('tooMany', `item ${i}: ${keys.length} values`);
    const values: Record<string, number> = {};
    for (const k of keys) {
      if (!/^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(k)) return fail('unknownQuantity', `item ${i}: quantity name`);
      const v = (vals as Record<string, unknown>)[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > INGEST_LIMITS.maxAbsValue)
        return fail('badValue', `item ${i}: ${k} is not a finite number`);
      values[k] = v;
    }
    let device: string | undefined;
    if (o.device !== undefined) {
      if (!opts.allowDeviceField || typeof o.device !== 'string' || !o.device || o.device.length > 64)
        return fail('badShape', `item ${i}: device`);
      device = o.device;
    }
    out.push({ device, ts, values });
  }
  return { ok: true, readings: out };
}

export const ingestStatsSchema = z.object({
  accepted: z.number(),
  duplicates: z.number(),
  rejected: z.record(z.string(), z.number()),
  queued: z.number(),
  batches: z.number(),
});
export type IngestStats = z.infer<typeof ingestStatsSchema>;

/**
 * The data of an HTTP ingest answer: after commit, the readings stored and the duplicates skipped; when refused
 * (400, 401, 403, 429, 503), the reason and what was wrong.
 */
export const ingestAnswerSchema = z.union([
  z.object({ ok: z.literal(true), stored: z.number().int(), duplicates: z.number().int() }),
  z.object({ reason: z.enum(REJECT_REASONS), detail: z.string().optional() }),
]);
export type IngestAnswer = z.output<typeof ingestAnswerSchema>;

export const ingestRoutes = routeTable({
  ingestReadings: {
    method: 'POST',
    path: '/api/v2/ingest/readings',
    // Devices are not users: the terminal's id and key travel in the x-terminal-id / x-terminal-key headers.
    permission: PUBLIC,
    summary:
      'HTTP ingest (terminal id and key in x-terminal-id / x-terminal-key, device number in x-device-number or per item). 200 after commit; 400 bad payload; 401 bad credentials; 403 a device not bound to the terminal; 429 device rate limit; 503 overloaded (Retry-After).',
    tags: ['ingest'],
    response: ingestAnswerSchema,
  },
  ingestStats: {
    method: 'GET',
    path: '/api/v2/ingest/stats',
    permission: perm('monitor:dataProcessing'),
    summary: 'Ingest counters since start: accepted, duplicates, rejected per reason, queue length',
    tags: ['ingest'],
    response: ingestStatsSchema,
  },
});
