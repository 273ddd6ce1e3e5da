import { defineConfig } from 'vitest/config';

const roots = ['packages/*/src/**', 'test/**', 'examples/**'];

// Tests run on source: the "@skein/source" export condition points every package at src/*.ts.
// Two tiers: `fast` (unit and loopback-wire tests; `npm test`) and `full` (`*.e2e.test.ts`: real
// servers, browsers and processes; `npm run test:all`, which CI runs). The full tier's real servers
// (radosgw, restate-server; see test/servers/servers.ts) start once per run in its global setup and
// reach the tests through `inject`.
export default defineConfig({
  resolve: { conditions: ['@skein/source', 'import', 'module', 'node', 'default'] },
  // Vitest also passes these to the test processes as node --conditions: no 'import' here, or require()
  // of a dual package (pg's pg-pool) would load its ES module build.
  ssr: { resolve: { conditions: ['@skein/source', 'node', 'default'] } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: roots.map((r) => `${r}/*.test.ts`),
          exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'full',
          include: roots.map((r) => `${r}/*.e2e.test.ts`),
          exclude: ['**/node_modules/**', '**/dist/**'],
          globalSetup: ['test/servers/global-setup.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
