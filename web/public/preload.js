/**
 * A signed-in start (a token, not the login or 404 page) asks for the console's code at once, beside the entry's own
 * first steps (React, i18n, the boot catalogues), instead of after them; a start on home also asks for home's. The
 * build lists the chunks in <meta name="gs-preload-console"> and <meta name="gs-preload-home"> (web/vite.config.ts,
 * plugin consolePreload). A classic script at the end of index.html's body, copied as it is (web/public), not
 * bundled: it runs while the page is parsed, before the entry's modules run (bundled into the entry, it ran only
 * after the entry's imports, i18n's first catalogue load among them).
 */
(() => {
  const listed = (name) => document.querySelector(`meta[name="${name}"]`)?.content.split(' ').filter(Boolean) ?? [];

  try {
    const hash = location.hash;
    if (localStorage.getItem('token') && !/^#\/(login|404)\b/.test(hash)) {
      const home = /^(#\/?(home)?)?(\?.*)?$/.test(hash);
      // The language as shared/i18n.ts detects it (not imported: this module runs before the entry's others).
      const stored = localStorage.getItem('language');
      const browser = (navigator.language || '').slice(0, 2).toLowerCase();
      const lang =
        stored === 'zh' || stored === 'ko' || stored === 'en'
          ? stored
          : browser === 'zh' || browser === 'ko'
            ? browser
            : 'en';
      const files = [
        ...listed('gs-preload-console'),
        ...listed(`gs-preload-console-${lang}`),
        ...(home ? listed('gs-preload-home') : []),
      ];
      for (const href of files) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.href = href;
        document.head.appendChild(link);
      }
    }
  } catch {
    // No storage (private mode): the console loads its code when it needs it, as without this.
  }
})();
