import type { Account, AccountCloseReason } from '../accounts/index.js';
import type { Customer, CustomerArchiveReason } from '../customers/index.js';
import type { LedgerRefusal } from '../ledger/index.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { LimitCheck } from '../ledger/index.js';

/** What the lifecycle service needs from storage (src/features/lifecycle/lifecycle.store.ts implements it). */

/** Where a closing account's remaining balance goes: a transfer, with the ids and audit event a transfer has. */
export interface Disbursement {
  accountId: string;
  transferId: string;
  debitEntryId: string;
  creditEntryId: string;
  description: string;
  /** The caller's posting limits, as a transfer checks them; null: not limited. */
  limits: LimitCheck | null;
  /** The transfer's own audit event (`transfer.create`). */
  audit: NewAuditEvent;
}

/**
 * The interest an account on a product with interest has accrued and not been paid, posted first when it closes
 * (docs/adr/0113): the ids and audit event of its credit, the closing's business date as the period's end.
 */
export interface ClosingInterest {
  periodEnd: string;
  postingId: string;
  debitEntryId: string;
  creditEntryId: string;
  description: string;
  /** The credit's audit event (`account.interest.post`), by the caller. */
  audit: NewAuditEvent;
}

export interface AccountClosing {
  environment: string;
  accountId: string;
  reason: AccountCloseReason;
  /** The environment's time (its clock port): the account's closedAt. */
  closedAt: Date;
  /** null: the balance must already be zero. */
  disbursement: Disbursement | null;
  /** Posted before the balance is read (an account on no product with interest posts nothing); null: none. */
  interest: ClosingInterest | null;
  audit: NewAuditEvent;
}

export type AccountClose =
  | { outcome: 'closed'; account: Account }
  | { outcome: 'not-found' }
  | { outcome: 'already-closed' }
  | { outcome: 'holds-pending' }
  /** Money left and nowhere to send it, or a debt (negative): nothing written. */
  | { outcome: 'balance-not-zero'; negative: boolean }
  /** The disbursement's transfer was refused by the ledger (nothing written at all). */
  | { outcome: 'disbursement-refused'; refusal: LedgerRefusal; accountId: string | null; currency: string | null };

export type AccountReopen =
  | { outcome: 'reopened'; account: Account }
  | { outcome: 'not-found' }
  | { outcome: 'not-closed' }
  | { outcome: 'window-passed' }
  | { outcome: 'customer-archived' };

export type CustomerArchive =
  | { outcome: 'archived'; customer: Customer }
  | { outcome: 'not-found' }
  | { outcome: 'already-archived' }
  | { outcome: 'open-accounts'; count: number };

export interface LifecycleStore {
  /**
   * Closes the account in one transaction: locks it, checks it is open, has no pending hold and a zero balance or a
   * disbursement account, moves the balance there by the ledger's own posting statement (a transfer), then closes it
   * with its audit event and `account.closed`. Nothing is written on any refusal.
   */
  close(closing: AccountClosing): Promise<AccountClose>;
  /**
   * Reopens a closed account whose closedAt is after `closedAfter` (the window's start), unless one of its customers is
   * archived; with its audit event and `account.reopened`.
   */
  reopen(environment: string, accountId: string, closedAfter: Date, audit: NewAuditEvent): Promise<AccountReopen>;
  /**
   * Archives the customer when every account linked to it is closed. The customer is locked first (FOR UPDATE: no
   * account can be opened for it or linked to it meanwhile), then its accounts are read as committed.
   */
  archive(
    environment: string,
    customerId: string,
    reason: CustomerArchiveReason,
    archivedAt: Date,
    audit: NewAuditEvent,
  ): Promise<CustomerArchive>;
}
