import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import type { Language } from '@geosentry/contract';

/**
 * The active language's locale of antd (pickers, pagination, empty states) and dayjs, loaded with the language,
 * not all three up front. English is antd's and dayjs' own default: nothing to load.
 */
const LOADERS: Record<Language, () => Promise<Locale | undefined>> = {
  en: () => Promise.resolve(undefined),
  zh: async () => {
    const [antd] = await Promise.all([import('antd/es/locale/zh_CN'), import('dayjs/locale/zh-cn')]);
    return antd.default;
  },
  ko: async () => {
    const [antd] = await Promise.all([import('antd/es/locale/ko_KR'), import('dayjs/locale/ko')]);
    return antd.default;
  },
};
const DAYJS: Record<Language, string> = { en: 'en', zh: 'zh-cn', ko: 'ko' };

const loaded = new Map<Language, Locale | undefined>();

/** Loads a language's antd and dayjs locales (once). */
export async function loadUiLocale(lang: Language): Promise<void> {
  if (!loaded.has(lang)) loaded.set(lang, await LOADERS[lang]());
}

/** Whether loadUiLocale(lang) has finished. */
export const hasUiLocale = (lang: Language): boolean => loaded.has(lang);

/** Makes a loaded language's locale the active one of dayjs; its antd locale, for ConfigProvider. */
export function activateUiLocale(lang: Language): Locale | undefined {
  dayjs.locale(DAYJS[lang]);
  return loaded.get(lang);
}
