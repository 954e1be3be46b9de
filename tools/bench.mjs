#!/usr/bin/env node
// `npm run bench`: runs every benchmark under bench/ (each prints a table: ours, the peer, the ratio).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv[2];
const files = fs
  .readdirSync(path.join(root, 'bench'))
  // The soaks (30 minutes each) run only when named: `npm run bench -- soak`, `npm run bench -- bigscreen`.
  .filter(
    (f) => f.endsWith('.bench.ts') && (only ? f.includes(only) : !['soak.bench.ts', 'bigscreen.bench.ts'].includes(f)),
  )
  .sort();
let ok = true;
for (const f of files) {
  console.log(`\n## ${f}`);
  // Benches c and d host the server in this process: it runs with the flags `npm start` gives the
  // server (SERVER_NODE_FLAGS in server/src/modules/ingest/testkit.ts).
  const r = spawnSync(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', path.join('bench', f)], {
    cwd: root,
    stdio: 'inherit',
  });
  ok = ok && r.status === 0;
}
process.exit(ok ? 0 : 1);
