import type { Account, AccountRole } from '../accounts/index.js';
import type { Customer } from '../customers/index.js';
import type { Transaction } from '../ledger/index.js';

/**
 * What happened, as the outbox keeps it (docs/adr/0030-transactional-outbox.md). Every committed write appends its
 * events in its own statement; the sequencer numbers them per environment after commit, gapless, in an
 * order that never changes once given.
 */
export const EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
  // A business's beneficial owner added or removed (docs/adr/0094).
  'customer.beneficial_owner_added',
  'customer.beneficial_owner_removed',
  // A customer's verification status moved (docs/adr/0101): ids and statuses only.
  'customer.verification_updated',
  // A customer archived (docs/adr/0106, 0109): the customer, `status: "ARCHIVED"`.
  'customer.archived',
  'account.created',
  'account.updated',
  'account.deleted',
  'account.customer_added',
  'account.customer_removed',
  // A linked customer's role changed (docs/adr/0091).
  'account.relationship_changed',
  // An account closed or reopened (docs/adr/0106): the account as it is after the change.
  'account.closed',
  'account.reopened',
  // Dormancy (docs/adr/0109): the end of day marked it INACTIVE / DORMANT, it was reactivated (by a call or its
  // customer's own posting), its escheatment's due-diligence window started. The account as it is after the change.
  'account.inactive',
  'account.dormant',
  'account.reactivated',
  'account.escheatment_due',
  'transaction.pending',
  'transaction.posted',
  'transaction.voided',
  // A deposit product defined, a rate of it scheduled (docs/adr/0112): its id and code (and the rate's date) only.
  'product.created',
  'product.rate_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The resource an event carries: the record as it was right after the write, never an SSN or DLN. */
export type EventData =
  | { kind: 'customer'; customer: Customer }
  | { kind: 'account'; account: Account }
  | { kind: 'transaction'; transaction: Transaction }
  | { kind: 'deleted'; id: string }
  /** A link (account.customer_added / _removed), or a role change with its new role (account.relationship_changed). */
  | { kind: 'holder'; accountId: string; customerId: string; role?: AccountRole }
  /** A business's beneficial owner (customer.beneficial_owner_added / _removed): the business, the owner, its prongs. */
  | {
      kind: 'beneficial-owner';
      customerId: string;
      ownerCustomerId: string;
      prongs: string[];
      ownershipPercentage: string | null;
      title: string | null;
    }
  /** A customer's verification status moved (customer.verification_updated, docs/adr/0101): ids and statuses only. */
  | { kind: 'verification'; customerId: string; status: string; previousStatus: string }
  /** A product defined or its rate scheduled (docs/adr/0112): ids only, for any reader of events; its terms: products:read. */
  | { kind: 'product'; productId: string; code: string; effectiveFrom: string | null }
  /** The record, withheld from a reader without its read scope (event-visibility.ts): its ids only. */
  | {
      kind: 'withheld';
      readScope: 'customers:read' | 'accounts:read' | 'verification:read';
      customerId?: string;
      accountId?: string;
      transactionId?: string;
    };

export interface DomainEvent {
  eventId: string;
  type: EventType;
  /** Gapless and increasing per environment. */
  sequence: number;
  /** ISO 8601, when the write committed its statement. */
  occurredAt: string;
  resourceType: 'customer' | 'account' | 'transaction' | 'product';
  resourceId: string;
  data: EventData;
  /**
   * The fields the write set or changed (a customer's or an account's creation or update; empty for the
   * other events). Names only, never values: what a reader without the record's read scope is told.
   */
  changedFields: readonly string[];
}
