import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MONITOR_TYPES,
  monitorTypeLabel,
  monitorTypeOf,
  quantitiesOf,
  type MonitorTypeLabels,
  type QuantityDef,
} from '@geosentry/contract';

type Lang = keyof MonitorTypeLabels;
const asLang = (l: string): Lang => (l === 'zh' || l === 'ko' ? l : 'en');

export interface MonitorTypeCatalogue {
  lang: Lang;
  /** The monitor type's label in the current language ('#id' for an unknown id). */
  label: (moduleId: number | null | undefined) => string;
  /** Select options of every monitor type, labelled "label (id)". */
  options: { value: number; label: string }[];
  /** The quantities of a monitor type with their labels in the current language. */
  quantities: (moduleId: number | null | undefined) => (QuantityDef & { text: string })[];
}

/** The monitor type catalogue of the contract (spec §1), in the language the console is shown in. */
export function useMonitorTypes(): MonitorTypeCatalogue {
  const { i18n } = useTranslation();
  const lang = asLang(i18n.language);
  return useMemo(
    () => ({
      lang,
      label: (id) => (id === null || id === undefined ? '-' : monitorTypeLabel(id, lang) || `#${id}`),
      options: MONITOR_TYPES.map((m) => ({ value: m.moduleId, label: `${m.label[lang]} (${m.moduleId})` })),
      quantities: (id) =>
        id === null || id === undefined || !monitorTypeOf(id)
          ? []
          : quantitiesOf(id).map((q) => ({ ...q, text: q.label[lang] })),
    }),
    [lang],
  );
}
