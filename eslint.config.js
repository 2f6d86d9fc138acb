import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * A block forbidding `files` to import anything matching `group` (gitignore-style patterns on the import
 * string); `extra` adds patterns of its own (regex ones), `paths` names forbidden imports of a module.
 */
function importBan(files, group, message, extra = [], { ignores, paths } = {}) {
  const patterns = [...(group.length > 0 ? [{ group, message }] : []), ...extra];
  return {
    files,
    ...(ignores && { ignores }),
    rules: { 'no-restricted-imports': ['error', { patterns, ...(paths && { paths }) }] },
  };
}

/** A test file, or anything under test/ but its support code (test/support/), as an import string reaches it. */
const testsOtherThanSupport = {
  regex: '(^|/)test/(?!support/)',
  message: 'Only test/support/ is shared with bench/ and scripts/; the tests themselves are not.',
};

/** What a transport is, as an import string: its packages, and the rooms that wire the two surfaces. */
const TRANSPORTS = [
  'express',
  'express/*',
  '@apollo/*',
  '@as-integrations/*',
  'graphql',
  'graphql/*',
  '@graphql-tools/*',
  'graphql-ws',
  'graphql-ws/*',
  '**/rest/**',
  '**/graphql/**',
  '**/http/**',
];
/** The request and response types of node:http are a server's too (an outbound client may use node:http itself). */
const SERVER_TYPES = ['node:http', 'http'].map((name) => ({
  name,
  importNames: ['IncomingMessage', 'ServerResponse'],
  message: "Only a feature's REST and GraphQL files (*.rest.ts, *.resolvers.ts) see requests and responses.",
}));
/** What storage is, as an import string: Prisma, pg, and src/db (connection, generated client, SQL helpers). */
const STORAGE = ['@prisma/*', 'pg', 'pg/*', 'postgres', '**/db/**'];

/**
 * The shared kernel knows nothing of transports or storage, and imports nothing outside src/domain: a relative
 * import may climb at most to src/domain itself (one `../` per folder below it). So it imports no feature either.
 */
function domainBlocks() {
  const outside = [
    'express',
    '@apollo/*',
    'graphql',
    '@prisma/*',
    'pg',
    '**/db/**',
    '**/rest/**',
    '**/graphql/**',
    '**/http/**',
    '**/features/**',
  ];
  const message =
    'src/domain (the shared kernel) must not depend on anything outside src/domain (a feature, HTTP, GraphQL, the database, configuration …).';
  return ['src/domain/*.ts', 'src/domain/*/*.ts', 'src/domain/*/*/*.ts'].map((files, depth) =>
    importBan([files], outside, message, [{ regex: `^(\\.\\./){${depth + 1}}`, message }]),
  );
}

/** Outside a feature's folder, src/ reaches it only through its index.ts (src/features/<feature>/index.ts). */
const throughFeatureIndex = {
  regex: '(^|/)features/[^/]+/(?!index\\.js$)',
  message: 'Import a feature through its public face, src/features/<feature>/index.ts, not a file inside it.',
};

/**
 * Inside a feature (src/features/<feature>/*.ts): another feature only through its index.ts, never the
 * aggregates of the composition root (src/features/ports.ts, services.ts, stores.ts); the rest depends on
 * the file's kind. One block per kind, so that each file gets exactly one set of patterns.
 */
function featureBlocks() {
  const faces = [
    {
      regex: '^\\.\\./(?!\\.\\./)[^/]+/(?!index\\.js$)',
      message: 'A feature imports another feature only through its index.ts (../<feature>/index.js).',
    },
    {
      regex: '^\\.\\./[^/]+\\.js$',
      message:
        "A feature must not import the composition root's aggregates (src/features/ports.ts, services.ts, stores.ts): they import the features. Import the kernel (src/domain) or another feature's index.ts.",
    },
    throughFeatureIndex,
  ];
  const transportFiles = ['src/features/*/*.rest.ts', 'src/features/*/*.resolvers.ts'];
  const storeFiles = ['src/features/*/*.store.ts', 'src/features/*/*.sql.ts', 'src/features/*/*.read-model.ts'];
  const storage = {
    group: STORAGE,
    message: "Only a feature's store files (*.store.ts, *.sql.ts, *.read-model.ts) reach Prisma, pg or src/db.",
  };
  const transport = {
    group: TRANSPORTS,
    message:
      "Only a feature's REST and GraphQL files (*.rest.ts, *.resolvers.ts) import Express, Apollo, graphql or the transports' rooms (src/rest, src/graphql, src/http).",
  };
  return [
    importBan(['src/features/*/*.ts'], [], '', [...faces, transport, storage], {
      ignores: [...transportFiles, ...storeFiles],
      paths: SERVER_TYPES,
    }),
    importBan(transportFiles, [], '', [...faces, storage]),
    importBan(storeFiles, [], '', [...faces, transport], { paths: SERVER_TYPES }),
  ];
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'test-output/',
      'src/db/generated/',
      'src/graphql/generated/',
      'packages/client/src/generated/',
      'packages/client/dist/',
      'console/src/gql/',
      '.data/',
      '.tools/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        Headers: 'readonly',
      },
    },
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
  ...featureBlocks(),
  // The rooms every feature shares, and the composition root, reach a feature through its index.ts. The
  // column lists (src/db/sql/columns.ts) are the one exception: the stores import them, so reading the
  // records' types through index.ts would be a cycle (index.ts → store → columns.ts → index.ts).
  importBan(['src/**/*.ts'], [], '', [throughFeatureIndex], {
    ignores: [
      'src/domain/**',
      'src/features/**',
      'src/jobs/**',
      'src/cli/**',
      'src/http/**',
      'src/db/**',
      'src/graphql/generated/**',
    ],
  }),
  importBan(
    ['src/jobs/**/*.ts', 'src/cli/**/*.ts'],
    ['**/rest/**', '**/graphql/**'],
    "Jobs and the CLI must not depend on a transport (src/rest, src/graphql): share code through src/domain or a feature's index.ts.",
    [throughFeatureIndex],
  ),
  importBan(
    ['src/http/**/*.ts'],
    ['**/db/**'],
    'src/http must not depend on the database layer (src/db): src/runtime.ts connects them.',
    [throughFeatureIndex],
  ),
  importBan(
    ['src/db/**/*.ts'],
    ['**/rest/**', '**/graphql/**', '**/http/**'],
    'src/db must not depend on a transport (src/rest, src/graphql, src/http).',
    [throughFeatureIndex],
    { ignores: ['src/db/sql/columns.ts'] },
  ),
  importBan(
    ['src/db/sql/columns.ts'],
    ['**/rest/**', '**/graphql/**', '**/http/**'],
    'src/db must not depend on a transport (src/rest, src/graphql, src/http).',
  ),
  // The support code of the tools is shared one way: bench/ may use scripts/ and test/support/; scripts/
  // may use test/support/; test/support/ uses neither.
  importBan(
    ['test/support/**/*.ts'],
    ['**/bench/**', '**/scripts/**'],
    'test/support is the shared room of bench/ and scripts/: it must import neither.',
  ),
  importBan(
    ['scripts/**/*.ts', 'scripts/**/*.mjs'],
    ['**/bench/**'],
    'scripts/ may use test/support/ but not bench/ or the tests: shared helpers live in scripts/lib/ or test/support/.',
    [testsOtherThanSupport],
  ),
  // The TypeScript client runs in browsers and Node alike and ships alone: no Node built-ins, nothing outside its src/.
  importBan(
    ['packages/client/src/**/*.ts'],
    ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'stream', 'buffer'],
    'packages/client/src must run in browsers too: no Node built-ins (use fetch, Web Crypto, Headers).',
    [{ regex: '^\\.\\./', message: 'packages/client/src ships alone: import nothing outside it.' }],
  ),
  importBan(['bench/**/*.ts'], [], 'bench/ may use scripts/ and test/support/ but not the tests.', [
    testsOtherThanSupport,
  ]),
  {
    // Prisma Client is the one path to the database. pg is only the pool under Prisma's adapter
    // (pool.ts, prisma-client.ts), the migration runner that must work before any client exists
    // (migrations.ts), the embedded server's bootstrap (embedded-postgres.ts), and the one connection per
    // process that LISTENs for wake-ups (notifications.ts: no data access, and Prisma has no notification API).
    files: ['src/**/*.ts'],
    ignores: [
      'src/db/connection/pool.ts',
      'src/db/connection/prisma-client.ts',
      'src/db/migrations/migrations.ts',
      'src/db/postgres/embedded-postgres.ts',
      'src/db/connection/notifications.ts',
      'src/domain/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'pg',
              allowTypeImports: true,
              message: 'Reach PostgreSQL through Prisma Client (src/db/connection/prisma-client.ts), not pg.',
            },
            {
              name: 'postgres',
              message: 'Reach PostgreSQL through Prisma Client (src/db/connection/prisma-client.ts).',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.type="MemberExpression"][callee.property.name=/^(query|connect)$/]',
          message:
            'No pg queries outside the pool, the migration runner and the bootstrap: use Prisma Client (src/db/sql/sql.ts for raw SQL).',
        },
      ],
    },
  },
);
