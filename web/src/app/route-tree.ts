import { matchPath } from 'react-router-dom';
import type { AppRoute } from './route-types.ts';
import { hasAnyRole, type SessionSnapshot } from '../shared/session.ts';

/** A route of the tree with its absolute path and its ancestors (outermost first, itself last). */
export interface RouteNode {
  route: AppRoute;
  fullPath: string;
  chain: RouteNode[];
  children: RouteNode[];
}

export function joinPath(parent: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/+$/, '')}/${path}`.replace(/\/{2,}/g, '/');
}

/**
 * Keeps the routes the user may open (spec §2): a route with roles needs at least one of them,
 * applied recursively; routes without roles show to everyone. A group left with no child is dropped.
 */
export function filterRoutes(routes: readonly AppRoute[], session: SessionSnapshot): AppRoute[] {
  const out: AppRoute[] = [];
  for (const r of routes) {
    if (!hasAnyRole(r.roles, session)) continue;
    if (r.hiddenForPlatformTypes && session.platformType && r.hiddenForPlatformTypes.includes(session.platformType))
      continue;
    if (r.children) {
      const children = filterRoutes(r.children, session);
      if (children.length === 0 && !r.element) continue;
      out.push({ ...r, children });
    } else out.push(r);
  }
  return out;
}

/** Builds the node tree with absolute paths. */
export function buildNodes(routes: readonly AppRoute[], parent: RouteNode | null = null): RouteNode[] {
  return routes.map((route) => {
    const node: RouteNode = { route, fullPath: joinPath(parent?.fullPath ?? '/', route.path), chain: [], children: [] };
    node.chain = [...(parent?.chain ?? []), node];
    node.children = buildNodes(route.children ?? [], node);
    return node;
  });
}

export function flattenNodes(nodes: readonly RouteNode[]): RouteNode[] {
  return nodes.flatMap((n) => [n, ...flattenNodes(n.children)]);
}

/** The node whose path matches the pathname (route parameters allowed), most specific first. */
export function findNode(nodes: readonly RouteNode[], pathname: string): RouteNode | null {
  const all = flattenNodes(nodes);
  const exact = all.find((n) => n.fullPath === pathname);
  if (exact) return exact;
  return all.find((n) => matchPath({ path: n.fullPath, end: true }, pathname)) ?? null;
}

/** A screen that renders something (has an element). */
export const isScreen = (n: RouteNode): boolean => Boolean(n.route.element);

/** The first screen shown in the menu, depth first; falls back to hidden screens. */
export function firstScreen(nodes: readonly RouteNode[]): RouteNode | null {
  const all = flattenNodes(nodes).filter((n) => isScreen(n) && !/[:*]/.test(n.fullPath));
  return all.find((n) => !n.chain.some((c) => c.route.hidden)) ?? all[0] ?? null;
}

/** Where a group path goes: its declared redirect when permitted, otherwise its first permitted child screen. */
export function groupTarget(node: RouteNode): string | null {
  if (node.route.redirect) {
    const target = joinPath(node.fullPath, node.route.redirect);
    if (flattenNodes(node.children).some((c) => c.fullPath === target && isScreen(c))) return target;
  }
  return firstScreen(node.children)?.fullPath ?? null;
}
