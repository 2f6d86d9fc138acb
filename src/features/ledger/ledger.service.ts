import type { z } from 'zod';
import type { Account } from '../accounts/index.js';
import { auditEventFor, type AuditOperation } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import {
  accountClosed,
  accountDormant,
  accountFrozen,
  accountNotFound,
  amountExceedsHold,
  creditsBlocked,
  currencyMismatch,
  debitsBlocked,
  type DomainError,
  externalIdTaken,
  holdExpired,
  insufficientFunds,
  minimumBalance,
  minimumOpeningDeposit,
  referencedAccountNotFound,
  withdrawalLimitExceeded,
  reversalNotReversible,
  transactionAlreadyReversed,
  transactionNotFound,
  transactionNotPending,
  tokenLimitExceeded,
  transactionNotPosted,
  transferNotFound,
  validationFailed,
} from '../../domain/errors.js';
import type { CreateOptions, Creation, IdempotencyRecord, IdempotentCreation } from '../idempotency/index.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { type Page, pageOf, type PageQuery, readPage } from '../../domain/pagination.js';
import type { LedgerRefusal, LedgerStore, LedgerWrite, NewPosting, TransactionFilter } from './ports.js';
import type { AccountStore } from '../accounts/index.js';
import { type EnvironmentTime, realTime } from '../../domain/environment-clock.js';
import { DEFAULT_TIME_ZONE } from '../../config/clock.js';
import type { Caller, Principal } from '../../domain/caller.js';
import { parseInput } from '../../domain/validation.js';
import {
  postHoldSchema,
  postTransactionSchema,
  reverseTransactionSchema,
  transactionFilterSchema,
  type TransactionFilterInput,
  transferSchema,
  LEDGER_LIMITS,
} from './ledger.schemas.js';
import { limitCheckFor } from './limits.js';
import { amountProblemMessage, exactAmount } from './money.js';
import type { Transaction } from './transaction.js';

/** Refuses postings on accounts of customers that are not VERIFIED in a gated environment (docs/adr/0104). */
export interface HolderVerificationGate {
  /** `more`: further accounts of the posting, read only in a gated environment (a reversed transfer's other side). */
  assertHoldersVerified(
    environment: string,
    accountIds: readonly string[],
    more?: () => Promise<readonly string[]>,
  ): Promise<void>;
}

/** Both sides of a transfer between two accounts of the environment. */
export interface Transfer {
  transferId: string;
  amount: string;
  currency: string;
  description: string;
  /** The transaction on the account the money left. */
  debit: Transaction;
  /** The transaction on the account the money reached. */
  credit: Transaction;
  /** The client's reference and key-value pairs given at creation; absent when none were. */
  externalId?: string;
  metadata?: Record<string, string>;
}

/** A transfer from its two transactions (which carry its id, description, externalId and metadata alike). */
function transferOf(debit: Transaction, credit: Transaction, transferId: string): Transfer {
  return {
    transferId: debit.transferId ?? transferId,
    amount: debit.amount,
    currency: debit.currency,
    description: debit.description,
    debit,
    credit,
    ...(debit.externalId !== undefined && { externalId: debit.externalId }),
    ...(debit.metadata !== undefined && { metadata: debit.metadata }),
  };
}

/** Who voids expired holds: the service itself, named in the audit trail. */
const HOLD_EXPIRY_PRINCIPAL: Principal = {
  id: 'system:hold-expiry',
  kind: 'system',
  scopes: ['transactions:write'],
  environments: '*',
};
const EXPIRY_BATCH = 100;

/** What a ledger write stores under its idempotency key: the ids of what it wrote (a replay reads them). */
interface WrittenIds {
  transactionIds: string[];
}

/**
 * Every rule about money. Amounts are validated here against the account's currency; the balance rules
 * (funds, flags, currency, at-most-once reversal, a hold settled once) are decided by the store's one
 * statement on the rows it locked, because only there are they true until commit. REST and GraphQL call
 * these methods and only translate.
 */
export class LedgerService {
  constructor(
    private readonly stores: { accounts: AccountStore; ledger: LedgerStore },
    private readonly creation: IdempotentCreation,
    /** The environments' clocks (docs/adr/0102): a hold's expiry is checked against its environment's time. */
    private readonly clock: EnvironmentTime = realTime,
    /** The verification gate (docs/adr/0104): VERIFICATION_REQUIRED in a gated environment; none by default. */
    private readonly verificationGate: HolderVerificationGate = { assertHoldersVerified: async () => undefined },
    /** Each environment's time zone (ENVIRONMENT_TIME_ZONES): its business date counts a product's withdrawal limits. */
    private readonly timeZoneOf: (environment: string) => string = () => DEFAULT_TIME_ZONE,
  ) {}

  /**
   * A deposit (CREDIT) or withdrawal (DEBIT) against the environment's settlement account, or a hold of one.
   * No read before the write: the statement finds the account (ACCOUNT_NOT_FOUND), its currency and the
   * amount's precision in it (TOO_PRECISE) on the row it locks.
   */
  async postTransaction(
    caller: Caller,
    accountId: string,
    input: unknown,
    options?: CreateOptions,
  ): Promise<Creation<Transaction>> {
    authorize(caller, 'transactions:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(postTransactionSchema, input);
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = accountId.toLowerCase();
    const amount = amountOf(valid.amount, null, 'amount');
    const expiresAt = valid.expiresAt === undefined ? null : await this.holdExpiry(caller.environment, valid.expiresAt);
    const entryId = newId();
    const settlementLeg = {
      entryId: newId(),
      accountId: null,
      type: valid.type === 'CREDIT' ? 'DEBIT' : 'CREDIT',
    } as const;
    const accountLeg = { entryId, accountId: id, type: valid.type };
    const posting: NewPosting = {
      environment: caller.environment,
      postingId: newId(),
      transferId: null,
      legs: [accountLeg, settlementLeg],
      amount,
      currency: null,
      description: valid.description ?? '',
      hold: valid.hold ?? false,
      expiresAt,
      limits: limitCheckFor(caller, !(valid.hold ?? false)),
      externalId: valid.externalId ?? null,
      metadata: valid.metadata ?? null,
      // A client's posting: the customer's activity, refused as a debit of a DORMANT account (docs/adr/0109).
      customerInitiated: true,
      timeZone: this.timeZoneOf(caller.environment),
    };
    const request = { accountId: id, ...valid, amount };
    const { value, replayed } = await this.write(
      caller,
      'transaction.create',
      request,
      idempotencyKey,
      [entryId],
      async (idempotency) => {
        await this.verificationGate.assertHoldersVerified(caller.environment, [id]);
        return this.stores.ledger.post(posting, {
          audit: this.audit(caller, 'transaction.create', 'transaction', entryId, Object.keys(valid), idempotencyKey),
          idempotency,
        });
      },
    );
    return { value: value[0]!, replayed };
  }

  /**
   * Moves money between two accounts of the environment, in one currency. No read before the write: the
   * statement finds both accounts and refuses a missing one (naming its field), another currency
   * (CURRENCY_MISMATCH) or a too precise amount.
   */
  async transfer(caller: Caller, input: unknown, options?: CreateOptions): Promise<Creation<Transfer>> {
    authorize(caller, 'transactions:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(transferSchema, input);
    const fromAccountId = valid.fromAccountId.toLowerCase();
    const toAccountId = valid.toAccountId.toLowerCase();
    if (!isRecordId(fromAccountId)) throw referencedAccountNotFound('fromAccountId');
    if (!isRecordId(toAccountId)) throw referencedAccountNotFound('toAccountId');
    const amount = amountOf(valid.amount, null, 'amount');
    const transferId = newId();
    const debitId = newId();
    const creditId = newId();
    const posting: NewPosting = {
      environment: caller.environment,
      postingId: transferId,
      transferId,
      legs: [
        { entryId: debitId, accountId: fromAccountId, type: 'DEBIT' },
        { entryId: creditId, accountId: toAccountId, type: 'CREDIT' },
      ],
      amount,
      currency: null,
      description: valid.description ?? '',
      hold: false,
      expiresAt: null,
      limits: limitCheckFor(caller),
      externalId: valid.externalId ?? null,
      metadata: valid.metadata ?? null,
      // A client's posting: the customer's activity, refused as a debit of a DORMANT account (docs/adr/0109).
      customerInitiated: true,
      timeZone: this.timeZoneOf(caller.environment),
    };
    const request = { ...valid, fromAccountId, toAccountId, amount };
    const { value, replayed } = await this.write(
      caller,
      'transfer.create',
      request,
      idempotencyKey,
      [debitId, creditId],
      async (idempotency) => {
        await this.verificationGate.assertHoldersVerified(caller.environment, [fromAccountId, toAccountId]);
        return this.stores.ledger.post(posting, {
          audit: this.audit(caller, 'transfer.create', 'transfer', transferId, Object.keys(valid), idempotencyKey),
          idempotency,
        });
      },
      { fromAccountId, toAccountId },
    );
    const [debit, credit] = value;
    return { value: transferOf(debit!, credit!, transferId), replayed };
  }

  /** Both sides of a transfer of the environment: TRANSFER_NOT_FOUND (404) when there is none with this id. */
  async getTransfer(caller: Caller, transferId: string): Promise<Transfer> {
    authorize(caller, 'accounts:read');
    if (!isRecordId(transferId)) throw transferNotFound();
    const id = transferId.toLowerCase();
    const legs = await this.stores.ledger.findTransfer(caller.environment, id);
    const debit = legs.find((leg) => leg.type === 'DEBIT');
    const credit = legs.find((leg) => leg.type === 'CREDIT');
    if (!debit || !credit) throw transferNotFound();
    return transferOf(debit, credit, id);
  }

  /** Posts a hold: all of it, or `amount` of it (the rest is released). */
  async postHold(
    caller: Caller,
    accountId: string,
    transactionId: string,
    input: unknown,
    options?: CreateOptions,
  ): Promise<Creation<Transaction>> {
    authorize(caller, 'transactions:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(postHoldSchema, input ?? {});
    const account = await this.addressedAccount(caller, accountId);
    if (!isRecordId(transactionId)) throw transactionNotFound();
    const amount = valid.amount === undefined ? null : amountOf(valid.amount, account.currency, 'amount');
    const id = transactionId.toLowerCase();
    const { value, replayed } = await this.write(
      caller,
      'transaction.post',
      { accountId: account.accountId, transactionId: id, amount },
      idempotencyKey,
      [id],
      async (idempotency) => {
        await this.verificationGate.assertHoldersVerified(caller.environment, [account.accountId]);
        return this.stores.ledger.settleHold(
          caller.environment,
          account.accountId,
          id,
          { action: 'post', amount, limits: limitCheckFor(caller) },
          {
            audit: this.audit(
              caller,
              'transaction.post',
              'transaction',
              id,
              amount === null ? [] : ['amount'],
              idempotencyKey,
            ),
            idempotency,
          },
        );
      },
    );
    return { value: value[0]!, replayed };
  }

  /** Voids a hold: its amount is available again. */
  async voidHold(
    caller: Caller,
    accountId: string,
    transactionId: string,
    options?: CreateOptions,
  ): Promise<Creation<Transaction>> {
    authorize(caller, 'transactions:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const account = await this.addressedAccount(caller, accountId);
    if (!isRecordId(transactionId)) throw transactionNotFound();
    const id = transactionId.toLowerCase();
    const { value, replayed } = await this.write(
      caller,
      'transaction.void',
      { accountId: account.accountId, transactionId: id },
      idempotencyKey,
      [id],
      (idempotency) =>
        this.stores.ledger.settleHold(
          caller.environment,
          account.accountId,
          id,
          { action: 'void' },
          {
            audit: this.audit(caller, 'transaction.void', 'transaction', id, [], idempotencyKey),
            idempotency,
          },
        ),
    );
    return { value: value[0]!, replayed };
  }

  /** Undoes a posted transaction (both sides of its posting) with a new one that names it; at most once. */
  async reverse(
    caller: Caller,
    accountId: string,
    transactionId: string,
    input: unknown,
    options?: CreateOptions,
  ): Promise<Creation<Transaction>> {
    authorize(caller, 'transactions:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(reverseTransactionSchema, input ?? {});
    const account = await this.addressedAccount(caller, accountId);
    if (!isRecordId(transactionId)) throw transactionNotFound();
    const id = transactionId.toLowerCase();
    const entryIds = [newId(), newId()] as const;
    const reversal = { postingId: newId(), entryIds, description: valid.description ?? `Reversal of ${id}` };
    const { value, replayed } = await this.write(
      caller,
      'transaction.reverse',
      { accountId: account.accountId, transactionId: id, ...valid },
      idempotencyKey,
      [...entryIds],
      async (idempotency) => {
        await this.verificationGate.assertHoldersVerified(caller.environment, [account.accountId], async () => {
          const [original] = await this.stores.ledger.findTransactions(caller.environment, [id]);
          if (!original?.transferId) return [];
          const legs = await this.stores.ledger.findTransfer(caller.environment, original.transferId);
          return legs.map((leg) => leg.accountId);
        });
        return this.stores.ledger.reverse(caller.environment, account.accountId, id, reversal, {
          audit: this.audit(caller, 'transaction.reverse', 'transaction', id, Object.keys(valid), idempotencyKey),
          idempotency,
        });
      },
    );
    return { value: value.find((transaction) => transaction.accountId === account.accountId)!, replayed };
  }

  async getTransaction(caller: Caller, accountId: string, transactionId: string): Promise<Transaction> {
    authorize(caller, 'accounts:read');
    const account = await this.addressedAccount(caller, accountId);
    if (!isRecordId(transactionId)) throw transactionNotFound();
    const [transaction] = await this.stores.ledger.findTransactions(caller.environment, [transactionId.toLowerCase()]);
    if (!transaction || transaction.accountId !== account.accountId) throw transactionNotFound();
    return transaction;
  }

  /**
   * An account's transactions matching every given filter (ledger.schemas.ts), newest first, a page at a time:
   * REST `GET …/account/{accountId}/transaction` (its query string parsed by transaction.rest.ts) and GraphQL
   * `Account.transactions(filter, first, after)`. The account is named by its id (read first: ACCOUNT_NOT_FOUND
   * when absent; two statements whatever the page's size) or given as a record already read. The filter is
   * validated here, its amounts against the account's currency; a page outside 1–100, VALIDATION_FAILED (`first`).
   */
  async findTransactions(
    caller: Caller,
    account: string | Pick<Account, 'accountId' | 'currency'>,
    filter: TransactionFilterInput = {},
    page: PageQuery = {},
  ): Promise<Page<Transaction>> {
    authorize(caller, 'accounts:read');
    const valid = parseInput(transactionFilterSchema, filter);
    const request = pageOf(page);
    const addressed = typeof account === 'string' ? await this.addressedAccount(caller, account) : account;
    const matching = transactionFilterOf(valid, addressed.currency);
    const { after } = request;
    const cursor = after !== undefined && isRecordId(after) ? after.toLowerCase() : undefined;
    if (after !== undefined && cursor === undefined) return { items: [], nextAfter: null };
    return readPage(
      { first: request.first, after: cursor },
      (paged) => this.stores.ledger.listTransactions(caller.environment, addressed.accountId, matching, paged),
      (transaction) => transaction.transactionId,
    );
  }

  /**
   * Voids the holds whose expiry has passed, a batch at a time, each in its own statement (which finds it still
   * pending, or leaves it), audited as HOLD_EXPIRY_PRINCIPAL. Without `due`, every environment's holds past its
   * clock's now (the intra-day sweep); with it, the environment's holds that expire by `due.by`, audited with
   * `due.requestId` (the end of day's step, docs/adr/0102: once per hold and day, by the audit trail's unique
   * index). Safe to run on every instance of a fleet at once. Answers how many it voided.
   */
  async voidExpiredHolds(due?: { environment: string; by: Date; requestId: string }): Promise<number> {
    let voided = 0;
    const holds = due
      ? await this.stores.ledger.expiredHoldsOf(due.environment, due.by, EXPIRY_BATCH)
      : await this.stores.ledger.expiredHolds(EXPIRY_BATCH);
    for (const hold of holds) {
      const caller: Caller = {
        environment: hold.environment,
        principal: HOLD_EXPIRY_PRINCIPAL,
        requestId: due?.requestId ?? newId(),
      };
      const result = await this.stores.ledger.settleHold(
        hold.environment,
        hold.accountId,
        hold.transactionId,
        { action: 'void' },
        {
          audit: this.audit(caller, 'transaction.expire', 'transaction', hold.transactionId, []),
        },
      );
      if (result.outcome === 'written') voided++;
    }
    return voided;
  }

  /** The account a path names: ACCOUNT_NOT_FOUND (404) when it does not exist here. */
  private async addressedAccount(caller: Caller, accountId: string): Promise<Account> {
    const account = isRecordId(accountId)
      ? await this.stores.accounts.findById(caller.environment, accountId.toLowerCase())
      : null;
    if (!account) throw accountNotFound();
    return account;
  }

  private async holdExpiry(environment: string, expiresAt: string): Promise<Date> {
    const at = new Date(expiresAt);
    const seconds = (at.getTime() - (await this.clock.now(environment)).getTime()) / 1000;
    if (seconds <= 0 || seconds > LEDGER_LIMITS.maxHoldSeconds) {
      throw validationFailed([
        {
          field: 'expiresAt',
          code: 'OUT_OF_RANGE',
          message: `Must be in the future, at most ${LEDGER_LIMITS.maxHoldSeconds / 86400} days ahead.`,
        },
      ]);
    }
    return at;
  }

  private audit(
    caller: Caller,
    operation: AuditOperation,
    resourceType: 'transaction' | 'transfer',
    resourceId: string,
    changedFields: readonly string[],
    idempotencyKey?: string,
  ) {
    return auditEventFor(caller, { operation, resourceType, resourceId, changedFields, idempotencyKey });
  }

  /**
   * Runs one ledger write at most once per idempotency key. The key stores the ids of what was written;
   * a replay reads those transactions as they are now (a replayed hold may have posted since).
   */
  private async write(
    caller: Caller,
    operation: AuditOperation,
    request: unknown,
    idempotencyKey: string | undefined,
    ids: string[],
    write: (idempotency: IdempotencyRecord | undefined) => Promise<LedgerWrite>,
    transfer?: { fromAccountId: string; toAccountId: string },
  ): Promise<Creation<Transaction[]>> {
    let written: Transaction[] | undefined;
    const { value, replayed } = await this.creation.run<WrittenIds>(
      caller,
      operation,
      request,
      idempotencyKey,
      { transactionIds: ids },
      async (idempotency) => {
        const result = await write(idempotency);
        if (result.outcome === 'refused')
          throw refusalError(result.refusal, result.accountId, result.currency ?? null, transfer, result.details ?? {});
        if (result.outcome === 'key-taken') return 'key-taken';
        written = result.transactions;
        return 'created';
      },
    );
    const transactions =
      !replayed && written
        ? written
        : await this.stores.ledger.findTransactions(caller.environment, value.transactionIds);
    const byId = new Map(transactions.map((transaction) => [transaction.transactionId, transaction]));
    return {
      value: value.transactionIds.map((id) => byId.get(id)).filter((transaction) => transaction !== undefined),
      replayed,
    };
  }
}

/** The filter as the store matches it: amounts exact in the account's currency, min not above max. */
function transactionFilterOf(input: z.output<typeof transactionFilterSchema>, currency: string): TransactionFilter {
  const minAmount = input.minAmount === undefined ? undefined : amountOf(input.minAmount, currency, 'minAmount');
  const maxAmount = input.maxAmount === undefined ? undefined : amountOf(input.maxAmount, currency, 'maxAmount');
  if (minAmount !== undefined && maxAmount !== undefined && Number(minAmount) > Number(maxAmount)) {
    throw validationFailed([{ field: 'maxAmount', code: 'OUT_OF_RANGE', message: 'Must not be less than minAmount.' }]);
  }
  return {
    ...(input.status !== undefined && { status: input.status }),
    ...(input.type !== undefined && { type: input.type }),
    ...(input.from !== undefined && { from: input.from }),
    ...(input.to !== undefined && { to: input.to }),
    ...(minAmount !== undefined && { minAmount }),
    ...(maxAmount !== undefined && { maxAmount }),
    ...(input.externalId !== undefined && { externalId: input.externalId }),
  };
}

function amountOf(value: number | string, currency: string | null, field: string): string {
  const exact = exactAmount(value, currency);
  if ('problem' in exact) {
    const code =
      exact.problem === 'too-many-decimals'
        ? 'TOO_PRECISE'
        : exact.problem === 'not-a-number'
          ? 'INVALID_FORMAT'
          : 'OUT_OF_RANGE';
    throw validationFailed([{ field, code, message: amountProblemMessage(exact.problem, currency) }]);
  }
  return exact.amount;
}

/** The balance columns (DECIMAL(24,6)) hold less than 10^18 either way; the settlement account nears that first. */
const BALANCE_OUT_OF_RANGE_MESSAGE =
  "Posting this amount would take a balance (the account's, or the environment's settlement account in this currency) beyond what the ledger can hold (less than 10^18 either way).";

/** The domain error of a refusal the store's statement decided; nothing was written. */
export function refusalError(
  refusal: LedgerRefusal,
  accountId: string | null,
  currency: string | null,
  transfer?: { fromAccountId: string; toAccountId: string },
  details: Readonly<Record<string, string>> = {},
): DomainError {
  switch (refusal) {
    case 'ACCOUNT_NOT_FOUND':
      if (!transfer) return accountNotFound();
      return referencedAccountNotFound(accountId === transfer.toAccountId ? 'toAccountId' : 'fromAccountId');
    case 'CURRENCY_MISMATCH':
      return currencyMismatch();
    case 'ACCOUNT_FROZEN':
      return accountFrozen();
    case 'ACCOUNT_CLOSED':
      return accountClosed();
    case 'ACCOUNT_DORMANT':
      return accountDormant();
    case 'DEBITS_BLOCKED':
      return debitsBlocked();
    case 'CREDITS_BLOCKED':
      return creditsBlocked();
    case 'INSUFFICIENT_FUNDS':
      return insufficientFunds();
    case 'TRANSACTION_NOT_FOUND':
      return transactionNotFound();
    case 'TRANSACTION_NOT_PENDING':
      return transactionNotPending();
    case 'TRANSACTION_NOT_POSTED':
      return transactionNotPosted();
    case 'TRANSACTION_ALREADY_REVERSED':
      return transactionAlreadyReversed();
    case 'REVERSAL_NOT_REVERSIBLE':
      return reversalNotReversible();
    case 'HOLD_EXPIRED':
      return holdExpired();
    case 'AMOUNT_EXCEEDS_HOLD':
      return amountExceedsHold();
    case 'TOKEN_LIMIT_EXCEEDED':
      return tokenLimitExceeded();
    case 'EXTERNAL_ID_TAKEN':
      return externalIdTaken(transfer ? 'transfer' : 'transaction');
    case 'AMOUNT_TOO_PRECISE':
      return validationFailed([
        { field: 'amount', code: 'TOO_PRECISE', message: amountProblemMessage('too-many-decimals', currency) },
      ]);
    case 'BALANCE_OUT_OF_RANGE':
      return validationFailed([{ field: 'amount', code: 'OUT_OF_RANGE', message: BALANCE_OUT_OF_RANGE_MESSAGE }]);
    case 'MINIMUM_BALANCE':
      return minimumBalance(details.minimumBalance ?? '', details.available ?? '');
    case 'WITHDRAWAL_LIMIT_DAILY_TOTAL':
      return withdrawalLimitExceeded('DAILY_WITHDRAWAL_TOTAL', details.limit ?? '', details.used ?? '');
    case 'WITHDRAWAL_LIMIT_PER_MONTH':
      return withdrawalLimitExceeded('WITHDRAWALS_PER_MONTH', details.limit ?? '', details.used ?? '');
    case 'MINIMUM_OPENING_DEPOSIT':
      return minimumOpeningDeposit(details.minimumOpeningDeposit ?? '');
  }
}
