import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';

// Issue 15 (hygiene): a fuzzer found "server error" answers for hostile input (sort fields such as
// `constructor`, NUL bytes, lone surrogates, malformed dates, non-decimal ids). This walks every route of the API
// document as the super administrator and sends, field by field, hostile values in place of plausible ones: no
// answer may be a server error (envelope 500, or HTTP 5xx).

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
};
type Operation = {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

const HOSTILE: unknown[] = [
  'constructor',
  '__proto__',
  'a\u0000b',
  '\ud800',
  '0x10',
  '1e1',
  '-1',
  '99999999999999999999',
  '2026-02-31',
  '2026-13-01 25:61:61',
  "'; drop table users; --",
  '{"a":',
  '',
];
const HOSTILE_JSON: unknown[] = [...HOSTILE, -1, 1e308, 2 ** 53 + 1, 0.5, [null], {}, true];
/** Paging fields behave alike on every list: fuzzed on the first list only. */
const SHARED = new Set(['pageNum', 'pageSize', 'sortOrder']);

/** Routes whose success would end the fuzzing session or the server's own state. */
const SKIP = /logout|loginOut|updatePassword|resetPassword|\/login$|kickOut|\/delete|\/ws$/i;

/**
 * Four hostile values per field, taken in rotation over the whole run (every value is sent to many fields of
 * many routes; all of them to every field would be ~15,000 requests), plus the ones a field always gets.
 */
let rotation = 0;
function pick(values: unknown[], always: unknown[] = []): unknown[] {
  const out = [...always];
  for (let i = 0; i < 4; i++) out.push(values[rotation++ % values.length]);
  return out;
}

function plausible(s: JsonSchema | undefined): unknown {
  if (!s) return '1';
  if (s.enum?.length) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return plausible(alt.find((a) => a.type !== 'null') ?? alt[0]);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'integer':
      return 2_000_000_000;
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'fuzz';
  }
}

describe('fuzzing every route (security)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testApp();
    token = await t.token();
  });
  afterAll(() => t.close());

  it('answers no hostile input with a server error', { timeout: 600_000 }, async () => {
    const doc = (await t.raw('GET', '/api/docs/json')).json() as { paths: Record<string, Record<string, Operation>> };
    const failures: string[] = [];
    const jobs: Array<() => Promise<void>> = [];
    let sent = 0;
    const send = async (method: 'GET' | 'POST', path: string, query: Record<string, unknown>, body?: unknown) => {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) qs.append(k, typeof v === 'string' ? v : JSON.stringify(v));
      const url = `${path}${qs.size ? `?${qs.toString()}` : ''}`;
      const r = await t.raw(method, url, {
        token,
        ...(body !== undefined
          ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
          : {}),
      });
      sent++;
      let status: number | undefined;
      try {
        status = (r.json() as { status?: number }).status;
      } catch {
        status = undefined;
      }
      if (r.statusCode >= 500 || status === Status.serverError)
        failures.push(
          `${method} ${url} ${body === undefined ? '' : JSON.stringify(body).slice(0, 160)} -> ${r.statusCode}/${status}`,
        );
      if (status === Status.notLoggedIn || status === 1001 || status === 40004) token = await t.token();
    };
    const fuzzedShared = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (SKIP.test(path) || path.startsWith('/api/docs') || path.includes('{')) continue;
      for (const [m, op] of Object.entries(ops)) {
        const method = m.toUpperCase();
        if (method !== 'GET' && method !== 'POST') continue;
        const queryFields = (op.parameters ?? []).filter((p) => p.in === 'query');
        const base: Record<string, unknown> = {};
        for (const p of queryFields) base[p.name] = plausible(p.schema);
        const bodySchema = op.requestBody?.content?.['application/json']?.schema;
        const bodyBase: Record<string, unknown> = {};
        for (const [k, s] of Object.entries(bodySchema?.properties ?? {})) bodyBase[k] = plausible(s);
        for (const p of queryFields) {
          if (SHARED.has(p.name)) {
            if (fuzzedShared.has(p.name)) continue;
            fuzzedShared.add(p.name);
          }
          for (const h of pick(HOSTILE, p.name === 'sortField' ? ['constructor', '__proto__'] : []))
            jobs.push(() => send(method, path, { ...base, [p.name]: h }));
        }
        if (method === 'POST' && bodySchema) {
          for (const k of Object.keys(bodyBase)) {
            for (const h of pick(HOSTILE_JSON)) jobs.push(() => send(method, path, {}, { ...bodyBase, [k]: h }));
          }
          // Hostile keys, and a body that is not an object at all.
          for (const h of [{ 'a\u0000': 1 }, { '\ud800': 1 }, [1, 2], 'text', 5])
            jobs.push(() =>
              send(method, path, {}, typeof h === 'object' && !Array.isArray(h) ? { ...bodyBase, ...h } : h),
            );
        }
      }
    }
    // A few at a time: the answers are what is checked, not the server's speed.
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < jobs.length) await jobs[next++]!();
      }),
    );
    if (failures.length) console.warn(failures.join('\n'));
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });
});
