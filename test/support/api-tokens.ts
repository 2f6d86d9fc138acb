import type pg from 'pg';
import { generateApiToken } from '../../src/features/tokens/api-tokens.js';
import type { AccessScope, PostingLimits } from '../../src/domain/caller.js';

/** A managed API token, as `npm run token -- create` makes it, straight into the test database. */
export async function issueApiToken(
  pool: pg.Pool,
  grant: {
    environments: string[] | ['*'];
    scopes: AccessScope[];
    name?: string;
    expiresAt?: Date;
    limits?: PostingLimits;
  },
): Promise<{ id: string; token: string; principalId: string }> {
  const { id, token, secretHash } = generateApiToken();
  await pool.query(
    'INSERT INTO api_tokens (id, name, secret_hash, environments, scopes, expires_at, max_amount, daily_limits) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [
      id,
      grant.name ?? 'test token',
      secretHash,
      grant.environments,
      grant.scopes,
      grant.expiresAt ?? null,
      grant.limits?.maxAmount ?? null,
      grant.limits?.daily === undefined ? null : JSON.stringify(grant.limits.daily),
    ],
  );
  return { id, token, principalId: `token:${id}` };
}
