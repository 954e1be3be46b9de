/**
 * The catalogues (src/locales/<lang>/<ns>.json) the public pages (login, 404) and the shell's messages use. They
 * load first, in a chunk of their own (web/vite.config.ts); the others load with the console's layout
 * (loadCatalogues in i18n.ts), so the login page does not download the words of forty screens.
 */
export const BOOT_NAMESPACES: readonly string[] = ['common', 'session'];
