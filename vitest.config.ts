import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Every test runs against real PostgreSQL: global-setup starts one (or uses TEST_DATABASE_URL) and
// migrates a template database that each test file clones (test/support/database.ts).
export default defineConfig({
  // graphql ships CommonJS (main) and ESM (module) builds; Node loads the CommonJS one for Apollo and
  // graphql-tools, so our code must get the same instance or `instanceof GraphQLError` fails across them.
  // The client workspace is tested from its sources (its package exports name the built dist/ for users).
  resolve: {
    alias: [
      { find: /^graphql$/, replacement: 'graphql/index.js' },
      { find: /^@customer-account-service\/client$/, replacement: fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)) },
      { find: /^@customer-account-service\/client\/graphql$/, replacement: fileURLToPath(new URL('packages/client/src/generated/graphql.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/client/test/**/*.test.ts', 'scripts/reliability/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Generous: CI runs on shared 2-core machines where a test that spawns processes can take several times its quiet-day time.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    sequence: { shuffle: { files: false, tests: false } },
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
