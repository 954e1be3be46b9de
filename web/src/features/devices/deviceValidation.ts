import type { FormRule as Rule } from 'antd';
import { DEVICE_NUMBER_PATTERN, deviceFields } from '@geosentry/contract';

/** Translates a key of the devices namespace. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

const ok = () => Promise.resolve();
const fail = (m: string) => Promise.reject(new Error(m));
const given = (v: unknown) => v !== null && v !== undefined && v !== '';

/** Client-side checks that mirror the server's (contract) rules, with the messages of spec §5. */
export const deviceRules = {
  deviceName: (t: Translate): Rule[] => [
    { required: true, whitespace: true, message: t('validation.nameRequired') },
    { max: 100, message: t('validation.tooLong', { max: 100 }) },
  ],
  number: (t: Translate): Rule[] => [
    { required: true, whitespace: true, message: t('validation.numberRequired') },
    {
      validator: (_r, v: string | undefined) =>
        !v || (DEVICE_NUMBER_PATTERN.test(v.trim()) && v.trim().length <= 64)
          ? ok()
          : fail(t('validation.numberPattern')),
    },
  ],
  ip: (t: Translate): Rule[] => [
    { required: true, whitespace: true, message: t('validation.ipRequired') },
    {
      validator: (_r, v: string | undefined) =>
        !v || deviceFields.ip.safeParse(v).success ? ok() : fail(t('validation.ipInvalid')),
    },
  ],
  port: (t: Translate): Rule[] => [
    { required: true, message: t('validation.portRequired') },
    {
      validator: (_r, v: number | null | undefined) =>
        !given(v) || (Number.isInteger(v) && v! >= 1 && v! <= 65535) ? ok() : fail(t('validation.portInvalid')),
    },
  ],
  terminal: (t: Translate): Rule[] => [{ required: true, message: t('validation.terminalRequired') }],
  site: (t: Translate): Rule[] => [{ required: true, message: t('validation.siteRequired') }],
  moduleId: (t: Translate): Rule[] => [{ required: true, message: t('validation.moduleRequired') }],
  offlineHours: (t: Translate): Rule[] => [
    {
      validator: (_r, v: number | null | undefined) =>
        !given(v) || (v! > 0 && v! <= 8760) ? ok() : fail(t('validation.offlineHoursInvalid')),
    },
  ],
  /** A number within bounds (inclusive), optional. */
  range: (t: Translate, min: number, max: number, integer = false): Rule[] => [
    {
      validator: (_r, v: number | null | undefined) =>
        !given(v) || (v! >= min && v! <= max && (!integer || Number.isInteger(v)))
          ? ok()
          : fail(t('validation.range', { min, max })),
    },
  ],
  positive: (t: Translate): Rule[] => [
    {
      validator: (_r, v: number | null | undefined) => (!given(v) || v! > 0 ? ok() : fail(t('validation.positive'))),
    },
  ],
  nonNegative: (t: Translate): Rule[] => [
    {
      validator: (_r, v: number | null | undefined) =>
        !given(v) || v! >= 0 ? ok() : fail(t('validation.nonNegative')),
    },
  ],
  stationType: (t: Translate): Rule[] => [{ required: true, message: t('validation.stationRequired') }],
  zoneWidth: (t: Translate): Rule[] => [
    {
      validator: (_r, v: number | null | undefined) =>
        !given(v) || v === 3 || v === 6 ? ok() : fail(t('validation.zoneWidth')),
    },
  ],
};

/** A parameter set (seven or four parameters) is given completely or not at all. */
export function completeSet(values: Record<string, unknown> | undefined, keys: readonly string[]): boolean {
  const filled = keys.filter((k) => given(values?.[k])).length;
  return filled === 0 || filled === keys.length;
}
