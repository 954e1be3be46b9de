/**
 * Asks at once for the files the start needs, instead of as each import is found: first the active language's boot
 * catalogues (i18n awaits them before anything renders), then, on a signed-in start, the console's chunks, its
 * catalogues and the screens' titles, and home's chunks and CSS on a start on home; on a start without a session, the
 * login page's. The build lists the files in <meta name="gs-preload-..."> (web/vite.config.ts, plugin
 * consolePreload) and puts this script first in the head: a classic script, copied as it is (web/public), not
 * bundled, so it runs while the page is parsed, before the entry's modules load (the page's policy allows no inline
 * script).
 */
(() => {
  const listed = (name) => document.querySelector(`meta[name="${name}"]`)?.content.split(' ').filter(Boolean) ?? [];
  const ask = (files, as) => {
    for (const href of files) {
      const link = document.createElement('link');
      if (as === 'style') {
        link.rel = 'preload';
        link.as = 'style';
        link.crossOrigin = ''; // as vite's own stylesheet link, so the one request serves both
      } else link.rel = 'modulepreload';
      link.href = href;
      document.head.appendChild(link);
    }
  };

  /**
   * The API answers a signed-in start needs first, asked for now, while the entry's modules load and run (half a
   * second on a busy two-core machine), with the headers shared/api.ts sends; request() takes each one once, for
   * the same URL and headers, within a few seconds of the start (takeEarly). An URL guessed wrong is never taken.
   */
  const askEarly = (lang, home, hash) => {
    const token = localStorage.getItem('token');
    const headers = { language: lang, token };
    const early = new Map();
    // The body is read at once: an answer the page never takes (it went to another screen) is not left open.
    const get = (url) =>
      early.set(url, {
        headers,
        response: fetch(url, { headers }).then((r) =>
          r.text().then((body) => new Response(body, { status: r.status, headers: r.headers })),
        ),
      });
    get('/api/v2/manage/user/getUserInfo');
    get('/api/v2/manage/system/getPublicConfig');
    get('/api/v2/data/alert/getCounts');
    if (home) {
      // The zone as shared/session.ts and shared/time.ts take it: the user's, else the browser's.
      let zone;
      try {
        zone = JSON.parse(localStorage.getItem('userInfo') || 'null')?.user?.timeZone;
      } catch {
        zone = undefined;
      }
      zone = zone || Intl.DateTimeFormat().resolvedOptions().timeZone;
      const region = new URLSearchParams(hash.split('?')[1] || '').get('regionCode');
      const params = new URLSearchParams(region ? { regionCode: region, timeZone: zone } : { timeZone: zone });
      get(`/api/v2/data/dashboard/getHome?${params}`);
      get('/api/v2/data/information/region/getTree');
    }
    window.__gsEarly = early;
  };

  try {
    const hash = location.hash;
    // The language as shared/i18n.ts detects it (not imported: this script runs before the entry's modules).
    const stored = localStorage.getItem('language');
    const browser = (navigator.language || '').slice(0, 2).toLowerCase();
    const lang =
      stored === 'zh' || stored === 'ko' || stored === 'en'
        ? stored
        : browser === 'zh' || browser === 'ko'
          ? browser
          : 'en';
    ask(listed(`gs-preload-boot-${lang}`));
    // Signed in as app/guards.tsx sees it: a token and a user name.
    const signedIn = Boolean(localStorage.getItem('token') && localStorage.getItem('userName'));
    if (!signedIn) {
      if (/^#\/404\b/.test(hash)) return;
      ask(listed('gs-preload-login-css'), 'style');
      ask(listed('gs-preload-login'));
    } else if (!/^#\/(login|404|digitalGallery)\b/.test(hash)) {
      const home = /^(#\/?(home)?)?([?].*)?$/.test(hash);
      if (home) ask(listed('gs-preload-home-css'), 'style');
      ask(listed('gs-preload-console-css'), 'style');
      ask(listed('gs-preload-console'));
      ask(listed(`gs-preload-console-${lang}`));
      if (home) ask(listed('gs-preload-home'));
      askEarly(lang, home, hash);
    }
  } catch {
    // No storage (private mode): the page loads its code as it finds it, as without this.
  }
})();
