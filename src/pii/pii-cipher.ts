import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { PersonalDataProtector, SealedPersonalData, SealedTaxId } from '../features/ports.js';

/** The sealed columns, each bound to its own name. */
type SealedField = 'ssn' | 'document_locator_number' | 'tax_id';
import type { SealedSecret, SecretSealer } from '../features/webhooks/index.js';
import type { DocumentBinding, DocumentSealer, SealedChunk } from '../features/verification/index.js';
import type {
  AccountNumberBinding,
  AccountNumberSealer,
  SealedAccountNumber,
} from '../features/account-numbers/index.js';

export interface PiiKeyring {
  /** kid → 32-byte AES-256 key. Old keys stay here so rows sealed under them can still be read. */
  keys: ReadonlyMap<string, Buffer>;
  activeKeyId: string;
  /** Separate HMAC key for the SSN blind index; never used for encryption. */
  blindIndexKey: Buffer;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 1;

/**
 * AES-256-GCM for SSNs and document locator numbers, HMAC-SHA-256 for the SSN blind index.
 *
 * Ciphertext layout: version (1 byte) | IV (12) | tag (16) | encrypted bytes. The associated data
 * binds each ciphertext to its environment, customer and field, so a ciphertext copied onto another
 * row or column fails to decrypt instead of silently answering for the wrong person.
 */
export class PiiCipher implements PersonalDataProtector, SecretSealer, DocumentSealer, AccountNumberSealer {
  private readonly activeKey: Buffer;
  /** Derived from the blind index key, so idempotency fingerprints need no extra configuration. */
  private readonly fingerprintKey: Buffer;

  constructor(private readonly keyring: PiiKeyring) {
    const active = keyring.keys.get(keyring.activeKeyId);
    if (!active) throw new Error(`PII active key "${keyring.activeKeyId}" is not in the keyring`);
    for (const [kid, key] of keyring.keys) if (key.length !== 32) throw new Error(`PII key "${kid}" is not 32 bytes`);
    if (keyring.blindIndexKey.length !== 32) throw new Error('PII blind index key is not 32 bytes');
    this.activeKey = active;
    this.fingerprintKey = Buffer.from(
      hkdfSync('sha256', keyring.blindIndexKey, Buffer.alloc(0), 'cas idempotency fingerprint v1', 32),
    );
  }

  get activeKeyId(): string {
    return this.keyring.activeKeyId;
  }

  seal(
    binding: { environment: string; customerId: string },
    data: { socialSecurityNumber: string; documentLocatorNumber: number },
  ): SealedPersonalData {
    return {
      keyId: this.keyring.activeKeyId,
      ssnBlindIndex: this.blindIndex(binding.environment, data.socialSecurityNumber),
      ssnCiphertext: this.encrypt(data.socialSecurityNumber, associatedData(binding, 'ssn')),
      documentLocatorNumberCiphertext: this.encrypt(
        String(data.documentLocatorNumber),
        associatedData(binding, 'document_locator_number'),
      ),
    };
  }

  /** Reads a sealed value back (key rotation and operator tooling only; never for a response). */
  open(
    binding: { environment: string; customerId: string },
    field: SealedField,
    keyId: string,
    ciphertext: Uint8Array,
  ): string {
    return this.decrypt(keyId, ciphertext, associatedData(binding, field));
  }

  /**
   * The same value sealed again under the active key (key rotation only): opened with the key it names,
   * with the same associated data, so the row binding is kept.
   */
  reseal(
    binding: { environment: string; customerId: string },
    field: SealedField,
    keyId: string,
    ciphertext: Uint8Array,
  ): Buffer {
    return this.encrypt(this.open(binding, field, keyId, ciphertext), associatedData(binding, field));
  }

  /**
   * Webhook signing secrets at rest, under the same keys and layout; `binding` (the environment and endpoint
   * id) is the associated data, so a ciphertext copied onto another endpoint fails to open.
   */
  sealSecret(binding: string, secret: string): SealedSecret {
    return { keyId: this.keyring.activeKeyId, ciphertext: this.encrypt(secret, Buffer.from(binding, 'utf8')) };
  }

  openSecret(binding: string, sealed: SealedSecret): string {
    return this.decrypt(sealed.keyId, sealed.ciphertext, Buffer.from(binding, 'utf8'));
  }

  /** The same secret sealed again under the active key (key rotation only), bound to the same row. */
  resealSecret(binding: string, sealed: SealedSecret): SealedSecret {
    return this.sealSecret(binding, this.openSecret(binding, sealed));
  }

  /**
   * One chunk of a verification document's content (docs/adr/0103) under the active key, bound to its environment,
   * customer, document and position: a chunk copied onto another document, or moved to another place, fails to open.
   */
  sealChunk(binding: DocumentBinding, seq: number, plaintext: Uint8Array): SealedChunk {
    return {
      keyId: this.keyring.activeKeyId,
      ciphertext: this.encryptBytes(this.activeKey, plaintext, chunkAssociatedData(binding, seq)),
    };
  }

  /** A chunk's plaintext, for the content's one reader (GET …/document/{documentId}/content, audited) and rotation. */
  openChunk(binding: DocumentBinding, seq: number, sealed: SealedChunk): Buffer {
    return this.decryptBytes(sealed.keyId, sealed.ciphertext, chunkAssociatedData(binding, seq));
  }

  /** The same chunk sealed again under the active key (key rotation only), bound to the same place. */
  resealChunk(binding: DocumentBinding, seq: number, sealed: SealedChunk): SealedChunk {
    return this.sealChunk(binding, seq, this.openChunk(binding, seq, sealed));
  }

  fingerprint(material: string): Buffer {
    return createHmac('sha256', this.fingerprintKey).update(material, 'utf8').digest();
  }

  /** A business's tax id under the active key, bound to its customer like an SSN, with its blind index. */
  sealTaxId(binding: { environment: string; customerId: string }, normalisedTaxId: string): SealedTaxId {
    return {
      keyId: this.keyring.activeKeyId,
      taxIdBlindIndex: this.taxIdBlindIndex(binding.environment, normalisedTaxId),
      taxIdCiphertext: this.encrypt(normalisedTaxId, associatedData(binding, 'tax_id')),
    };
  }

  /**
   * The blind index of a normalised tax id: the SSN's key, with its own label, so that a tax id and an SSN
   * with the same nine digits never share an index value.
   */
  taxIdBlindIndex(environment: string, normalisedTaxId: string): Buffer {
    return createHmac('sha256', this.keyring.blindIndexKey)
      .update(`${environment}\u0000tax_id\u0000${normalisedTaxId}`)
      .digest();
  }

  /**
   * An account number (docs/adr/0107) under the active key, bound to its environment, account and row, with its
   * blind index: a ciphertext copied onto another account or row fails to open.
   */
  sealAccountNumber(binding: AccountNumberBinding, number: string): SealedAccountNumber {
    return {
      keyId: this.keyring.activeKeyId,
      ciphertext: this.encrypt(number, accountNumberAssociatedData(binding)),
      blindIndex: this.accountNumberBlindIndex(binding.environment, number),
    };
  }

  /** An account number's digits, for the one scoped reader (GET …/account-numbers, audited) and rotation. */
  openAccountNumber(binding: AccountNumberBinding, sealed: { keyId: string; ciphertext: Uint8Array }): string {
    return this.decrypt(sealed.keyId, sealed.ciphertext, accountNumberAssociatedData(binding));
  }

  /** The same number sealed again under the active key (key rotation only), bound to the same row. */
  resealAccountNumber(binding: AccountNumberBinding, sealed: { keyId: string; ciphertext: Uint8Array }): Buffer {
    return this.encrypt(this.openAccountNumber(binding, sealed), accountNumberAssociatedData(binding));
  }

  /** The blind index of an account number: the SSN's key with its own label, so it never equals an SSN's or a tax id's. */
  accountNumberBlindIndex(environment: string, number: string): Buffer {
    return createHmac('sha256', this.keyring.blindIndexKey)
      .update(`${environment}\u0000account_number\u0000${number}`)
      .digest();
  }

  /** Deterministic keyed digest of a normalised SSN, scoped to the environment. */
  blindIndex(environment: string, normalisedSsn: string): Buffer {
    return createHmac('sha256', this.keyring.blindIndexKey).update(`${environment}\u0000${normalisedSsn}`).digest();
  }

  private decrypt(keyId: string, ciphertext: Uint8Array, aad: Buffer): string {
    return this.decryptBytes(keyId, ciphertext, aad).toString('utf8');
  }

  private decryptBytes(keyId: string, ciphertext: Uint8Array, aad: Buffer): Buffer {
    const key = this.keyring.keys.get(keyId);
    if (!key) throw new Error(`PII key "${keyId}" is not configured`);
    const bytes = Buffer.from(ciphertext);
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new Error('PII ciphertext is malformed');
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    // authTagLength pins the tag to 16 bytes: without it Node accepts truncated tags.
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  }

  private encrypt(plaintext: string, aad: Buffer): Buffer {
    return this.encryptBytes(this.activeKey, Buffer.from(plaintext, 'utf8'), aad);
  }

  private encryptBytes(key: Buffer, plaintext: Uint8Array, aad: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), encrypted]);
  }
}

function chunkAssociatedData(binding: DocumentBinding, seq: number): Buffer {
  return Buffer.from(
    `${binding.environment}\u0000${binding.customerId}\u0000verification_document\u0000${binding.documentId}\u0000${seq}`,
    'utf8',
  );
}

function accountNumberAssociatedData(binding: AccountNumberBinding): Buffer {
  return Buffer.from(
    `${binding.environment}\u0000${binding.accountId}\u0000account_number\u0000${binding.accountNumberId}`,
    'utf8',
  );
}

function associatedData(binding: { environment: string; customerId: string }, field: string): Buffer {
  return Buffer.from(`${binding.environment}\u0000${binding.customerId}\u0000${field}`, 'utf8');
}
