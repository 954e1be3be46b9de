import { useTranslation } from 'react-i18next';
import {
  MONITOR_TYPES,
  type AlertStatus,
  type DashboardAlert,
  type Language,
  type PlatformType,
  type SiteState,
} from '@geosentry/contract';
import { currentLanguage } from '../../../shared/i18n.ts';
import { formatValue } from '../../../shared/format.ts';

/** A quantity's label and unit in a language (a reading carries only its key): the first monitor type that has it. */
export function quantityOf(key: string, lang: Language): { label: string; unit: string } {
  for (const m of MONITOR_TYPES) {
    const q = m.quantities.find((x) => x.key === key);
    if (q) return { label: q.label[lang], unit: q.unit };
  }
  return { label: key, unit: '' };
}

/** A value with its unit ("12.5 mm"; "85%" for a percent). */
export function withUnit(v: number | null | undefined, unit: string): string {
  const text = formatValue(v);
  if (text === '-' || !unit) return text;
  return unit === '%' ? `${text}%` : `${text} ${unit}`;
}

/** The words of the big screen: its catalogue, and the labels of states, levels, kinds and quantities. */
export function useWords() {
  const { t } = useTranslation('bigScreen');
  const lang = currentLanguage();
  return {
    t,
    lang,
    state: (s: SiteState) => t(`state.${s}`),
    level: (l: number) => t(`level.${l}`),
    status: (s: AlertStatus) => t(`status.${s}`),
    type: (k: PlatformType) => t(`type.${k}`),
    quantity: (key: string) => quantityOf(key, lang),
    /** What an alert is about: "Crack width 12.5 mm (limit 10 mm)", or "Device offline". */
    alertText: (a: DashboardAlert): string => {
      if (a.kind === 'offline' || !a.quantity) return t('alert.offline');
      const q = quantityOf(a.quantity, lang);
      return t('alert.value', {
        quantity: q.label,
        value: withUnit(a.value, q.unit),
        threshold: withUnit(a.threshold, q.unit),
      });
    },
  };
}
export type Words = ReturnType<typeof useWords>;
