import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PiiConfig } from '../config/config.js';
import type { PiiKeyring } from './pii-cipher.js';

const FILE_NAME = 'pii-keys.dev.json';

interface StoredDevKeys {
  activeKeyId: string;
  keys: Record<string, string>;
  blindIndexKey: string;
}

/**
 * The keyring from configuration, or, outside production and only when none is configured, one
 * generated once and kept in DATA_DIR so that data written in development stays readable across
 * restarts. `warn` is told loudly, every start, that these keys are not fit for real data.
 */
export function resolvePiiKeyring(pii: PiiConfig, dataDir: string, warn: (message: string) => void): PiiKeyring {
  if (pii.keys && pii.activeKeyId && pii.blindIndexKey) {
    return { keys: pii.keys, activeKeyId: pii.activeKeyId, blindIndexKey: pii.blindIndexKey };
  }
  const file = path.join(dataDir, FILE_NAME);
  let stored: StoredDevKeys;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as StoredDevKeys;
  } catch {
    stored = {
      activeKeyId: 'dev-1',
      keys: { 'dev-1': randomBytes(32).toString('base64') },
      blindIndexKey: randomBytes(32).toString('base64'),
    };
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  }
  warn(
    `PII_KEYS is not set: using development encryption keys from ${file}. ` +
      'NEVER use these for real personal data; set PII_KEYS, PII_ACTIVE_KEY and PII_BLIND_INDEX_KEY.',
  );
  return {
    keys: new Map(Object.entries(stored.keys).map(([kid, key]) => [kid, Buffer.from(key, 'base64')])),
    activeKeyId: stored.activeKeyId,
    blindIndexKey: Buffer.from(stored.blindIndexKey, 'base64'),
  };
}
