import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from './messages.ts';

const contractSrc = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../../contract/src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('validation rules', () => {
  it('every rule the contract names has its message in en, zh and ko', () => {
    const named = new Set<string>();
    for (const file of sources(contractSrc)) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/params:\s*\{\s*rule:\s*'([A-Za-z]+)'/g)) named.add(m[1]!);
    }
    expect(named.size).toBeGreaterThan(2);
    const missing = [...named].filter((r) => !RULES[r]?.en || !RULES[r]?.zh || !RULES[r]?.ko);
    expect(missing).toEqual([]);
  });
});
