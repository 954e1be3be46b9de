import { describe, expect, it } from 'vitest';
import { bucketBounds, bucketStart, formatLocal, isTimeZone, nextBucket, wallTime, zoneOffset } from './time.ts';
import { parseTime, periodLabel, resolveRange } from './helpers.ts';

const HOUR = 3_600_000;
const localDate = (t: number, tz: string) => formatLocal(t, tz).slice(0, 10);

/** Zones with daylight saving at midnight, half- and quarter-hour offsets, a skipped day, the southern hemisphere. */
const ZONES = [
  'UTC',
  'Asia/Shanghai',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Santiago',
  'America/Havana',
  'Asia/Beirut',
  'America/Sao_Paulo',
  'Pacific/Apia',
];

describe('local calendar buckets', () => {
  it('every day bucket is exactly one local date, starting at its first instant, in every zone', () => {
    for (const tz of ZONES) {
      for (const [a, b] of [
        [Date.UTC(2011, 11, 20), Date.UTC(2012, 0, 5)], // Apia skipped 2011-12-30
        [Date.UTC(2025, 11, 25), Date.UTC(2026, 11, 31)],
      ] as const) {
        const bounds = bucketBounds(a, b, 'day', tz);
        for (let i = 0; i + 1 < bounds.length; i++) {
          const s = bounds[i]!;
          const e = bounds[i + 1]!;
          expect(localDate(s, tz), `${tz} ${new Date(s).toISOString()}`).toBe(localDate(e - 1000, tz));
          expect(localDate(s - 1000, tz)).not.toBe(localDate(s, tz));
          expect(localDate(e, tz)).not.toBe(localDate(s, tz));
          expect(bucketStart(s + (e - s) / 2, 'day', tz)).toBe(s);
          if (tz !== 'Pacific/Apia') expect((e - s) / HOUR).toBeGreaterThanOrEqual(22);
        }
      }
    }
  });

  it('the cached offsets agree with Intl at random instants and around every change', () => {
    const intl = (t: number, tz: string) => {
      const p = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }).formatToParts(new Date(t));
      const n = (k: string) => Number(p.find((x) => x.type === k)!.value);
      const d = new Date(0);
      d.setUTCFullYear(n('year'), n('month') - 1, n('day'));
      d.setUTCHours(n('hour') % 24, n('minute'), n('second'), 0);
      return d.getTime() - t;
    };
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const tz of ZONES) {
      for (let i = 0; i < 300; i++) {
        const t =
          Math.floor((Date.UTC(2010, 0, 1) + rnd() * (Date.UTC(2028, 0, 1) - Date.UTC(2010, 0, 1))) / 1000) * 1000;
        expect(zoneOffset(t, tz), `${tz} ${new Date(t).toISOString()}`).toBe(intl(t, tz));
      }
      // Around each change of 2026: the second before and the change itself.
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += HOUR) {
        if (zoneOffset(t, tz) === zoneOffset(t + HOUR, tz)) continue;
        let lo = t;
        let hi = t + HOUR;
        while (hi - lo > 1000) {
          const mid = Math.floor((lo + hi) / 2000) * 1000;
          if (zoneOffset(mid, tz) === zoneOffset(t, tz)) lo = mid;
          else hi = mid;
        }
        expect([zoneOffset(lo, tz), zoneOffset(hi, tz)], tz).toEqual([intl(lo, tz), intl(hi, tz)]);
      }
    }
  });

  it('Berlin: a 23-hour and a 25-hour day; Shanghai days start at 16:00 UTC', () => {
    const day = (d: string, tz: string) => {
      const s = parseTime(d, tz)!;
      return [new Date(s).toISOString(), (nextBucket(s, 'day', tz) - s) / HOUR];
    };
    expect(day('2026-03-29', 'Europe/Berlin')).toEqual(['2026-03-28T23:00:00.000Z', 23]);
    expect(day('2026-10-25', 'Europe/Berlin')).toEqual(['2026-10-24T22:00:00.000Z', 25]);
    expect(day('2026-01-01', 'Asia/Shanghai')).toEqual(['2025-12-31T16:00:00.000Z', 24]);
    // A local time skipped by daylight saving reads as the instant the clock jumps past it.
    expect(new Date(parseTime('2026-03-29 02:30', 'Europe/Berlin')!).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(parseTime('2026-01-01T08:00:00Z', 'Asia/Shanghai')!).toISOString()).toBe(
      '2026-01-01T08:00:00.000Z',
    );
  });

  it('weeks start Monday local, months and years on the local calendar, hours on the local clock', () => {
    for (const tz of ZONES) {
      const weeks = bucketBounds(Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 31), 'week', tz);
      for (const w of weeks) expect(new Date(wallTime(w, tz)).getUTCDay(), tz).toBe(1);
      const months = bucketBounds(Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 31), 'month', tz);
      for (const m of months) expect(formatLocal(m, tz).slice(8, 10), tz).toBe('01');
      const year = bucketStart(Date.UTC(2026, 5, 1), 'year', tz);
      expect(localDate(year, tz)).toBe('2026-01-01');
    }
    const hours = bucketBounds(Date.UTC(2026, 2, 22, 4, 45), Date.UTC(2026, 2, 22, 7), 'hour', 'Asia/Kolkata');
    expect(hours.map((h) => new Date(h).toISOString().slice(11, 16))).toEqual(['04:30', '05:30', '06:30', '07:30']);
    expect(zoneOffset(Date.UTC(2026, 0, 1), 'Asia/Kathmandu')).toBe(5.75 * HOUR);
  });

  it('today and date-only ranges follow the zone; labels read the local calendar', () => {
    const now = Date.UTC(2026, 0, 1, 1, 0); // 09:00 on 1 January in Shanghai, 20:00 on 31 December in New York
    expect(resolveRange('today', undefined, undefined, now, 'Asia/Shanghai')!.from).toBe(Date.UTC(2025, 11, 31, 16));
    expect(resolveRange('today', undefined, undefined, now, 'America/New_York')!.from).toBe(Date.UTC(2025, 11, 31, 5));
    expect(resolveRange('custom', '2026-01-01', '2026-01-01', now, 'Asia/Shanghai')).toEqual({
      from: Date.UTC(2025, 11, 31, 16),
      to: Date.UTC(2026, 0, 1, 16),
    });
    expect(periodLabel('2025-12-31T16:00:00.000Z', 'day', 'Asia/Shanghai')).toBe('2026-01-01');
    expect(periodLabel('2025-12-31T16:00:00.000Z', 'month', 'Asia/Shanghai')).toBe('2026-01');
    expect(periodLabel('2025-12-31T16:00:00.000Z', 'day')).toBe('2025-12-31');
  });

  it('knows IANA names (links included), refuses offsets, abbreviations and wrong case', () => {
    for (const z of [
      'UTC',
      'Asia/Shanghai',
      'Asia/Kolkata',
      'Asia/Calcutta',
      'Europe/Kyiv',
      'America/Argentina/Buenos_Aires',
    ])
      expect(isTimeZone(z), z).toBe(true);
    for (const z of ['', '+08:00', 'CST', 'asia/shanghai', 'Mars/Olympus', 'Asia/Shanghai ', 'x'.repeat(80), 42, null])
      expect(isTimeZone(z), String(z)).toBe(false);
  });
});
