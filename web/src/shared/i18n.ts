import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@geosentry/contract';
import { BOOT_NAMESPACES, CONSOLE_NAMESPACES } from './boot-namespaces.ts';

/**
 * One catalogue per language and feature: src/locales/<lang>/<feature>.json, each used as the
 * i18next namespace <feature>. Keys are static: `area.phrase` inside the namespace.
 *
 * Only the active language is loaded, in three steps (boot-namespaces.ts; the build makes a chunk of each per
 * language, see vite.config.ts): the boot catalogues before anything renders, the console's with its layout
 * (loadConsoleCatalogues), the rest when the first screen that needs them opens (loadCatalogues); another language's
 * when the user switches.
 */
type Catalogue = Record<string, unknown>;
type Level = 'boot' | 'console' | 'all';
const files = import.meta.glob<{ default: Catalogue }>('../locales/*/*.json');
const loaders: Record<string, Array<[string, () => Promise<{ default: Catalogue }>]>> = {};
for (const [file, load] of Object.entries(files)) {
  const m = /locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
  if (!m) continue;
  const [, lang, ns] = m as unknown as [string, string, string];
  (loaders[lang] ??= []).push([ns, load]);
}
const NAMESPACES = (loaders.en ?? []).map(([ns]) => ns);
/** Every screen's title (menu, tabs, breadcrumb), before the screens' own catalogues are there. */
const MENU_TITLES: Record<Language, () => Promise<{ default: Record<string, Catalogue> }>> = {
  en: () => import('virtual:menu-titles/en'),
  zh: () => import('virtual:menu-titles/zh'),
  ko: () => import('virtual:menu-titles/ko'),
};

const RANK: Record<Level, number> = { boot: 0, console: 1, all: 2 };
/** The most the page has asked for: a language switch loads as much of the new language. */
let wanted: Level = 'boot';
const loading = new Map<string, Promise<void>>();
/** Loads a language's catalogues of a level into i18next (once; later calls share the first load). */
function loadLanguage(lang: Language, level: Level = wanted): Promise<void> {
  const key = `${lang}:${level}`;
  let p = loading.get(key);
  if (!p) {
    const inLevel = (ns: string): boolean =>
      level === 'all' || BOOT_NAMESPACES.includes(ns) || (level === 'console' && CONSOLE_NAMESPACES.includes(ns));
    const parts: Array<Promise<void>> = (loaders[lang] ?? [])
      .filter(([ns]) => inLevel(ns))
      .map(async ([ns, load]) => {
        i18n.addResourceBundle(lang, ns, (await load()).default, true, true);
      });
    // The titles go into their own namespaces as partial bundles (deep merge: a namespace loaded whole keeps all).
    if (level === 'console')
      parts.push(
        MENU_TITLES[lang]().then(({ default: titles }) => {
          for (const [ns, bundle] of Object.entries(titles)) i18n.addResourceBundle(lang, ns, bundle, true, false);
        }),
      );
    p = Promise.all(parts).then(() => undefined);
    p.catch(() => loading.delete(key)); // a failed load (network) is tried again next time
    loading.set(key, p);
  }
  return p;
}

/** The console layout's and home page's catalogues and every screen's title (app/router.tsx waits for them). */
export function loadConsoleCatalogues(): Promise<void> {
  if (RANK[wanted] < RANK.console) wanted = 'console';
  return loadLanguage(currentLanguage(), 'console');
}

/** Every catalogue of the active language: a screen other than home waits for it (app/layout/ViewHost.tsx). */
export function loadCatalogues(): Promise<void> {
  wanted = 'all';
  return loadLanguage(currentLanguage(), 'all');
}

export const LANGUAGE_KEY = 'language';

/**
 * The language rules (spec §1): the stored choice wins; otherwise the browser language's first two
 * letters when it is en, zh or ko; otherwise English.
 */
export function detectLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (stored === 'en' || stored === 'zh' || stored === 'ko') return stored;
  const nav = (navigator.language || '').slice(0, 2).toLowerCase();
  return nav === 'zh' || nav === 'ko' ? nav : 'en';
}

export function setLanguage(lang: Language): void {
  localStorage.setItem(LANGUAGE_KEY, lang);
  void loadLanguage(lang).then(() => {
    void i18n.changeLanguage(lang);
    document.documentElement.lang = lang;
  });
}

export function currentLanguage(): Language {
  const l = i18n.language;
  return l === 'zh' || l === 'ko' ? l : 'en';
}

const initial = detectLanguage();
// The catalogues are added by loadLanguage; the first language is there before anything renders (top-level await).
await i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: initial,
  supportedLngs: ['en', 'zh', 'ko'],
  // Every language has every key (tools/locales.unit.test.ts), so no second language is loaded as a fallback.
  fallbackLng: false,
  defaultNS: 'common',
  ns: NAMESPACES,
  interpolation: { escapeValue: false },
  returnNull: false,
});
await loadLanguage(initial, 'boot');
document.documentElement.lang = initial;

export default i18n;
