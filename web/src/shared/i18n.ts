import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@geosentry/contract';
import { BOOT_NAMESPACES } from './boot-namespaces.ts';

/**
 * One catalogue per language and feature: src/locales/<lang>/<feature>.json, each used as the
 * i18next namespace <feature>. Keys are static: `area.phrase` inside the namespace.
 *
 * Only the active language is loaded: the catalogues are imported lazily (the build groups each language into
 * two chunks, see vite.config.ts): the boot ones (BOOT_NAMESPACES) before anything renders, the others with the
 * console's layout (loadCatalogues), another language's when the user switches.
 */
type Catalogue = Record<string, unknown>;
const files = import.meta.glob<{ default: Catalogue }>('../locales/*/*.json');
const loaders: Record<string, Array<[string, () => Promise<{ default: Catalogue }>]>> = {};
for (const [file, load] of Object.entries(files)) {
  const m = /locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
  if (!m) continue;
  const [, lang, ns] = m as unknown as [string, string, string];
  (loaders[lang] ??= []).push([ns, load]);
}
const NAMESPACES = (loaders.en ?? []).map(([ns]) => ns);

/** Whether the console (not only a public page) has asked for the catalogues: a language switch then loads all. */
let allWanted = false;
const loading = new Map<string, Promise<void>>();
/** Loads a language's catalogues into i18next, the boot ones or all (once; later calls share the first load). */
function loadLanguage(lang: Language, all = allWanted): Promise<void> {
  const key = `${lang}:${all ? 'all' : 'boot'}`;
  let p = loading.get(key);
  if (!p) {
    p = Promise.all(
      (loaders[lang] ?? [])
        .filter(([ns]) => all || BOOT_NAMESPACES.includes(ns))
        .map(async ([ns, load]) => {
          i18n.addResourceBundle(lang, ns, (await load()).default, true, true);
        }),
    ).then(() => undefined);
    p.catch(() => loading.delete(key)); // a failed load (network) is tried again next time
    loading.set(key, p);
  }
  return p;
}

/** Every catalogue of the active language: the console's layout waits for it before it renders (app/router.tsx). */
export function loadCatalogues(): Promise<void> {
  allWanted = true;
  return loadLanguage(currentLanguage(), true);
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
await loadLanguage(initial, false);
document.documentElement.lang = initial;

export default i18n;
