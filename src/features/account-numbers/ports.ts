import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { AccountNumberStatus, InboundAchDebits } from './account-number.js';

/** What a sealed account number is bound to (its associated data): a ciphertext copied onto another row fails to open. */
export interface AccountNumberBinding {
  environment: string;
  accountId: string;
  accountNumberId: string;
}

/** An account number after encryption (docs/adr/0107): the only form in which it is stored. */
export interface SealedAccountNumber {
  keyId: string;
  ciphertext: Uint8Array;
  blindIndex: Uint8Array;
}

/** The PII keys' face for account numbers (src/pii/pii-cipher.ts implements it). */
export interface AccountNumberSealer {
  sealAccountNumber(binding: AccountNumberBinding, number: string): SealedAccountNumber;
  openAccountNumber(binding: AccountNumberBinding, sealed: { keyId: string; ciphertext: Uint8Array }): string;
  /** HMAC of the environment and the number (its own label): how a look-up finds it and how uniqueness is kept. */
  accountNumberBlindIndex(environment: string, number: string): Uint8Array;
}

/** An account number as stored: never its digits, only their last four. */
export interface AccountNumberRecord {
  accountNumberId: string;
  accountId: string;
  last4: string;
  status: AccountNumberStatus;
  inboundAchDebits: InboundAchDebits;
  createdAt: string;
  updatedAt: string;
}

/** With its sealed digits, for the scoped reader only. */
export interface SealedAccountNumberRecord extends AccountNumberRecord {
  keyId: string;
  ciphertext: Uint8Array;
}

/** A new number's row, sealed: what account creation and `POST …/account-numbers` write. */
export interface NewAccountNumberRow {
  id: string;
  keyId: string;
  ciphertext: Uint8Array;
  blindIndex: Uint8Array;
  last4: string;
  /** ALLOWED when absent. */
  inboundAchDebits?: InboundAchDebits;
}

export type AccountNumberInsertion =
  | { outcome: 'created'; accountNumber: AccountNumberRecord }
  | { outcome: 'account-not-found' }
  | { outcome: 'number-taken' };

export type AccountNumberUpdate =
  | { outcome: 'updated'; accountNumber: AccountNumberRecord; changed: boolean }
  | { outcome: 'not-found' }
  | { outcome: 'canceled' };

export interface AccountNumberStore {
  /** The account's numbers, oldest first, with their ciphertexts; null when no such account. */
  listSealed(environment: string, accountId: string): Promise<SealedAccountNumberRecord[] | null>;
  /**
   * The account's numbers, oldest first (GraphQL's `Account.accountNumbers`, batched): one list per id, [] for one
   * with none or no such account.
   */
  listOfMany(environment: string, accountIds: readonly string[]): Promise<SealedAccountNumberRecord[][]>;
  /** In one statement: the number (for an existing account, held FOR KEY SHARE), its audit row and its event. */
  insert(
    environment: string,
    accountId: string,
    row: NewAccountNumberRow,
    audit: NewAuditEvent,
  ): Promise<AccountNumberInsertion>;
  /**
   * In one statement: the changes on the locked row (nothing when it is CANCELED, which is final), the audit row
   * and, when something changed, the event.
   */
  update(
    environment: string,
    accountId: string,
    accountNumberId: string,
    changes: { status?: AccountNumberStatus; inboundAchDebits?: InboundAchDebits },
    audit: NewAuditEvent,
  ): Promise<AccountNumberUpdate>;
  /** The number with this blind index in the environment, or null. */
  findByBlindIndex(environment: string, blindIndex: Uint8Array): Promise<SealedAccountNumberRecord | null>;
  /** Writes an audit row on its own (a read that is audited: the full list, a look-up). */
  audit(audit: NewAuditEvent): Promise<void>;
}
