/**
 * The ledger as the domain sees it. A posting moves money: two entries of the same currency, one debit and
 * one credit of the same amount, so every posting is balanced and the environment's balances always sum
 * to zero. An entry on a customer account is what the API calls a transaction; the other side is either
 * another account (a transfer) or the environment's settlement account (money entering or leaving the
 * bank, never shown as an account).
 */

export const ENTRY_TYPES = ['CREDIT', 'DEBIT'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export const TRANSACTION_STATUSES = ['PENDING', 'POSTED', 'VOIDED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** One side of a posting on one account, as it leaves the domain. Amounts are exact decimal strings. */
export interface Transaction {
  transactionId: string;
  accountId: string;
  type: EntryType;
  /** What moved: the posted amount once POSTED, else the amount authorised. Always positive. */
  amount: string;
  /** For a hold, the amount authorised (a hold may post for less); otherwise equal to `amount`. */
  authorizedAmount: string;
  currency: string;
  description: string;
  status: TransactionStatus;
  /** The account's posted balance just after this transaction posted; null while PENDING or once VOIDED. */
  balanceAfter: string | null;
  /** ISO 8601 instants. */
  createdAt: string;
  postedAt: string | null;
  voidedAt: string | null;
  /** A hold's expiry, after which it voids itself; null for anything else. */
  expiresAt: string | null;
  /** Both transactions of a transfer between two accounts carry the transfer's id. */
  transferId: string | null;
  /** The transaction this one reverses; a transaction is reversed at most once. */
  reversesTransactionId: string | null;
  /** The client's reference given at creation (a transfer's, on both its sides); absent when none was. */
  externalId?: string;
  /** The client's key-value pairs given at creation (a transfer's, on both its sides); absent when none were. */
  metadata?: Record<string, string>;
}

/** The three balances of an account (Modern Treasury and Unit use the same three). */
export interface AccountBalance {
  /** Credits minus debits of posted transactions: the account's `amount`. */
  posted: string;
  /** Posted, plus pending credits, minus pending debits: what the balance will be once every hold posts. */
  pending: string;
  /** Posted minus pending debits: what can be spent now (down to minus the overdraft limit). */
  available: string;
}

/** How many of its newest transactions an account carries in `transactions`; the rest is the paged list. */
export const RECENT_TRANSACTIONS = 10;
