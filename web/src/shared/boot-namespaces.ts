/**
 * Which catalogues (src/locales/<lang>/<ns>.json) load when. Each level is a chunk of its own per language
 * (web/vite.config.ts), only the active language's loaded (src/shared/i18n.ts):
 * - boot: the public pages (login, 404) and the request layer's messages, before anything renders;
 * - console: with the console's layout: what the layout (tabs, alert popup, user menu) and the home page use, plus
 *   every screen's title for the menu, tabs and breadcrumb (the virtual module `virtual:menu-titles/<lang>`, made at
 *   build time from the routes' titleKeys);
 * - the rest: when the first other screen opens (app/layout/ViewHost.tsx), so home does not download the words of
 *   forty screens.
 */
export const BOOT_NAMESPACES: readonly string[] = ['common', 'session'];
export const CONSOLE_NAMESPACES: readonly string[] = ['home', 'alerts', 'roles'];
