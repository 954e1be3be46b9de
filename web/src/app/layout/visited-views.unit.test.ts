import { describe, expect, it } from 'vitest';
import type { RouteNode } from '../route-tree.ts';
import { MAX_LIVE_VIEWS, evict, parseTabs, reducer, serializeTabs, type TabsState } from './visited-views.ts';

const Screen = (): null => null;

function node(fullPath: string, extra: Partial<RouteNode['route']> = {}): RouteNode {
  const n: RouteNode = {
    route: { path: fullPath, titleKey: `t:${fullPath}`, element: Screen, ...extra },
    fullPath,
    chain: [],
    children: [],
  };
  n.chain = [n];
  return n;
}

const visit = (s: TabsState, path: string, search = '', extra: Partial<RouteNode['route']> = {}): TabsState =>
  reducer(s, { type: 'visit', node: node(path, extra), path, search });

const live = (s: TabsState, active: string): string[] =>
  s.views.filter((v) => v.mounted && (!v.noCache || v.path === active)).map((v) => v.path);

describe('visited views', () => {
  it('keeps at most 10 views mounted, the least recently used leaving first, every tab listed', () => {
    let s: TabsState = { owner: 'u', views: [] };
    for (let i = 0; i < 12; i++) s = visit(s, `/s${i}`);
    expect(s.views).toHaveLength(12);
    expect(live(s, '/s11')).toEqual(['/s2', '/s3', '/s4', '/s5', '/s6', '/s7', '/s8', '/s9', '/s10', '/s11']);
    // Using /s2 again makes /s3 the least recently used.
    s = visit(s, '/s2');
    s = visit(s, '/s0');
    expect(live(s, '/s0')).toHaveLength(MAX_LIVE_VIEWS);
    expect(live(s, '/s0')).toEqual(expect.arrayContaining(['/s0', '/s2']));
    expect(live(s, '/s0')).not.toContain('/s3');
  });

  it('never evicts the active view, and does not count a noCache view that is not shown', () => {
    let s: TabsState = { owner: 'u', views: [] };
    s = visit(s, '/once', '', { noCache: true });
    for (let i = 0; i < MAX_LIVE_VIEWS; i++) s = visit(s, `/s${i}`);
    expect(live(s, '/s9')).toHaveLength(MAX_LIVE_VIEWS);
    expect(
      evict(s.views, '/s0', 1)
        .filter((v) => v.mounted && !v.noCache)
        .map((v) => v.path),
    ).toEqual(['/s0']);
  });

  it('unmounts the view of a closed tab', () => {
    let s: TabsState = { owner: 'u', views: [] };
    s = visit(s, '/a');
    s = visit(s, '/b');
    s = reducer(s, { type: 'close', path: '/a' });
    expect(s.views.map((v) => v.path)).toEqual(['/b']);
  });

  it('stores where each tab leads and restores only the screens the user may open, none mounted', () => {
    let s: TabsState = { owner: 'u', views: [] };
    s = visit(s, '/home', '', { affix: true });
    s = visit(s, '/system/user', '?page=2&sort=name');
    s = visit(s, '/system/role');
    const raw = serializeTabs(s.views);
    const permitted = new Map([
      ['/home', node('/home', { affix: true })],
      ['/system/user', node('/system/user')],
    ]);
    const restored = parseTabs(raw, (p) => permitted.get(p) ?? null);
    expect(restored.map((v) => [v.path, v.search, v.mounted, v.affix])).toEqual([
      ['/home', '', false, true],
      ['/system/user', '?page=2&sort=name', false, false],
    ]);
    expect(restored[1]!.titleKey).toBe('t:/system/user');
  });

  it('ignores stored tabs it cannot read', () => {
    const any = (): RouteNode => node('/x');
    expect(parseTabs(null, any)).toEqual([]);
    expect(parseTabs('{not json', any)).toEqual([]);
    expect(parseTabs('{"path":"/x"}', any)).toEqual([]);
    expect(parseTabs('[{"path":"x"},{"path":5},null,{"path":"/x","search":"bad"},{"path":"/x"}]', any)).toEqual([
      expect.objectContaining({ path: '/x', search: '' }),
    ]);
  });
});
