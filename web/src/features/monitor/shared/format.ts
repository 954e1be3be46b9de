import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { windDirectionName, type Language } from '@geosentry/contract';
import { useMonitorTypes } from '../../../shared/catalogue.ts';
import { isWindDirectionKey, isWindSpeedKey } from './wind.ts';

/** A reading value as shown: up to 3 decimals, '-' when missing. */
export function fmtValue(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-';
  return String(Math.round(v * 1000) / 1000);
}

/** The compass name (16 points) of a wind direction among a reading's values; '--' when its wind speed is 0. */
export function windName(angle: number, values: Record<string, number>, lang: Language): string {
  const speedKey = Object.keys(values).find(isWindSpeedKey);
  return windDirectionName(angle, 16, lang, speedKey ? values[speedKey] : undefined);
}

/** Labels and units of quantities in the current language; wind directions as compass names. */
export function useQuantityText() {
  const catalogue = useMonitorTypes();
  const { i18n } = useTranslation();
  const lang: Language = i18n.language === 'zh' || i18n.language === 'ko' ? i18n.language : 'en';
  return useMemo(() => {
    const meta = (moduleId: number, key: string) => {
      const q = catalogue.quantities(moduleId).find((x) => x.key === key);
      return { label: q?.text ?? key, unit: q?.unit ?? '' };
    };
    /** The value of a quantity with its unit; a wind direction with its compass name ('--' at speed 0). */
    const show = (moduleId: number, key: string, values: Record<string, number>, unit?: string): string => {
      const v = values[key];
      if (v === undefined) return '-';
      if (isWindDirectionKey(key)) {
        const name = windName(v, values, lang);
        return name === '--' ? '--' : `${name} (${fmtValue(v)}°)`;
      }
      const u = unit ?? meta(moduleId, key).unit;
      return u ? `${fmtValue(v)} ${u}` : fmtValue(v);
    };
    return { meta, show, lang, catalogue };
  }, [catalogue, lang]);
}
