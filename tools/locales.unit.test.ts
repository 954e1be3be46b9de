import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../web/src/locales');
const LANGS = ['en', 'zh', 'ko'];

function keys(o: unknown, pre = ''): string[] {
  if (!o || typeof o !== 'object') return [pre];
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${pre}${k}.`) : [`${pre}${k}`],
  );
}

describe('web translations', () => {
  const files = new Set(
    LANGS.flatMap((l) =>
      fs.existsSync(path.join(root, l)) ? fs.readdirSync(path.join(root, l)).filter((f) => f.endsWith('.json')) : [],
    ),
  );

  it('every language has every catalogue file', () => {
    for (const l of LANGS) for (const f of files) expect(fs.existsSync(path.join(root, l, f)), `${l}/${f}`).toBe(true);
  });

  it('every language has every key, and no value is empty', () => {
    for (const f of files) {
      const sets = LANGS.map((l) => {
        const json = JSON.parse(fs.readFileSync(path.join(root, l, f), 'utf8')) as unknown;
        const ks = keys(json);
        for (const k of ks) {
          const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)?.[p], json);
          expect(typeof v === 'string' && v.trim().length > 0, `${l}/${f}: ${k} is empty`).toBe(true);
        }
        return new Set(ks);
      });
      const all = new Set(sets.flatMap((s) => [...s]));
      LANGS.forEach((l, i) => {
        const missing = [...all].filter((k) => !sets[i]!.has(k));
        expect(missing, `${l}/${f} misses keys`).toEqual([]);
      });
    }
  });
});
