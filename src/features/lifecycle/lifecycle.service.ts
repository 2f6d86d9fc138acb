import type { Account } from '../accounts/index.js';
import { businessDateOf, previousDate } from '../clock/index.js';
import type { Customer } from '../customers/index.js';
import { type HolderVerificationGate, limitCheckFor, refusalError } from '../ledger/index.js';
import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { type EnvironmentTime, realTime } from '../../domain/environment-clock.js';
import {
  accountBalanceNotZeroToClose,
  accountClosed,
  accountHasPendingHolds,
  accountNotClosed,
  accountNotFound,
  accountReopenWindowPassed,
  customerArchived,
  customerHasOpenAccounts,
  customerNotFound,
  type DomainError,
  referencedAccountNotFound,
  validationFailed,
} from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import type { AccountClose, ClosingInterest, Disbursement, LifecycleStore } from './ports.js';
import {
  archiveCustomerSchema,
  closeAccountSchema,
  DEFAULT_REOPEN_WINDOW_DAYS,
  reopenAccountSchema,
} from './lifecycle.schemas.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface LifecycleOptions {
  /** How many days after its closing an account may be reopened (ACCOUNT_REOPEN_WINDOW_DAYS). */
  reopenWindowDays: number;
  /** Each environment's time zone: the closing's business date ends its interest's period (docs/adr/0113). */
  timeZoneOf?: (environment: string) => string;
}

/** A business read back with its profile (CustomerService.withProfiles): what a customer's answer presents. */
export type ProfileReader = (environment: string, customers: Customer[]) => Promise<Customer[]>;

/**
 * Accounts close and reopen, customers archive (docs/adr/0106-account-and-customer-lifecycle.md). Every time is the
 * environment's (its clock port); every rule that must hold until commit is decided by the store on the rows it
 * locked. REST and GraphQL call these methods and only translate.
 */
export class LifecycleService {
  constructor(
    private readonly stores: { lifecycle: LifecycleStore },
    private readonly clock: EnvironmentTime = realTime,
    private readonly options: LifecycleOptions = { reopenWindowDays: DEFAULT_REOPEN_WINDOW_DAYS },
    private readonly profiles: ProfileReader = (_environment, customers) => Promise.resolve(customers),
    /** The verification gate (docs/adr/0104, 0106): the disbursement account's customers; none by default. */
    private readonly verificationGate: HolderVerificationGate = { assertHoldersVerified: async () => undefined },
  ) {}

  /**
   * Closes an account (`input`: `{reason, disbursementAccountId?}`), needing `accounts:controls`. A remaining balance
   * moves to the disbursement account by a transfer in the same transaction (audited `transfer.create`, two
   * `transaction.posted` events), then the account closes (audited `account.close`, event `account.closed`).
   * Refused, writing nothing: ACCOUNT_NOT_FOUND; ACCOUNT_CLOSED (already closed); ACCOUNT_HAS_PENDING_HOLDS;
   * ACCOUNT_BALANCE_NOT_ZERO (money left and no disbursement account, or a debt); the transfer's own refusals
   * (ACCOUNT_NOT_FOUND naming `disbursementAccountId`, CURRENCY_MISMATCH, ACCOUNT_CLOSED, ACCOUNT_FROZEN, ...).
   * In a gated environment, VERIFICATION_REQUIRED when a customer of the disbursement account is not VERIFIED (the
   * closing account's are not asked: a rejected customer's account must still close; its freeze, a flag, still
   * refuses the disbursement).
   */
  async closeAccount(caller: Caller, accountId: string, input: unknown): Promise<Account> {
    authorize(caller, 'accounts:controls');
    const valid = parseInput(closeAccountSchema, input);
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = accountId.toLowerCase();
    const toAccountId = valid.disbursementAccountId?.toLowerCase();
    if (toAccountId !== undefined && !isRecordId(toAccountId)) throw referencedAccountNotFound('disbursementAccountId');
    if (toAccountId === id)
      throw validationFailed([
        {
          field: 'disbursementAccountId',
          code: 'INVALID_VALUE',
          message: 'Must be another account than the one closing.',
        },
      ]);
    // Asked whenever a disbursement account is named, before the closing's transaction: whether money remains is
    // known only under its lock, and the gate's read needs no lock (docs/adr/0106, amendment of 2026-12-04).
    if (toAccountId !== undefined) await this.verificationGate.assertHoldersVerified(caller.environment, [toAccountId]);
    const closedAt = await this.clock.now(caller.environment);
    const disbursement: Disbursement | null =
      toAccountId === undefined ? null : this.disbursement(caller, id, toAccountId, valid.reason);
    const audit = auditEventFor(caller, {
      operation: 'account.close',
      resourceType: 'account',
      resourceId: id,
      changedFields: ['status', 'closedAt', 'closeReason', ...(disbursement ? ['disbursementAccountId'] : [])],
    });
    const result = await this.stores.lifecycle.close({
      environment: caller.environment,
      accountId: id,
      reason: valid.reason,
      closedAt,
      disbursement,
      interest: this.closingInterest(caller, closedAt),
      audit,
    });
    if (result.outcome === 'closed') return result.account;
    throw closeRefusal(result, id, toAccountId);
  }

  /**
   * The interest credit of a closing (docs/adr/0113): what accrued through the day before the closing's business date
   * (the period's end: the closing's own day is not accrued), posted by the caller in the closing's transaction
   * (nothing for an account that earns no interest).
   */
  private closingInterest(caller: Caller, closedAt: Date): ClosingInterest {
    const timeZone = this.options.timeZoneOf?.(caller.environment) ?? 'America/New_York';
    const periodEnd = previousDate(businessDateOf(closedAt, timeZone));
    const creditEntryId = newId();
    return {
      periodEnd,
      postingId: newId(),
      debitEntryId: newId(),
      creditEntryId,
      description: `Interest to ${periodEnd} (account closed)`,
      audit: auditEventFor(caller, {
        operation: 'account.interest.post',
        resourceType: 'transaction',
        resourceId: creditEntryId,
        changedFields: ['amount'],
      }),
    };
  }

  /** The closing transfer: the ids and audit event a transfer between the two accounts has, its amount decided when locked. */
  private disbursement(caller: Caller, fromAccountId: string, toAccountId: string, reason: string): Disbursement {
    const transferId = newId();
    return {
      accountId: toAccountId,
      transferId,
      debitEntryId: newId(),
      creditEntryId: newId(),
      description: `Account closed (${reason}): remaining balance`,
      limits: limitCheckFor(caller),
      audit: auditEventFor(caller, {
        operation: 'transfer.create',
        resourceType: 'transfer',
        resourceId: transferId,
        changedFields: ['fromAccountId', 'toAccountId', 'amount', 'description'],
      }),
    };
  }

  /**
   * Reopens a closed account within the reopen window (ACCOUNT_REOPEN_WINDOW_DAYS, by the environment's clock), needing
   * `accounts:controls`; audited `account.reopen`, event `account.reopened`. Refused, writing nothing:
   * ACCOUNT_NOT_FOUND, ACCOUNT_NOT_CLOSED, ACCOUNT_REOPEN_WINDOW_PASSED, CUSTOMER_ARCHIVED (a customer of it is archived).
   */
  async reopenAccount(caller: Caller, accountId: string, input?: unknown): Promise<Account> {
    authorize(caller, 'accounts:controls');
    parseInput(reopenAccountSchema, input ?? {});
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = accountId.toLowerCase();
    const now = await this.clock.now(caller.environment);
    const closedAfter = new Date(now.getTime() - this.options.reopenWindowDays * DAY_MS);
    const audit = auditEventFor(caller, {
      operation: 'account.reopen',
      resourceType: 'account',
      resourceId: id,
      changedFields: ['status', 'closedAt', 'closeReason'],
    });
    const result = await this.stores.lifecycle.reopen(caller.environment, id, closedAfter, audit);
    switch (result.outcome) {
      case 'reopened':
        return result.account;
      case 'not-found':
        throw accountNotFound();
      case 'not-closed':
        throw accountNotClosed();
      case 'window-passed':
        throw accountReopenWindowPassed(this.options.reopenWindowDays);
      case 'customer-archived':
        throw customerArchived(
          'A customer of the account is archived: an archived customer has no open account; nothing was changed.',
        );
    }
  }

  /**
   * Archives a customer (`input`: `{reason}`) once every account linked to it is closed, needing `customers:write`;
   * audited `customer.archive`. Refused, writing nothing: CUSTOMER_NOT_FOUND, CUSTOMER_HAS_OPEN_ACCOUNTS,
   * CUSTOMER_ARCHIVED (already archived).
   */
  async archiveCustomer(caller: Caller, customerId: string, input: unknown): Promise<Customer> {
    authorize(caller, 'customers:write');
    const valid = parseInput(archiveCustomerSchema, input);
    if (!isRecordId(customerId)) throw customerNotFound();
    const id = customerId.toLowerCase();
    const archivedAt = await this.clock.now(caller.environment);
    const audit = auditEventFor(caller, {
      operation: 'customer.archive',
      resourceType: 'customer',
      resourceId: id,
      changedFields: ['status', 'archivedAt', 'archiveReason'],
    });
    const result = await this.stores.lifecycle.archive(caller.environment, id, valid.reason, archivedAt, audit);
    switch (result.outcome) {
      case 'archived': {
        const [customer] = await this.profiles(caller.environment, [result.customer]);
        return customer!;
      }
      case 'not-found':
        throw customerNotFound();
      case 'already-archived':
        throw customerArchived('The customer is already archived; nothing was changed.');
      case 'open-accounts':
        throw customerHasOpenAccounts(result.count);
    }
  }
}

function closeRefusal(
  result: Exclude<AccountClose, { outcome: 'closed' }>,
  accountId: string,
  toAccountId: string | undefined,
): DomainError {
  switch (result.outcome) {
    case 'not-found':
      return accountNotFound();
    case 'already-closed':
      return accountClosed();
    case 'holds-pending':
      return accountHasPendingHolds();
    case 'balance-not-zero':
      return accountBalanceNotZeroToClose(result.negative);
    case 'disbursement-refused':
      // The closing account was locked and found: a missing account of the transfer is the disbursement account.
      if (result.refusal === 'ACCOUNT_NOT_FOUND') return referencedAccountNotFound('disbursementAccountId');
      return refusalError(result.refusal, result.accountId, result.currency, {
        fromAccountId: accountId,
        toAccountId: toAccountId ?? '',
      });
  }
}
