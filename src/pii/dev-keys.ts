import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
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
  const stored = readDevKeys(file) ?? createDevKeys(file, dataDir);
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

/** The stored keys; undefined when there is no file yet. A damaged file stops startup: regenerating
 * would silently make every row written with the old keys unreadable. */
function readDevKeys(file: string): StoredDevKeys | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stored = JSON.parse(text) as StoredDevKeys;
    const keyOk = (value: unknown) => typeof value === 'string' && Buffer.from(value, 'base64').length === 32;
    if (keyOk(stored.keys?.[stored.activeKeyId]) && keyOk(stored.blindIndexKey)) return stored;
  } catch {
    // reported below
  }
  throw new Error(
    `${file} is damaged. Restore it from a backup, or delete it to start over (data encrypted with it then becomes unreadable).`,
  );
}

function createDevKeys(file: string, dataDir: string): StoredDevKeys {
  const stored: StoredDevKeys = {
    activeKeyId: 'dev-1',
    keys: { 'dev-1': randomBytes(32).toString('base64') },
    blindIndexKey: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true });
  // Written aside, then linked into place: readers never see a half-written file, and link() fails
  // if another process starting on the same DATA_DIR got there first, in which case theirs is used.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  try {
    linkSync(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readDevKeys(file)!;
    throw error;
  } finally {
    unlinkSync(partial);
  }
  return stored;
}
