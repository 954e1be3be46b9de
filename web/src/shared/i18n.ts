import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@geosentry/contract';

/**
 * One catalogue per language and feature: src/locales/<lang>/<feature>.json, each used as the
 * i18next namespace <feature>. Keys are static: `area.phrase` inside the namespace.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, mod] of Object.entries(files)) {
  const m = /locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
  if (!m) continue;
  const [, lang, ns] = m as unknown as [string, string, string];
  (resources[lang] ??= {})[ns] = mod.default;
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
  void i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

export function currentLanguage(): Language {
  const l = i18n.language;
  return l === 'zh' || l === 'ko' ? l : 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en ?? {}),
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = detectLanguage();

export default i18n;
