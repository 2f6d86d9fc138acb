import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** A block forbidding `files` to import anything matching `group` (gitignore-style patterns on the import string). */
function importBan(files, group, message, extra = []) {
  const patterns = [...(group.length > 0 ? [{ group, message }] : []), ...extra];
  return { files, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

/** A test file, or anything under test/ but its support code (test/support/), as an import string reaches it. */
const testsOtherThanSupport = {
  regex: '(^|/)test/(?!support/)',
  message: 'Only test/support/ is shared with bench/ and scripts/; the tests themselves are not.',
};

/**
 * The domain knows nothing of transports or storage, and imports nothing outside src/domain: a relative
 * import may climb at most to src/domain itself (one `../` per folder below it).
 */
function domainBlocks() {
  const outside = ['express', '@apollo/*', 'graphql', '@prisma/*', 'pg', '**/db/**', '**/rest/**', '**/graphql/**', '**/http/**'];
  const message = 'src/domain must not depend on anything outside src/domain (HTTP, GraphQL, the database, configuration …).';
  return ['src/domain/*.ts', 'src/domain/*/*.ts', 'src/domain/*/*/*.ts'].map((files, depth) =>
    importBan([files], outside, message, [{ regex: `^(\\.\\./){${depth + 1}}`, message }]));
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-output/', 'src/db/generated/', 'bench/comparators/prisma/generated/', 'src/graphql/generated/', 'packages/client/src/generated/', 'packages/client/dist/', 'console/src/gql/', '.data/', '.tools/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', fetch: 'readonly', performance: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', AbortController: 'readonly', Headers: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  // Who may import whom (docs/architecture.md, "Layout"); test/lint/boundaries.test.ts holds a violation of each.
  // ESLint's no-restricted-imports matches the import string, so a rule names the folders an import may
  // not reach. One block per folder: blocks for the same files would replace each other's patterns.
  ...domainBlocks(),
  {
    // Each feature's ports stand alone; src/features/ports.ts aggregates them (a feature port importing it back
    // would be a cycle). A different rule name than the domain's block, so neither replaces the other.
    files: ['src/domain/*/ports.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['../ports.js'], message: 'A feature port must not import src/features/ports.ts, which aggregates the feature ports: import write-effects.ts, pagination.ts or personal-data.ts.' }] }] },
  },
  importBan(['src/jobs/**/*.ts', 'src/cli/**/*.ts'], ['**/rest/**', '**/graphql/**'],
    'Jobs and the CLI must not depend on a transport (src/rest, src/graphql): share code through src/domain or src/presenters.'),
  importBan(['src/http/**/*.ts'], ['**/db/**'],
    'src/http must not depend on the database layer (src/db): src/runtime.ts connects them.'),
  importBan(['src/db/**/*.ts'], ['**/rest/**', '**/graphql/**', '**/http/**'],
    'src/db must not depend on a transport (src/rest, src/graphql, src/http).'),
  // The support code of the tools is shared one way: bench/ may use scripts/ and test/support/; scripts/
  // may use test/support/; test/support/ uses neither.
  importBan(['test/support/**/*.ts'], ['**/bench/**', '**/scripts/**'],
    'test/support is the shared room of bench/ and scripts/: it must import neither.'),
  importBan(['scripts/**/*.ts', 'scripts/**/*.mjs'], ['**/bench/**'],
    'scripts/ may use test/support/ but not bench/ or the tests: shared helpers live in scripts/lib/ or test/support/.', [testsOtherThanSupport]),
  // The TypeScript client runs in browsers and Node alike and ships alone: no Node built-ins, nothing outside its src/.
  importBan(['packages/client/src/**/*.ts'], ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'stream', 'buffer'],
    'packages/client/src must run in browsers too: no Node built-ins (use fetch, Web Crypto, Headers).',
    [{ regex: '^\\.\\./', message: 'packages/client/src ships alone: import nothing outside it.' }]),
  importBan(['bench/**/*.ts'], [], 'bench/ may use scripts/ and test/support/ but not the tests.', [testsOtherThanSupport]),
  {
    // Prisma Client is the one path to the database. pg is only the pool under Prisma's adapter
    // (pool.ts, prisma-client.ts), the migration runner that must work before any client exists
    // (migrations.ts), the embedded server's bootstrap (embedded-postgres.ts), and the one connection per
    // process that LISTENs for wake-ups (notifications.ts: no data access, and Prisma has no notification API).
    files: ['src/**/*.ts'],
    ignores: ['src/db/connection/pool.ts', 'src/db/connection/prisma-client.ts', 'src/db/migrations/migrations.ts', 'src/db/postgres/embedded-postgres.ts', 'src/db/connection/notifications.ts', 'src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [
        { name: 'pg', allowTypeImports: true, message: 'Reach PostgreSQL through Prisma Client (src/db/connection/prisma-client.ts), not pg.' },
        { name: 'postgres', message: 'Reach PostgreSQL through Prisma Client (src/db/connection/prisma-client.ts).' },
      ] }],
      'no-restricted-syntax': ['error', {
        selector: 'CallExpression[callee.type="MemberExpression"][callee.property.name=/^(query|connect)$/]',
        message: 'No pg queries outside the pool, the migration runner and the bootstrap: use Prisma Client (src/db/sql/sql.ts for raw SQL).',
      }],
    },
  },
);
