import { describe, expect, it, vi } from 'vitest';

// The session module reads local storage and listens on window when it loads: stand-ins (node has neither).
vi.hoisted(() => {
  const m = new Map<string, string>();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    clear: () => m.clear(),
  };
  const g = globalThis as { window?: unknown; addEventListener?: unknown; removeEventListener?: unknown };
  g.addEventListener ??= () => undefined;
  g.removeEventListener ??= () => undefined;
  g.window ??= globalThis;
});
import { filterRoutes } from '../../app/route-tree.ts';
import type { SessionSnapshot } from '../../shared/session.ts';
import { threeDRoutes } from './routes.tsx';

const session = (platformType: string, permissions: string[]): SessionSnapshot => ({
  token: 't',
  userName: 'u',
  permissions,
  userInfo: null,
  platformType,
});
const paths = (s: SessionSnapshot): string[] =>
  filterRoutes(threeDRoutes, s).flatMap((g) => (g.children ?? []).map((c) => `${g.path}/${c.path}`));

describe('the /dimensional routes (spec §2)', () => {
  const all = ['threeDimensional', 'threeDimensional:show', 'threeDimensional:manage'];
  it('are there for other platform types, by permission', () => {
    expect(paths(session('disaster', all))).toEqual(['/dimensional/3D', '/dimensional/3DManage']);
    expect(paths(session('reservoir', ['threeDimensional', 'threeDimensional:show']))).toEqual(['/dimensional/3D']);
  });
  it('are absent for the bridge and sideslope platform types and without threeDimensional:show', () => {
    expect(paths(session('bridge', all))).toEqual([]);
    expect(paths(session('sideslope', all))).toEqual([]);
    expect(paths(session('disaster', ['index', 'monitor']))).toEqual([]);
  });
});
