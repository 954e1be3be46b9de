#!/usr/bin/env node
// `npm run bench`: runs every benchmark under bench/ (each prints a table: ours, the peer, the ratio).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv[2];
const files = fs
  .readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
let ok = true;
for (const f of files) {
  console.log(`\n## ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('bench', f)], { cwd: root, stdio: 'inherit' });
  ok = ok && r.status === 0;
}
process.exit(ok ? 0 : 1);
