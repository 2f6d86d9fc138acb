import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-output/', 'src/db/generated/', 'src/graphql/generated/', '.data/', '.tools/'] },
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
  {
    // The domain knows nothing of transports or storage.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['express', '@apollo/*', 'graphql', '@prisma/*', 'pg', '**/db/**', '**/rest/**', '**/graphql/**', '**/http/**'], message: 'src/domain must not depend on HTTP, GraphQL or the database.' },
      ] }],
    },
  },
  {
    // Prisma Client is the one path to the database. pg is only the pool under Prisma's adapter
    // (pool.ts, prisma-client.ts), the migration runner that must work before any client exists
    // (migrations.ts), the embedded server's bootstrap (embedded-postgres.ts), and the one connection per
    // process that LISTENs for wake-ups (notifications.ts: no data access, and Prisma has no notification API).
    files: ['src/**/*.ts'],
    ignores: ['src/db/pool.ts', 'src/db/prisma-client.ts', 'src/db/migrations.ts', 'src/db/embedded-postgres.ts', 'src/db/notifications.ts', 'src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [
        { name: 'pg', allowTypeImports: true, message: 'Reach PostgreSQL through Prisma Client (src/db/prisma-client.ts), not pg.' },
        { name: 'postgres', message: 'Reach PostgreSQL through Prisma Client (src/db/prisma-client.ts).' },
      ] }],
      'no-restricted-syntax': ['error', {
        selector: 'CallExpression[callee.type="MemberExpression"][callee.property.name=/^(query|connect)$/]',
        message: 'No pg queries outside the pool, the migration runner and the bootstrap: use Prisma Client (src/db/sql.ts for raw SQL).',
      }],
    },
  },
);
