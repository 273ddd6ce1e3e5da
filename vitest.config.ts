import { defineConfig } from 'vitest/config';

// Tests run on source: the "@skein/source" export condition points every package at src/*.ts.
export default defineConfig({
  resolve: { conditions: ['@skein/source', 'import', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['@skein/source', 'import', 'node', 'default'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
