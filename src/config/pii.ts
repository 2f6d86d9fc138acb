import { z } from 'zod';
import { commaList } from './settings.js';

/** The keys of the personal data (src/pii): read by parsePiiConfig from the raw strings, so its problems are reported even when other variables are bad. */
export const piiEnv = {
  PII_KEYS: z.string().optional(),
  PII_ACTIVE_KEY: z.string().trim().optional(),
  PII_BLIND_INDEX_KEY: z.string().trim().optional(),
};

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface PiiConfig {
  /** kid → 32-byte AES-256 key. Undefined in development means "generate and persist in dataDir". */
  keys: Map<string, Buffer> | undefined;
  activeKeyId: string | undefined;
  blindIndexKey: Buffer | undefined;
}

function decodeKey(name: string, base64: string, problems: string[]): Buffer | undefined {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')) {
    problems.push(`${name} must be 32 bytes encoded in base64 (generate one with: openssl rand -base64 32)`);
    return undefined;
  }
  return key;
}

interface RawPiiSettings {
  PII_KEYS?: string | undefined;
  PII_ACTIVE_KEY?: string | undefined;
  PII_BLIND_INDEX_KEY?: string | undefined;
}

export function parsePiiConfig(raw: RawPiiSettings, problems: string[]): PiiConfig {
  const problemsBefore = problems.length;
  let keys: Map<string, Buffer> | undefined;
  if (raw.PII_KEYS !== undefined) {
    keys = new Map();
    for (const pair of commaList(raw.PII_KEYS)) {
      const separator = pair.indexOf(':');
      const kid = separator > 0 ? pair.slice(0, separator) : '';
      if (!KEY_ID.test(kid)) {
        problems.push(
          'PII_KEYS must be a comma-separated list of kid:base64key pairs, kid made of letters, digits, ".", "_" or "-"',
        );
        continue;
      }
      if (keys.has(kid)) problems.push(`PII_KEYS names key "${kid}" twice`);
      const key = decodeKey(`PII_KEYS key "${kid}"`, pair.slice(separator + 1), problems);
      if (key) keys.set(kid, key);
    }
    if (keys.size === 0 && problems.length === problemsBefore)
      problems.push('PII_KEYS must contain at least one kid:base64key pair');
  }
  const activeKeyId = raw.PII_ACTIVE_KEY;
  if (activeKeyId !== undefined && keys === undefined) problems.push('PII_ACTIVE_KEY is set but PII_KEYS is not');
  if (keys !== undefined && keys.size > 0) {
    if (activeKeyId === undefined) problems.push('PII_ACTIVE_KEY must name one of the keys in PII_KEYS');
    else if (!keys.has(activeKeyId))
      problems.push(`PII_ACTIVE_KEY "${activeKeyId}" is not one of the keys in PII_KEYS`);
  }
  const blindIndexKey =
    raw.PII_BLIND_INDEX_KEY === undefined
      ? undefined
      : decodeKey('PII_BLIND_INDEX_KEY', raw.PII_BLIND_INDEX_KEY, problems);
  if ((keys === undefined) !== (raw.PII_BLIND_INDEX_KEY === undefined)) {
    problems.push('PII_KEYS and PII_BLIND_INDEX_KEY must be set together');
  }
  return { keys, activeKeyId, blindIndexKey };
}
