import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePiiKeyring } from '../../src/pii/dev-keys.js';
import { PiiCipher } from '../../src/pii/pii-cipher.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-dev-keys-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const execFileAsync = promisify(execFile);
const noConfiguredKeys = { keys: undefined, activeKeyId: undefined, blindIndexKey: undefined };

describe('development PII keys', () => {
  it('are generated once into DATA_DIR with mode 0600 and reused on the next start', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const warnings: string[] = [];
    const first = resolvePiiKeyring(noConfiguredKeys, dataDir, (m) => warnings.push(m));
    const file = path.join(dataDir, 'pii-keys.dev.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.keys.get(first.activeKeyId)).toHaveLength(32);
    expect(first.blindIndexKey).toHaveLength(32);
    expect(warnings.join('\n')).toMatch(/NEVER use these for real personal data/);

    const second = resolvePiiKeyring(noConfiguredKeys, dataDir, () => undefined);
    expect(second).toEqual(first);
    // Data sealed before a restart opens after it.
    const binding = { environment: 'sandbox', customerId: 'c1' };
    const sealed = new PiiCipher(first).seal(binding, { socialSecurityNumber: '123456789', documentLocatorNumber: 1 });
    expect(new PiiCipher(second).open(binding, 'ssn', sealed.keyId, sealed.ssnCiphertext)).toBe('123456789');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ activeKeyId: first.activeKeyId });
  });

  it('stop startup when the key file is damaged instead of replacing it', () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'pii-keys.dev.json');
    for (const content of [
      '{"activeKeyId": "dev-1", "keys": {',
      '{"activeKeyId": "dev-1", "keys": {"dev-1": "c2hvcnQ="}, "blindIndexKey": ""}',
    ]) {
      writeFileSync(file, content);
      expect(() => resolvePiiKeyring(noConfiguredKeys, dataDir, () => undefined)).toThrow(/is damaged/);
      expect(readFileSync(file, 'utf8')).toBe(content);
    }
  });

  it('are generated once even when several processes start on one DATA_DIR at the same moment', async () => {
    const dataDir = tempDir();
    const script = `import { resolvePiiKeyring } from ${JSON.stringify(path.resolve('src/pii/dev-keys.ts'))};
      const k = resolvePiiKeyring({}, ${JSON.stringify(dataDir)}, () => {});
      process.stdout.write(k.keys.get(k.activeKeyId).toString('base64'));`;
    const runs = Array.from({ length: 4 }, () =>
      execFileAsync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]),
    );
    const keys = (await Promise.all(runs)).map((run) => run.stdout);
    expect(new Set(keys).size).toBe(1);
    expect(readdirSync(dataDir)).toEqual(['pii-keys.dev.json']);
  });

  it('are never generated when keys are configured', () => {
    const dataDir = tempDir();
    const configured = {
      keys: new Map([['prod-1', randomBytes(32)]]),
      activeKeyId: 'prod-1',
      blindIndexKey: randomBytes(32),
    };
    const warnings: string[] = [];
    const keyring = resolvePiiKeyring(configured, dataDir, (m) => warnings.push(m));
    expect(keyring).toEqual(configured);
    expect(existsSync(path.join(dataDir, 'pii-keys.dev.json'))).toBe(false);
    expect(warnings).toEqual([]);
  });
});
