import type { PageRequest } from '../../domain/pagination.js';
import type { CreationEffects } from '../../domain/write-effects.js';
import type { EntryType, Transaction } from './transaction.js';

/** What the ledger service needs from storage (src/features/ledger/ledger.store.ts implements it). */

/**
 * One side of a posting. accountId null: one of the environment's internal accounts of the currency, the settlement
 * account unless the posting names another (NewPosting.internalAccount).
 */
export interface PostingLeg {
  entryId: string;
  accountId: string | null;
  type: EntryType;
}

/** A balanced posting of `amount`: one DEBIT leg and one CREDIT leg. */
export interface NewPosting {
  environment: string;
  postingId: string;
  transferId: string | null;
  legs: readonly [PostingLeg, PostingLeg];
  amount: string;
  /**
   * Every account of the posting must be in this currency (CURRENCY_MISMATCH otherwise); null: the first
   * account's, as the statement locked it, so a posting needs no read before its write.
   */
  currency: string | null;
  description: string;
  /** true: a hold (pending), which only reserves the amount. */
  hold: boolean;
  expiresAt: Date | null;
  /** The caller's limits, checked and counted by the posting statement itself; null: not limited. */
  limits: LimitCheck | null;
  /** The client's reference, on the customer-account legs; unique per environment among transactions (no transferId) or transfers. */
  externalId: string | null;
  metadata: Readonly<Record<string, string>> | null;
  /**
   * true: a client asked for it through the transaction or transfer API, so it is the customer's activity (docs/adr/0109)
   * and a DORMANT account refuses its debit (ACCOUNT_DORMANT). Absent or false: the bank's own posting (interest, fees,
   * a closing disbursement), which neither counts as activity nor is refused on a dormant account.
   */
  customerInitiated?: boolean;
  /**
   * The environment's IANA time zone: its business date (by the environment's clock) is the day a product's withdrawal
   * limits count (docs/adr/0114). Absent: America/New_York, the default of ENVIRONMENT_TIME_ZONES.
   */
  timeZone?: string;
  /**
   * Which of the environment's internal accounts of the currency the leg without an account books against: the
   * settlement account (money entering or leaving the bank; the default), the interest-expense account (interest
   * paid, docs/adr/0113) or the fee-income account (fees charged, docs/adr/0115), rows of ledger_internal_accounts. All
   * are the bank's side, so the balances still sum to zero.
   */
  internalAccount?: InternalAccount;
}

/** The environment's internal accounts, one of each per currency (the settlement account; ledger_internal_accounts.purpose). */
export type InternalAccount = 'SETTLEMENT' | 'INTEREST_EXPENSE' | 'FEE_INCOME';

/** What the transaction list matches (src/features/ledger/ledger.schemas.ts), amounts as exact decimal text. */
export interface TransactionFilter {
  status?: string;
  type?: string;
  /** ISO 8601 instants: createdAt from (inclusive), to (exclusive). */
  from?: string;
  to?: string;
  minAmount?: string;
  maxAmount?: string;
  externalId?: string;
}

/**
 * A principal's limits as one posting applies them (src/features/ledger/limits.ts): the statement refuses
 * with TOKEN_LIMIT_EXCEEDED, writing nothing, when the amount is over `maxAmount` or would take the
 * principal's total of the UTC day in the posting's currency over `daily[currency]`; otherwise it adds the
 * amount to that total in the same statement.
 */
export interface LimitCheck {
  principalId: string;
  maxAmount: string | null;
  /** Currency code → most per UTC day; null: the posting does not count toward a daily total. */
  daily: Readonly<Record<string, string>> | null;
}

/** Why the ledger refused a write; nothing was written. */
export type LedgerRefusal =
  | 'ACCOUNT_NOT_FOUND'
  | 'CURRENCY_MISMATCH'
  | 'ACCOUNT_FROZEN'
  /** An account of the posting is closed (docs/adr/0106). */
  | 'ACCOUNT_CLOSED'
  /** A client's debit of a DORMANT account (docs/adr/0109). */
  | 'ACCOUNT_DORMANT'
  | 'DEBITS_BLOCKED'
  | 'CREDITS_BLOCKED'
  | 'INSUFFICIENT_FUNDS'
  | 'TRANSACTION_NOT_FOUND'
  | 'TRANSACTION_NOT_PENDING'
  | 'TRANSACTION_NOT_POSTED'
  | 'TRANSACTION_ALREADY_REVERSED'
  | 'REVERSAL_NOT_REVERSIBLE'
  | 'HOLD_EXPIRED'
  | 'AMOUNT_EXCEEDS_HOLD'
  /** Another transaction (or transfer) of the environment has the externalId. */
  | 'EXTERNAL_ID_TAKEN'
  /** More decimals than the posting currency's minor unit. */
  | 'AMOUNT_TOO_PRECISE'
  /** Over the caller's maximum per posting, or its daily total in the currency. */
  | 'TOKEN_LIMIT_EXCEEDED'
  /** A balance it moves (an account's, or the settlement account's) would leave the range its column can hold. */
  | 'BALANCE_OUT_OF_RANGE'
  /** A client's debit would leave the available balance below the account's product's minimum (docs/adr/0114). */
  | 'MINIMUM_BALANCE'
  /** A client's debit would take the account's debits of the business date over its product's dailyWithdrawalTotal. */
  | 'WITHDRAWAL_LIMIT_DAILY_TOTAL'
  /** A client's debit would be one more than its product's withdrawalsPerMonth in the business month. */
  | 'WITHDRAWAL_LIMIT_PER_MONTH'
  /** A client's first posting of an account on a product is not a credit of at least its minimumOpeningDeposit. */
  | 'MINIMUM_OPENING_DEPOSIT';

export type LedgerWrite =
  | { outcome: 'written'; transactions: Transaction[] }
  | { outcome: 'key-taken' }
  | {
      outcome: 'refused';
      refusal: LedgerRefusal;
      accountId: string | null;
      currency?: string | null;
      /** A product's refusal's values as exact decimal text (docs/adr/0114), e.g. {minimumBalance, available}. */
      details?: Readonly<Record<string, string>> | null;
    };

export type HoldSettlement = { action: 'post'; amount: string | null; limits: LimitCheck | null } | { action: 'void' };

export interface NewReversal {
  postingId: string;
  /** Ids of the reversal's two entries. */
  entryIds: readonly [string, string];
  description: string;
}

/**
 * The double-entry ledger. Each write is one statement: it locks the accounts it moves money on (in id
 * order, then the settlement account), checks every rule against what it locked, and writes the entries,
 * the balances and its effects, or nothing.
 */
export interface LedgerStore {
  post(posting: NewPosting, effects: CreationEffects): Promise<LedgerWrite>;
  /** Posts (all or part of) or voids the hold `transactionId` of `accountId`, both sides of it. */
  settleHold(
    environment: string,
    accountId: string,
    transactionId: string,
    settlement: HoldSettlement,
    effects: CreationEffects,
  ): Promise<LedgerWrite>;
  /** Reverses the posted posting of `transactionId` (both sides), at most once. */
  reverse(
    environment: string,
    accountId: string,
    transactionId: string,
    reversal: NewReversal,
    effects: CreationEffects,
  ): Promise<LedgerWrite>;
  findTransactions(environment: string, transactionIds: readonly string[]): Promise<Transaction[]>;
  /** Both transactions of the transfer (none: no such transfer in the environment). */
  findTransfer(environment: string, transferId: string): Promise<Transaction[]>;
  /**
   * Newest first, those matching every given filter; `after` is a transactionId of the same account (the
   * page starts after it: older). One statement, whatever the page's size.
   */
  listTransactions(
    environment: string,
    accountId: string,
    filter: TransactionFilter,
    page: PageRequest,
  ): Promise<Transaction[]>;
  /** Pending holds whose expiry has passed by their environment's clock, every environment, oldest first (the intra-day sweep). */
  expiredHolds(limit: number): Promise<ExpiredHold[]>;
  /** The environment's pending holds that expire at or before `by`, oldest first (the end of day's step). */
  expiredHoldsOf(environment: string, by: Date, limit: number): Promise<ExpiredHold[]>;
}

export interface ExpiredHold {
  environment: string;
  accountId: string;
  transactionId: string;
}
