import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PiiCipher, type PiiKeyring } from '../../src/pii/pii-cipher.js';

const keyring = (overrides: Partial<PiiKeyring> = {}): PiiKeyring => ({
  keys: new Map([['k1', randomBytes(32)]]),
  activeKeyId: 'k1',
  blindIndexKey: randomBytes(32),
  ...overrides,
});

const alice = { environment: 'sandbox', customerId: '0190a0a0-0000-7000-8000-00000000000a' };
const bob = { environment: 'sandbox', customerId: '0190a0a0-0000-7000-8000-00000000000b' };
const data = { socialSecurityNumber: '123456789', documentLocatorNumber: 98765432101 };

describe('PiiCipher', () => {
  it('round-trips both fields under the active key id', () => {
    const cipher = new PiiCipher(keyring());
    const sealed = cipher.seal(alice, data);
    expect(sealed.keyId).toBe('k1');
    expect(cipher.open(alice, 'ssn', sealed.keyId, sealed.ssnCiphertext)).toBe('123456789');
    expect(cipher.open(alice, 'document_locator_number', sealed.keyId, sealed.documentLocatorNumberCiphertext)).toBe(
      '98765432101',
    );
  });

  it('never stores the plain value and uses a fresh IV every time', () => {
    const cipher = new PiiCipher(keyring());
    const first = cipher.seal(alice, data);
    const second = cipher.seal(alice, data);
    expect(Buffer.from(first.ssnCiphertext).includes(Buffer.from('123456789'))).toBe(false);
    expect(Buffer.from(first.ssnCiphertext).equals(Buffer.from(second.ssnCiphertext))).toBe(false);
    // version (1) + IV (12) + tag (16) + 9 bytes of ciphertext
    expect(first.ssnCiphertext.length).toBe(1 + 12 + 16 + 9);
  });

  it('binds a ciphertext to its customer, environment and field', () => {
    const cipher = new PiiCipher(keyring());
    const sealed = cipher.seal(alice, data);
    expect(() => cipher.open(bob, 'ssn', 'k1', sealed.ssnCiphertext)).toThrow();
    expect(() =>
      cipher.open({ ...alice, environment: 'production-like' }, 'ssn', 'k1', sealed.ssnCiphertext),
    ).toThrow();
    expect(() => cipher.open(alice, 'document_locator_number', 'k1', sealed.ssnCiphertext)).toThrow();
    expect(() => cipher.open(alice, 'ssn', 'k1', sealed.documentLocatorNumberCiphertext)).toThrow();
  });

  it.each([
    ['a flipped ciphertext bit', (b: Buffer) => (b[b.length - 1]! ^= 0x01)],
    ['a flipped tag bit', (b: Buffer) => (b[13]! ^= 0x80)],
    ['a flipped IV bit', (b: Buffer) => (b[1]! ^= 0x01)],
    ['an unknown format version', (b: Buffer) => (b[0] = 2)],
  ])('rejects %s', (_case, tamper) => {
    const cipher = new PiiCipher(keyring());
    const bytes = Buffer.from(cipher.seal(alice, data).ssnCiphertext);
    tamper(bytes);
    expect(() => cipher.open(alice, 'ssn', 'k1', bytes)).toThrow();
  });

  it('rejects a truncated authentication tag (Node accepts short tags unless pinned)', () => {
    const cipher = new PiiCipher(keyring());
    const bytes = Buffer.from(cipher.seal(alice, data).ssnCiphertext);
    const body = bytes.subarray(1 + 12 + 16);
    for (const tagLength of [4, 8, 12, 15]) {
      const truncated = Buffer.concat([bytes.subarray(0, 1 + 12 + tagLength), body]);
      expect(() => cipher.open(alice, 'ssn', 'k1', truncated)).toThrow();
    }
    expect(() => cipher.open(alice, 'ssn', 'k1', bytes.subarray(0, 20))).toThrow(/malformed/);
  });

  it('rejects an unknown key id, and a ciphertext opened with the wrong key', () => {
    const cipher = new PiiCipher(
      keyring({
        keys: new Map([
          ['k1', randomBytes(32)],
          ['k2', randomBytes(32)],
        ]),
      }),
    );
    const sealed = cipher.seal(alice, data);
    expect(() => cipher.open(alice, 'ssn', 'k9', sealed.ssnCiphertext)).toThrow(/"k9" is not configured/);
    expect(() => cipher.open(alice, 'ssn', 'k2', sealed.ssnCiphertext)).toThrow();
  });

  it('keeps old keys readable after rotation', () => {
    const k1 = randomBytes(32);
    const blindIndexKey = randomBytes(32);
    const before = new PiiCipher({ keys: new Map([['k1', k1]]), activeKeyId: 'k1', blindIndexKey });
    const sealed = before.seal(alice, data);
    const after = new PiiCipher({
      keys: new Map([
        ['k1', k1],
        ['k2', randomBytes(32)],
      ]),
      activeKeyId: 'k2',
      blindIndexKey,
    });
    expect(after.seal(alice, data).keyId).toBe('k2');
    expect(after.open(alice, 'ssn', sealed.keyId, sealed.ssnCiphertext)).toBe('123456789');
    // The blind index does not depend on the encryption key, so uniqueness survives rotation.
    expect(Buffer.from(after.blindIndex('sandbox', '123456789')).equals(Buffer.from(sealed.ssnBlindIndex))).toBe(true);
  });

  it('computes a deterministic blind index per environment that differs across environments and keys', () => {
    const ring = keyring();
    const cipher = new PiiCipher(ring);
    const again = new PiiCipher({ ...ring, keys: new Map([['other', randomBytes(32)]]), activeKeyId: 'other' });
    const sandbox = cipher.blindIndex('sandbox', '123456789');
    expect(sandbox).toHaveLength(32);
    expect(sandbox.equals(again.blindIndex('sandbox', '123456789'))).toBe(true);
    expect(sandbox.equals(cipher.blindIndex('production-like', '123456789'))).toBe(false);
    expect(sandbox.equals(cipher.blindIndex('sandbox', '123456780'))).toBe(false);
    expect(sandbox.equals(new PiiCipher(keyring()).blindIndex('sandbox', '123456789'))).toBe(false);
    expect(sandbox.includes(Buffer.from('123456789'))).toBe(false);
  });

  it('refuses a keyring without its active key or with keys of the wrong size', () => {
    expect(() => new PiiCipher(keyring({ activeKeyId: 'missing' }))).toThrow(/"missing" is not in the keyring/);
    expect(() => new PiiCipher(keyring({ keys: new Map([['k1', randomBytes(16)]]) }))).toThrow(/not 32 bytes/);
    expect(() => new PiiCipher(keyring({ blindIndexKey: randomBytes(31) }))).toThrow(/blind index key/);
  });
});
