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
  return (result?.messages ?? []).filter((message) => /(^|\/)no-restricted-imports$/.test(message.ruleId ?? '')).map((message) => message.message);
}

const violations: Array<[rule: string, file: string, specifier: string]> = [
  ['src/domain imports nothing outside src/domain (the database)', 'src/domain/x.ts', '../db/connection/pool.js'],
  ['src/domain imports nothing outside src/domain (a feature reaching the database)', 'src/features/ledger/x.ts', '../../db/sql/sql.js'],
  ['src/domain imports nothing outside src/domain (configuration)', 'src/domain/x.ts', '../config/config.js'],
  ['src/domain imports nothing outside src/domain (from a feature folder)', 'src/features/accounts/x.ts', '../../logging/logger.js'],
  ['src/domain imports no transport package', 'src/domain/x.ts', 'express'],
  ['a feature port does not import src/features/ports.ts (it aggregates them)', 'src/features/accounts/ports.ts', '../ports.js'],
  ['src/jobs does not import src/rest', 'src/jobs/x.ts', '../rest/envelope.js'],
  ['src/jobs does not import src/rest (the presenters have left it)', 'src/jobs/x.ts', '../rest/presenters.js'],
  ['src/jobs does not import src/graphql', 'src/jobs/x.ts', '../graphql/schema.js'],
  ['src/cli does not import src/rest', 'src/cli/x.ts', '../rest/routes.js'],
  ['src/cli does not import src/graphql', 'src/cli/x.ts', '../graphql/resolvers.js'],
  ['src/http does not import src/db', 'src/http/x.ts', '../db/sql/errors.js'],
  ['src/db does not import src/rest', 'src/db/x.ts', '../rest/envelope.js'],
  ['src/db does not import src/graphql', 'src/db/stores/x.ts', '../../graphql/loaders.js'],
  ['src/db does not import src/http', 'src/db/x.ts', '../http/errors.js'],
  ['test/support imports neither bench/ ...', 'test/support/x.ts', '../../bench/lib/processes.js'],
  ['test/support imports neither ... nor scripts/', 'test/support/x.ts', '../../scripts/lib/proc.js'],
  ['scripts/ do not import bench/', 'scripts/reliability/x.ts', '../../bench/lib/processes.js'],
  ['scripts/ import no test but test/support', 'scripts/reliability/x.ts', '../../test/rest/customers.test.js'],
  ['bench/ imports no test but test/support', 'bench/x.ts', '../test/db/stores.test.js'],
];

const allowed: Array<[why: string, file: string, specifier: string]> = [
  ['the domain within itself', 'src/features/ledger/x.ts', '../accounts/account.js'],
  ['the domain at its root', 'src/features/ledger/x.ts', '../errors.js'],
  ['a feature port using the shared write effects', 'src/features/accounts/ports.ts', '../write-effects.js'],
  ['a job using the domain', 'src/jobs/x.ts', '../domain/errors.js'],
  ['a job using the presenters', 'src/jobs/x.ts', '../presenters/events.js'],
  ['the CLI using the presenters', 'src/cli/x.ts', '../presenters/webhooks.js'],
  ['the CLI using the database', 'src/cli/x.ts', '../db/stores/stores.js'],
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
