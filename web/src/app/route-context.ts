import { createContext, useContext } from 'react';
import type { RouteNode } from './route-tree.ts';

/** The route nodes the signed-in user may open (built by the main layout from the route tree). */
export const PermittedRoutesContext = createContext<RouteNode[]>([]);

export function usePermittedRoutes(): RouteNode[] {
  return useContext(PermittedRoutesContext);
}
