import { defineConfig } from 'vitest/config';

// Projects: unit (pure), api-pglite and api-pg (the same API tests against each database; *.pglite.test.ts and
// *.pg.test.ts run on one of them only), e2e (browser).
// API tests start from a migrated template database, built once per run (server/test/templateDb.ts).
// The API projects' test files share their worker process and its module cache (isolate: false): each file
// imported the whole server anew (seconds each, half the run's worker time). A file that changes process-wide
// state (a module's test hook, process.env) restores it in afterAll. The unit tests import little: isolated.
const templateSetup = 'server/test/templateDb.ts';
const apiInclude = ['server/src/**/*.test.ts'];
const unitInclude = [
  'contract/src/**/*.test.ts',
  'server/src/**/*.unit.test.ts',
  'tools/**/*.unit.test.ts',
  'web/src/**/*.unit.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: unitInclude, environment: 'node' } },
      {
        test: {
          name: 'api-pglite',
          include: apiInclude,
          // *.pg.test.ts: PostgreSQL only (e.g. several server processes on one database).
          exclude: [...unitInclude, 'server/src/**/*.pg.test.ts'],
          env: { TEST_DB: 'pglite' },
          globalSetup: [templateSetup],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          isolate: false,
        },
      },
      {
        test: {
          name: 'api-pg',
          include: apiInclude,
          exclude: [...unitInclude, 'server/src/**/*.pglite.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: [templateSetup],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // The servers the browser tests start check every answer against the contract's response schemas.
          env: { CHECK_RESPONSES: '1' },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page on the busy machine can take seconds to show an answer: expect.poll waits up to 10 s, not 1.
          expect: { poll: { timeout: 10_000 } },
          pool: 'forks',
          // One file at a time: two at once (maxWorkers 2) were not faster on the loaded two-core machine
          // (alerts + monitorViews: 193 s side by side at load 26, 130 s one after the other at load 17).
          fileParallelism: false,
        },
      },
    ],
  },
});
