import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';

/**
 * A screen of the console, as features declare them (web/src/features/<feature>/routes.tsx).
 * The shell builds the router, the side menu, the breadcrumb and the tab titles from these.
 */
export interface AppRoute {
  /** Path segment relative to its parent group ('user'), or an absolute group path ('/system'). */
  path: string;
  /** i18n key with namespace, e.g. 'users:title'. */
  titleKey: string;
  icon?: ReactNode;
  /** Permission codes (spec §6 route role keys); shown only to holders of at least one. None: shown to everyone. */
  roles?: string[];
  /** Hidden from the side menu (still routable). */
  hidden?: boolean;
  /** Absent (not routable, not in the menu) when the deployment's platform type is one of these (spec §2). */
  hiddenForPlatformTypes?: readonly string[];
  /** Not kept alive when its tab is left (spec §2: views are cached unless noCache). */
  noCache?: boolean;
  /** A pinned tab that cannot be closed. */
  affix?: boolean;
  element?: LazyExoticComponent<ComponentType> | ComponentType;
  /**
   * The screen uses only the console's catalogues (shared/boot-namespaces.ts), so it renders before the others load.
   * Without it, the screen waits for every catalogue of the language.
   */
  consoleCatalogues?: boolean;
  /** Where the group path itself goes. */
  redirect?: string;
  children?: AppRoute[];
}
