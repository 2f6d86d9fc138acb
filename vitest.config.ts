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
      {
        find: /^@customer-account-service\/client$/,
        replacement: fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)),
      },
      {
        find: /^@customer-account-service\/client\/graphql$/,
        replacement: fileURLToPath(new URL('packages/client/src/generated/graphql.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/client/test/**/*.test.ts', 'scripts/reliability/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Only to stop a hung test, never to decide one: minutes, above eventually()'s deadline
    // (test/support/eventually.ts) so that a missing event fails with what the test read, not a time-out.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll's default deadline is 1 s: under CI load a page or an answer took longer and decided tests. A poll
    // waits for what it expects as eventually() does, with its deadline (HUNG_TEST_DEADLINE_MS, 120 s).
    expect: { poll: { timeout: 120_000 } },
    // A test that fails now and then is fixed at its cause, never retried (docs/how-to/develop.md).
    retry: 0,
    sequence: { shuffle: { files: false, tests: false } },
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
