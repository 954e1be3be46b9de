import { Status, nextBucket, parseTime as parseInstant, quantitiesOf, type Language } from '@geosentry/contract';
import { AppError } from '../../platform/http/errors.ts';
import { translate, type MessageKey } from '../../platform/http/messages.ts';

/** Helpers of the alert services: quantity labels, validation errors, time filters. */

export const DAY = 86_400_000;

/** Label of a quantity of a monitor type in a language, with its unit ("Rainfall (mm)"). */
export function showNameOf(moduleId: number, quantity: string | null, lang: Language): { name: string; unit: string } {
  if (quantity === null) return { name: '', unit: '' };
  const q = quantitiesOf(moduleId).find((x) => x.key === quantity);
  if (!q) return { name: quantity, unit: '' };
  return { name: q.unit ? `${q.label[lang]} (${q.unit})` : q.label[lang], unit: q.unit };
}

export const invalid = (key: MessageKey, problems: { field: string; key: string }[] = [], lang?: Language) =>
  new AppError(
    Status.invalid,
    key,
    {},
    lang
      ? { errors: problems.map((p) => ({ ...p, rule: p.key, message: translate(lang, p.key as MessageKey) })) }
      : null,
  );

/**
 * Parses a time filter (ISO date or date-time, or "yyyy-MM-dd HH:mm:ss"; without an offset a reading of the
 * clock of `timeZone`); null when absent.
 */
export function parseTime(v: string | undefined, endOfDay = false, timeZone = 'UTC'): Date | null {
  if (!v) return null;
  const t = v.trim();
  let d: Date;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const start = parseInstant(t, timeZone) ?? Number.NaN;
    d = new Date(endOfDay && !Number.isNaN(start) ? nextBucket(start, 'day', timeZone) - 1 : start);
  } else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(t))
    d = new Date(parseInstant(t, timeZone) ?? t.replace(' ', 'T'));
  else if (/^\d{10,13}$/.test(t)) d = new Date(Number(t.length === 10 ? `${t}000` : t));
  else throw new AppError(Status.invalid, 'alertRangeInvalid');
  if (Number.isNaN(d.getTime())) throw new AppError(Status.invalid, 'alertRangeInvalid');
  return d;
}

export function range(
  q: { startTime?: string | undefined; endTime?: string | undefined },
  timeZone = 'UTC',
): { from?: Date; to?: Date } {
  const from = parseTime(q.startTime, false, timeZone);
  const to = parseTime(q.endTime, true, timeZone);
  if (from && to && from > to) throw new AppError(Status.invalid, 'alertRangeInvalid');
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
