import { afterEach, describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/features/tokens/api-tokens.js';
import { migrate, readMigrations } from '../../src/db/migrations/migrations.js';
import { createEmptyDatabase } from './empty-database.js';

/**
 * Migration 20261207000000_customers_ssn_search_scope: a search by SSN needs `customers:ssn_search` from now on, so
 * every managed token made before it that held `customers:read` (and could search by SSN) is granted it on upgrade.
 */
const MIGRATION = '20261207000000_customers_ssn_search_scope';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe(`migration ${MIGRATION}`, () => {
  it('grants customers:ssn_search to the managed tokens created before it with customers:read, and to no other', async () => {
    const db = await createEmptyDatabase();
    cleanups.push(() => db.drop());
    const pool = db.pool();
    // The migrations up to this one: those after it are not this test's.
    const all = readMigrations().filter((migration) => migration.name <= MIGRATION);
    expect(all.at(-1)!.name).toBe(MIGRATION);
    await migrate(pool, all.slice(0, -1));

    const tokens = {
      support: ['customers:read'],
      integration: ['customers:read', 'customers:write', 'accounts:read'],
      writerOnly: ['customers:write'],
      auditor: ['audit:read', 'events:read'],
    } as const;
    const ids: Record<string, string> = {};
    for (const [name, scopes] of Object.entries(tokens)) {
      const { id, secretHash } = generateApiToken();
      ids[name] = id;
      await pool.query(
        'INSERT INTO api_tokens (id, name, secret_hash, environments, scopes) VALUES ($1, $2, $3, $4, $5)',
        [id, name, secretHash, ['*'], scopes],
      );
    }

    expect((await migrate(pool, all)).applied).toEqual([MIGRATION]);
    const scopesOf = async (name: string) =>
      (await pool.query<{ scopes: string[] }>('SELECT scopes FROM api_tokens WHERE id = $1', [ids[name]])).rows[0]!
        .scopes;
    expect(await scopesOf('support')).toEqual(['customers:read', 'customers:ssn_search']);
    expect(await scopesOf('integration')).toEqual([
      'customers:read',
      'customers:write',
      'accounts:read',
      'customers:ssn_search',
    ]);
    expect(await scopesOf('writerOnly')).toEqual(['customers:write']);
    expect(await scopesOf('auditor')).toEqual(['audit:read', 'events:read']);

    // Applied once: the grant is not repeated (and would not duplicate the scope if it were).
    expect((await migrate(pool, all)).applied).toEqual([]);
    expect(await scopesOf('support')).toEqual(['customers:read', 'customers:ssn_search']);
  });
});
