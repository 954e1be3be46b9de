import { describe, expect, it } from 'vitest';
import { contractForBrowser } from './vite-contract.ts';

const SOURCE = `import { z } from 'zod';
import { routeTable, PUBLIC } from '../api/routes.ts';
import { loginBody } from './schemas.ts';

export const LEVELS = [1, 2, 3] as const;
export const NAME_MAX = 50;
export const userRow = z.object({ id: z.number(), name: z.string().max(NAME_MAX) });
const query = z.object({ page: z.number() });
export function helper(): number { return 1; }
export const usersRoutes = routeTable({
  list: { method: 'GET', path: '/api/users', permission: PUBLIC, query, response: z.array(userRow) },
  login: { method: 'POST', path: '/api/login', permission: PUBLIC, body: loginBody, tokenInQuery: true },
});
`;

describe('the contract as the browser build sees it', () => {
  const out = contractForBrowser(SOURCE, 'contract/src/users/index.ts')!;

  it('keeps method and path of each route and drops its schemas', () => {
    expect(out).toContain(
      "list: { method: 'GET', path: '/api/users', permission: PUBLIC, query: undefined, response: undefined }",
    );
    expect(out).toContain('body: undefined, tokenInQuery: true');
    expect(out).not.toContain('body: loginBody');
  });

  it('wraps each constant built by a call in an IIFE marked pure, and leaves literals and functions alone', () => {
    expect(out).toContain('export const userRow = /* @__PURE__ */ (() => (z.object(');
    expect(out).toContain('const query = /* @__PURE__ */ (() => (z.object({ page: z.number() })))();');
    expect(out).toContain('export const usersRoutes = /* @__PURE__ */ (() => (routeTable({');
    expect(out).toContain('export const NAME_MAX = 50;');
    expect(out).toContain('export function helper(): number { return 1; }');
  });

  it('evaluates to the same route table, less the schemas', async () => {
    // The transformed module, run with stand-ins for its imports: the routes keep method, path and flags.
    const js = out
      .replace(/^import .*$/gm, '')
      .replace(/ as const/g, '')
      .replace(/\(\): number/g, '()')
      .replace(/export /g, '');
    const z = new Proxy({}, { get: () => () => z });
    const run = new Function('z', 'routeTable', 'PUBLIC', 'loginBody', `${js}; return usersRoutes;`) as (
      ...a: unknown[]
    ) => Record<string, Record<string, unknown>>;
    const routes = run(z, (t: unknown) => t, 'public', {});
    expect(routes.list).toEqual({
      method: 'GET',
      path: '/api/users',
      permission: 'public',
      query: undefined,
      response: undefined,
    });
    expect(routes.login).toMatchObject({ method: 'POST', path: '/api/login', body: undefined, tokenInQuery: true });
  });

  it('leaves a module with nothing to change as it is', () => {
    expect(contractForBrowser('export function f(): number { return 1; }\n', 'a.ts')).toBeNull();
  });
});
