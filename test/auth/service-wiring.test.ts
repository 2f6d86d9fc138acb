import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.js';

describe('the service with the security settings', () => {
  it('starts migrated with OIDC and an idempotency TTL configured, and logs no key material', async () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const service = await startTestService({
      OIDC_ISSUER: 'https://idp.test.example/',
      OIDC_AUDIENCE: 'customer-account-service',
      OIDC_PUBLIC_KEY: pem,
      OIDC_ALGORITHMS: 'ES256',
      IDEMPOTENCY_TTL_HOURS: '48',
    });
    try {
      const ready = await service.call('GET', '/readyz', { auth: false });
      expect(ready.status).toBe(200);
      const { rows } = await service.database.pool.query(
        "SELECT count(*)::int AS n FROM _prisma_migrations WHERE migration_name LIKE '%_security'",
      );
      expect(rows[0].n).toBe(1);
      const body = pem.split('\n')[1]!;
      expect(service.logLines.some((line) => line.includes(body) || line.includes(service.token))).toBe(false);
    } finally {
      await service.stop();
    }
  });
});
