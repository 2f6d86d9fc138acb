import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { PiiCipher } from '../../src/pii/pii-cipher.js';
import { createDomainHarness, type DomainHarness } from './domain.js';
import { TEST_STATIC_TOKEN } from './static-token.js';

/** The two PII keys of a rotation test: data sealed under 'old' is re-sealed under 'new'. */
export type RotationKeyId = 'old' | 'new';

export interface RotationKeys {
  /** A cipher whose active key is `activeKeyId`, knowing only the keys `available` (both by default). */
  cipherWith(activeKeyId: RotationKeyId, available?: RotationKeyId[]): PiiCipher;
  /** The domain services on a fresh database, sealing under 'old', the only key they know. */
  createHarness(): Promise<DomainHarness>;
  /** `npm run pii:rotate --batch-size <batchSize>` as a process on the database, knowing both keys, 'old' active. */
  runPiiRotate(databaseUrl: string, batchSize: number): Promise<{ stdout: string; stderr: string }>;
}

/**
 * Fresh keys (two PII keys and the blind index key) for one test file of `npm run pii:rotate` (src/pii/pii-rotation.ts)
 * on a field sealed by the PII cipher, and what the file does with them.
 */
export function rotationKeys(): RotationKeys {
  const keys: Record<RotationKeyId, Buffer> = { old: randomBytes(32), new: randomBytes(32) };
  const blindIndexKey = randomBytes(32);
  return {
    cipherWith: (activeKeyId, available = ['old', 'new']) =>
      new PiiCipher({ keys: new Map(available.map((kid) => [kid, keys[kid]])), activeKeyId, blindIndexKey }),
    createHarness: () =>
      createDomainHarness({ keyring: { keys: new Map([['old', keys.old]]), activeKeyId: 'old', blindIndexKey } }),
    runPiiRotate: (databaseUrl, batchSize) =>
      promisify(execFile)(
        path.resolve('node_modules/.bin/tsx'),
        ['src/cli/pii-rotate.ts', '--batch-size', String(batchSize)],
        {
          env: {
            ...process.env,
            NODE_ENV: 'test',
            DATABASE_URL: databaseUrl,
            API_TOKENS: TEST_STATIC_TOKEN,
            PII_KEYS: `old:${keys.old.toString('base64')},new:${keys.new.toString('base64')}`,
            PII_ACTIVE_KEY: 'old',
            PII_BLIND_INDEX_KEY: blindIndexKey.toString('base64'),
          },
        },
      ),
  };
}
