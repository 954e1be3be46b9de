import {
  ALERT_LEVEL_COLOURS,
  fillTemplate,
  isTimeZone,
  monitorTypeOf,
  quantitiesOf,
  type Language,
  type PerLanguageText,
  type TemplatePlaceholder,
} from '@geosentry/contract';

/** Pure message rendering: the alert's facts in the recipient's language, through a template. */

const LEVEL_NAMES: Record<number, Record<Language, string>> = {
  1: { en: 'Blue alert (level 1)', zh: '蓝色预警（1级）', ko: '청색 경보 (1단계)' },
  2: { en: 'Yellow alert (level 2)', zh: '黄色预警（2级）', ko: '황색 경보 (2단계)' },
  3: { en: 'Orange alert (level 3)', zh: '橙色预警（3级）', ko: '주황색 경보 (3단계)' },
  4: { en: 'Red alert (level 4)', zh: '红色预警（4级）', ko: '적색 경보 (4단계)' },
};

export function levelName(level: number, lang: Language): string {
  return LEVEL_NAMES[level]?.[lang] ?? `${ALERT_LEVEL_COLOURS[level as 1]?.name ?? ''} ${level}`.trim();
}

/** The built-in texts, used when neither the rule nor the colour level names a template and none is the default. */
export const BUILTIN_SUBJECT: Record<Language, string> = {
  en: '[{level}] {site} / {device}',
  zh: '【{level}】{site} / {device}',
  ko: '[{level}] {site} / {device}',
};
export const BUILTIN_CONTENT: Record<Language, string> = {
  en: '{level} at {site}: {device} {quantity} = {value} (threshold {threshold}) at {time}. {suggestion}',
  zh: '{site}发生{level}：{device} {quantity} = {value}（阈值 {threshold}），时间 {time}。{suggestion}',
  ko: '{site}에서 {level} 발생: {device} {quantity} = {value} (임계값 {threshold}), 시각 {time}. {suggestion}',
};

/** The facts of one alert event, language-neutral. */
export interface AlertFacts {
  level: number;
  siteName: string;
  deviceName: string;
  moduleId: number | null;
  quantity: string | null;
  value: number | string | null;
  threshold: number | string | null;
  at: Date;
  /** The colour level's suggestion per language. */
  suggestion: PerLanguageText;
}

/** A template's texts (subject per language, content per language). */
export interface TemplateTexts {
  subject: PerLanguageText;
  content: PerLanguageText;
}

/** The text of the language, else English, else the first given, else the fallback. */
export function pickLanguage(texts: PerLanguageText, lang: Language, fallback: string): string {
  return texts[lang] || texts.en || texts.zh || texts.ko || fallback;
}

function quantityLabel(moduleId: number | null, key: string | null, lang: Language): string {
  if (!key) return '';
  const q = moduleId !== null ? quantitiesOf(moduleId).find((x) => x.key === key) : undefined;
  if (!q) return key;
  return q.unit ? `${q.label[lang]} (${q.unit})` : q.label[lang];
}

function unitOf(moduleId: number | null, key: string | null): string {
  if (!key || moduleId === null || !monitorTypeOf(moduleId)) return '';
  return quantitiesOf(moduleId).find((x) => x.key === key)?.unit ?? '';
}

const num = (v: number | string | null, unit: string): string => {
  if (v === null || v === '') return '-';
  if (typeof v === 'number') {
    const s = Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
    return unit ? `${s} ${unit}` : s;
  }
  return v;
};

/** The zone a recipient reads {time} in: the zone of the user the recipient is, if any, else the system's. */
export function recipientZone(userZone: string | null | undefined, systemZone: string): string {
  return userZone && isTimeZone(userZone) ? userZone : systemZone;
}

/** yyyy-MM-dd HH:mm:ss in the given time zone, followed by the zone's name. */
export function formatTime(d: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '00';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')} ${timeZone}`;
}

/** The placeholder values in one language. */
export function placeholderValues(
  f: AlertFacts,
  lang: Language,
  timeZone: string,
): Record<TemplatePlaceholder, string> {
  const unit = unitOf(f.moduleId, f.quantity);
  return {
    site: f.siteName,
    device: f.deviceName,
    quantity: quantityLabel(f.moduleId, f.quantity, lang),
    value: num(f.value, unit),
    threshold: num(f.threshold, unit),
    level: levelName(f.level, lang),
    time: formatTime(f.at, timeZone),
    suggestion: pickLanguage(f.suggestion, lang, ''),
  };
}

/** Subject and body of the message for one recipient language. */
export function renderMessage(
  f: AlertFacts,
  tpl: TemplateTexts | null,
  lang: Language,
  timeZone: string,
): { subject: string; body: string } {
  const values = placeholderValues(f, lang, timeZone);
  const subject = pickLanguage(tpl?.subject ?? {}, lang, BUILTIN_SUBJECT[lang]);
  const content = pickLanguage(tpl?.content ?? {}, lang, BUILTIN_CONTENT[lang]);
  return {
    subject: fillTemplate(subject, values).replace(/\s+/g, ' ').trim(),
    body: fillTemplate(content, values).trim(),
  };
}

/** Retry delay after the given number of failed attempts: base · 2^(attempts-1), at most one hour. */
export function backoffMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}
