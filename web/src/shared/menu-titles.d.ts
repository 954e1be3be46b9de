/** Every screen's title in one language, by namespace (web/vite.config.ts, plugin menuTitles). */
declare module 'virtual:menu-titles/*' {
  const titles: Record<string, Record<string, unknown>>;
  export default titles;
}
