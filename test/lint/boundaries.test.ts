import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries of eslint.config.js, checked against deliberate violations: each rule must report
 * its forbidden import, and leave the allowed ones alone. The files need not exist: ESLint lints the text
 * as if it sat at the path.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function boundaryMessages(file: string, specifier: string): Promise<string[]> {
  const code = `import { x } from '${specifier}';\n\nexport const y = x;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => /(^|\/)no-restricted-imports$/.test(message.ruleId ?? ''))
    .map((message) => message.message);
}

const violations: Array<[rule: string, file: string, specifier: string]> = [
  ['src/domain imports nothing outside src/domain (the database)', 'src/domain/x.ts', '../db/connection/pool.js'],
  [
    'src/domain imports nothing outside src/domain (from a folder below it, the database)',
    'src/domain/kernel/x.ts',
    '../../db/sql/sql.js',
  ],
  ['src/domain imports nothing outside src/domain (configuration)', 'src/domain/x.ts', '../config/config.js'],
  [
    'src/domain imports nothing outside src/domain (from a folder below it)',
    'src/domain/kernel/x.ts',
    '../../logging/logger.js',
  ],
  ['src/domain imports no transport package', 'src/domain/x.ts', 'express'],
  ['src/domain (the shared kernel) imports no feature', 'src/domain/x.ts', '../features/customers/index.js'],
  [
    'a feature imports another feature only through its index.ts',
    'src/features/ledger/ledger.service.ts',
    '../accounts/account.js',
  ],
  [
    'a feature imports another feature only through its index.ts (a store)',
    'src/features/webhooks/webhook.store.ts',
    '../events/event.store.js',
  ],
  [
    'a feature imports another feature only through its index.ts (a resolver map)',
    'src/features/accounts/account.resolvers.ts',
    '../ledger/transaction.js',
  ],
  [
    "a feature does not import the composition root's aggregates (the stores set)",
    'src/features/accounts/ports.ts',
    '../ports.js',
  ],
  [
    "a feature does not import the composition root's aggregates (the services)",
    'src/features/customers/customer.service.ts',
    '../services.js',
  ],
  [
    'outside a feature, src/ reaches it only through its index.ts (a shared room)',
    'src/rest/router.ts',
    '../features/customers/customer.presenter.js',
  ],
  [
    'outside a feature, src/ reaches it only through its index.ts (the composition root)',
    'src/runtime.ts',
    './features/events/event-feed.job.js',
  ],
  [
    'outside a feature, src/ reaches it only through its index.ts (the CLI)',
    'src/cli/x.ts',
    '../features/tokens/api-token.store.js',
  ],
  [
    'outside a feature, src/ reaches it only through its index.ts (src/db)',
    'src/db/connection/x.ts',
    '../../features/events/ports.js',
  ],
  [
    'outside a feature, src/ reaches it only through its index.ts (src/http)',
    'src/http/x.ts',
    '../features/webhooks/retry-policy.js',
  ],
  ["a feature's domain imports no Express", 'src/features/customers/customer.service.ts', 'express'],
  ["a feature's domain imports no Apollo", 'src/features/accounts/account.service.ts', '@apollo/server'],
  ["a feature's domain imports no graphql", 'src/features/events/ports.ts', 'graphql'],
  [
    "a feature's domain sees no request or response (src/http)",
    'src/features/ledger/ledger.service.ts',
    '../../http/request-logging.js',
  ],
  [
    "a feature's presenter imports no transport room (src/rest)",
    'src/features/customers/customer.presenter.ts',
    '../../rest/envelope.js',
  ],
  [
    "a feature's job imports no transport room (src/graphql)",
    'src/features/events/event-feed.job.ts',
    '../../graphql/context.js',
  ],
  ["a feature's store imports no transport", 'src/features/customers/customer.store.ts', 'express'],
  [
    "a feature's store imports no transport room (src/rest)",
    'src/features/accounts/account.store.ts',
    '../../rest/envelope.js',
  ],
  ["a feature's domain imports no Prisma", 'src/features/customers/customer.service.ts', '@prisma/client'],
  ["a feature's domain imports no pg", 'src/features/ledger/ports.ts', 'pg'],
  [
    "a feature's domain does not reach src/db",
    'src/features/accounts/account.service.ts',
    '../../db/connection/prisma-client.js',
  ],
  ["a feature's REST operations do not reach src/db", 'src/features/customers/customer.rest.ts', '../../db/sql/sql.js'],
  ["a feature's resolvers do not reach Prisma", 'src/features/ledger/ledger.resolvers.ts', '@prisma/client'],
  ["a feature's job does not reach src/db", 'src/features/accounts/flag-expiry.job.ts', '../../db/sql/sql.js'],
  ['src/jobs does not import src/rest', 'src/jobs/x.ts', '../rest/envelope.js'],
  ['src/jobs does not import src/rest (the presenters have left it)', 'src/jobs/x.ts', '../rest/presenters.js'],
  ['src/jobs does not import src/graphql', 'src/jobs/x.ts', '../graphql/schema.js'],
  ['src/cli does not import src/rest', 'src/cli/x.ts', '../rest/routes.js'],
  ['src/cli does not import src/graphql', 'src/cli/x.ts', '../graphql/resolvers.js'],
  ['src/http does not import src/db', 'src/http/x.ts', '../db/sql/errors.js'],
  ['src/db does not import src/rest', 'src/db/x.ts', '../rest/envelope.js'],
  ['src/db does not import src/graphql', 'src/db/sql/x.ts', '../../graphql/loaders.js'],
  ['src/db does not import src/http', 'src/db/x.ts', '../http/errors.js'],
  ['test/support imports neither bench/ ...', 'test/support/x.ts', '../../bench/lib/processes.js'],
  ['test/support imports neither ... nor scripts/', 'test/support/x.ts', '../../scripts/lib/proc.js'],
  ['scripts/ do not import bench/', 'scripts/reliability/x.ts', '../../bench/lib/processes.js'],
  ['scripts/ import no test but test/support', 'scripts/reliability/x.ts', '../../test/rest/customers.test.js'],
  ['bench/ imports no test but test/support', 'bench/x.ts', '../test/db/stores.test.js'],
];

const allowed: Array<[why: string, file: string, specifier: string]> = [
  ['the kernel within itself', 'src/domain/x.ts', './errors.js'],
  ['the kernel from a folder below it', 'src/domain/kernel/x.ts', '../errors.js'],
  ['a feature within itself', 'src/features/accounts/account.service.ts', './account.schemas.js'],
  ["a feature using another feature's index.ts", 'src/features/ledger/ledger.service.ts', '../accounts/index.js'],
  ['a feature using the shared kernel', 'src/features/accounts/ports.ts', '../../domain/write-effects.js'],
  ["a feature's store using src/db", 'src/features/customers/customer.store.ts', '../../db/sql/sql.js'],
  ["a feature's SQL using src/db", 'src/features/customers/customer-search.sql.ts', '../../db/sql/columns.js'],
  [
    "a feature's read model using Prisma Client",
    'src/features/links/link.read-model.ts',
    '../../db/connection/prisma-client.js',
  ],
  [
    "a feature's REST operations using src/rest",
    'src/features/customers/customer.rest.ts',
    '../../rest/operations/route.js',
  ],
  ["a feature's REST operations using src/http", 'src/features/customers/customer.rest.ts', '../../http/rate-limit.js'],
  ["a feature's resolvers using src/graphql", 'src/features/ledger/ledger.resolvers.ts', '../../graphql/loaders.js'],
  ["a feature's resolvers using graphql", 'src/features/events/event-subscription.resolvers.ts', 'graphql'],
  ['an outbound HTTP client in a feature using node:http', 'src/features/webhooks/webhook-http.ts', 'node:http'],
  ["the composition root using a feature's index.ts", 'src/runtime.ts', './features/events/index.js'],
  ['the composition root using the aggregates', 'src/runtime.ts', './features/services.js'],
  ["a shared room using a feature's index.ts", 'src/rest/router.ts', '../features/customers/index.js'],
  [
    'the column lists reading a record type from its own module',
    'src/db/sql/columns.ts',
    '../../features/ledger/transaction.js',
  ],
  ['a job using the domain', 'src/jobs/x.ts', '../domain/errors.js'],
  ["a job using a feature's index.ts", 'src/jobs/x.ts', '../features/events/index.js'],
  ["the CLI using a feature's index.ts", 'src/cli/x.ts', '../features/webhooks/index.js'],
  ['the CLI using the database', 'src/cli/x.ts', '../db/connection/prisma-client.js'],
  ['the HTTP layer using the domain', 'src/http/x.ts', '../domain/errors.js'],
  ['the database using the domain', 'src/db/x.ts', '../domain/errors.js'],
  ['REST using the HTTP layer', 'src/rest/x.ts', '../http/errors.js'],
  ['scripts using test/support', 'scripts/reliability/x.ts', '../../test/support/factories.js'],
  ['bench using scripts', 'bench/x.ts', '../scripts/lib/proc.js'],
  ['bench using test/support', 'bench/x.ts', '../test/support/factories.js'],
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(violations)('%s: reported', async (_rule, file, specifier) => {
    expect(await boundaryMessages(file, specifier)).not.toEqual([]);
  });

  it.each(allowed)('%s: not reported', async (_why, file, specifier) => {
    expect(await boundaryMessages(file, specifier)).toEqual([]);
  });
});
