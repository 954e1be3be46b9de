import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { signLogin, type Envelope } from '@geosentry/contract';
import { loadConfig, type Config } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { openDb, type Db } from '../src/platform/db/db.ts';
import { PG_ADMIN_URL, PG_TEST, copyPgliteTemplate, createFromPgTemplate } from './templateDb.ts';

export const ADMIN_PASSWORD = 'Admin-test-password-42';

export { PG_ADMIN_URL };

export function tempDir(prefix = 'gs-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A fresh database of the kind under test (TEST_DB=pglite|postgres), dropped by the returned function: empty,
 * or with `migrated` a copy of the migrated template (server/test/templateDb.ts; the app's own migrate() then
 * finds nothing to do, or applies only a migration added since the template was made).
 */
export interface FreshDb {
  db: Db;
  url: string | null;
  drop(): Promise<void>;
}

export async function freshDb(
  kind = process.env.TEST_DB ?? 'pglite',
  opts: { migrated?: boolean } = {},
): Promise<FreshDb> {
  if (kind === 'postgres') {
    const name = `${PG_TEST}${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
    if (opts.migrated) await createFromPgTemplate(name);
    else {
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
    }
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    const db = await openDb({ databaseUrl: url.toString(), dataDir: tempDir(), poolSize: 5 });
    return {
      db,
      url: url.toString(),
      async drop() {
        await db.close().catch(() => undefined);
        const a = new pg.Client({ connectionString: PG_ADMIN_URL });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  // A copy of a closed template folder (PGlite's initdb alone takes seconds), removed on drop.
  const dir = await copyPgliteTemplate(opts.migrated ? 'migrated' : 'empty');
  const db = await openDb({ databaseUrl: null, dataDir: dir });
  return {
    db,
    url: null,
    async drop() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  ctx: Awaited<ReturnType<typeof buildApp>>['ctx'];
  routes: Awaited<ReturnType<typeof buildApp>>['routes'];
  /** The whole built app (ingest service, MQTT side). */
  built: Awaited<ReturnType<typeof buildApp>>;
  db: Db;
  config: Config;
  close(): Promise<void>;
  /** GET/POST with JSON body or query, token and language headers; returns the envelope. */
  api<T = unknown>(
    method: 'GET' | 'POST',
    url: string,
    opts?: { token?: string | null; body?: unknown; query?: Record<string, string>; lang?: string; form?: boolean },
  ): Promise<Envelope<T>>;
  raw(
    method: 'GET' | 'POST',
    url: string,
    opts?: { token?: string | null; payload?: string | Buffer; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  login(
    account: string,
    password: string,
    extra?: Record<string, unknown>,
  ): Promise<Envelope<{ token: string; ticket?: string }>>;
  /** Logs in and returns the token, or throws. */
  token(account?: string, password?: string): Promise<string>;
}

/**
 * An app on a fresh copy of the migrated template, dropped by close(). With `on`, an app on that database and data
 * folder instead (as a server restarted with another configuration: same database, same secret), left open by
 * close().
 */
export async function testApp(
  overrides: Partial<Config> = {},
  on?: { fresh: FreshDb; dataDir: string },
): Promise<TestApp> {
  const fresh = on?.fresh ?? (await freshDb(undefined, { migrated: true }));
  const dataDir = on?.dataDir ?? tempDir();
  const config = loadConfig(
    {},
    {
      dataDir,
      captcha: false,
      checkResponses: true,
      demo: false,
      adminPassword: ADMIN_PASSWORD,
      webDist: null,
      logLevel: 'silent',
      databaseUrl: fresh.url,
      mqttPort: -1,
      mqttUrl: null,
      ...overrides,
    },
  );
  const built = await buildApp(config, { db: fresh.db, logger: false });
  await built.app.ready();
  const app = built.app;
  const t: TestApp = {
    app,
    ctx: built.ctx,
    routes: built.routes,
    built,
    db: fresh.db,
    config,
    async close() {
      await built.close();
      if (!on) await fresh.drop();
    },
    async raw(method, url, opts = {}) {
      return app.inject({
        method,
        url,
        payload: opts.payload,
        headers: { ...(opts.token ? { token: opts.token } : {}), ...(opts.headers ?? {}) },
      });
    },
    async api(method, url, opts = {}) {
      const headers: Record<string, string> = { language: opts.lang ?? 'en' };
      if (opts.token) headers.token = opts.token;
      let payload: string | undefined;
      if (opts.body !== undefined) {
        if (opts.form) {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          const f = new URLSearchParams();
          for (const [k, v] of Object.entries(opts.body as Record<string, unknown>)) {
            if (Array.isArray(v)) for (const x of v) f.append(k, String(x));
            else if (v !== undefined) f.append(k, String(v));
          }
          payload = f.toString();
        } else {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(opts.body);
        }
      }
      const res = await app.inject({ method, url, query: opts.query, headers, payload });
      return res.json();
    },
    async login(account, password, extra = {}) {
      return t.api('POST', '/api/v2/manage/user/login', {
        body: { account, ...signLogin(password), flag: 0, ...extra },
      });
    },
    async token(account = 'admin', password = ADMIN_PASSWORD) {
      const r = await t.login(account, password, { flag: 1 });
      if (r.status !== 0) throw new Error(`login failed: ${r.status} ${r.info}`);
      return r.data.token;
    },
  };
  return t;
}

/** Creates a user with a role (by code) and a data scope; returns its id. */
export async function buildUser(
  t: TestApp,
  adminToken: string,
  u: { account: string; password?: string; roleCode?: string; scopeAll?: boolean; platformIds?: number[] },
): Promise<number> {
  const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: adminToken });
  const role = roles.data.find((r) => r.code === (u.roleCode ?? 'user'));
  if (!role) throw new Error(`no role ${u.roleCode}`);
  const r = await t.api<{ id: number }>('POST', '/api/v2/manage/user/add', {
    token: adminToken,
    body: {
      account: u.account,
      password: u.password ?? 'Field-engineer-pass-1',
      name: u.account,
      roleId: role.id,
      scopeAll: u.scopeAll ?? false,
      platformIds: u.platformIds ?? [],
    },
  });
  if (r.status !== 0) throw new Error(`add user failed: ${r.status} ${r.info}`);
  return r.data.id;
}

/** Inserts a site directly (the registry feature adds its API). */
export async function buildPlatform(t: TestApp, p: { type: string; name: string }): Promise<number> {
  const r = await t.db.k
    .insertInto('platforms')
    .values({ type: p.type, name: p.name, description: null, manager: null, lon: null, lat: null, alt: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}
