import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Module boundaries of the server: a module uses another module only through its index.ts (what that module
// offers), and the platform layer uses no module. Test files and testkits may reach further (fixtures).

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = path.join(SRC, 'modules');

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The relative specifiers a source file imports or re-exports (static and dynamic). */
export function specifiersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) if (m[1]!.startsWith('.')) out.push(m[1]!);
  return out;
}

/**
 * The boundary a file crosses importing `spec`, or null: a module file importing another module's file other than
 * its index.ts, or a platform file importing any module.
 */
export function violation(file: string, spec: string): string | null {
  const target = path.resolve(path.dirname(file), spec);
  const rel = path.relative(MODULES, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [targetModule, ...rest] = rel.split(path.sep);
  const fromRel = path.relative(MODULES, file);
  const fromModule = fromRel.startsWith('..') ? null : fromRel.split(path.sep)[0];
  if (fromModule === null) return `platform code imports module ${targetModule}`;
  if (fromModule === targetModule) return null;
  return rest.join('/') === 'index.ts'
    ? null
    : `imports ${targetModule}/${rest.join('/')}, not ${targetModule}/index.ts`;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mjs|js)$/.test(e.name) && !/\.test\.ts$/.test(e.name) && e.name !== 'testkit.ts') out.push(p);
  }
  return out;
}

describe('server module boundaries', () => {
  it('modules use each other only through index.ts, and the platform uses no module', () => {
    const found: string[] = [];
    for (const dir of [MODULES, path.join(SRC, 'platform')])
      for (const file of sourceFiles(dir))
        for (const spec of specifiersOf(fs.readFileSync(file, 'utf8'))) {
          const v = violation(file, spec);
          if (v) found.push(`${path.relative(SRC, file)}: ${v} (${spec})`);
        }
    expect(found).toEqual([]);
  });

  it('tells a crossing import from an allowed one', () => {
    const file = path.join(MODULES, 'alerts', 'alerts.service.ts');
    expect(violation(file, '../persons/persons.repository.ts')).toMatch(/not persons\/index\.ts/);
    expect(violation(file, '../persons/index.ts')).toBeNull();
    expect(violation(file, './alerts.repository.ts')).toBeNull();
    expect(violation(file, '../../platform/db/sql.ts')).toBeNull();
    expect(violation(path.join(SRC, 'platform', 'audit.ts'), '../modules/audit/index.ts')).toMatch(/platform/);
    expect(
      specifiersOf(
        "import { a } from '../x/y.ts';\nexport { b } from './z.ts';\nconst c = await import('../w/v.ts');\nimport 'kysely';",
      ),
    ).toEqual(['../x/y.ts', './z.ts', '../w/v.ts']);
  });
});
