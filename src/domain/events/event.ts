import type { Account } from '../accounts/account.js';
import type { Customer } from '../customers/customer.js';
import type { Transaction } from '../ledger/transaction.js';

/**
 * What happened, as the outbox keeps it (docs/decisions.md, "Events"). Every committed write appends its
 * events in its own statement; the sequencer numbers them per environment after commit, gapless, in an
 * order that never changes once given.
 */
export const EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'account.created',
  'account.updated',
  'account.deleted',
  'account.customer_added',
  'account.customer_removed',
  'transaction.pending',
  'transaction.posted',
  'transaction.voided',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The resource an event carries: the record as it was right after the write, never an SSN or DLN. */
export type EventData =
  | { kind: 'customer'; customer: Customer }
  | { kind: 'account'; account: Account }
  | { kind: 'transaction'; transaction: Transaction }
  | { kind: 'deleted'; id: string }
  | { kind: 'holder'; accountId: string; customerId: string };

export interface DomainEvent {
  eventId: string;
  type: EventType;
  /** Gapless and increasing per environment. */
  sequence: number;
  /** ISO 8601, when the write committed its statement. */
  occurredAt: string;
  resourceType: 'customer' | 'account' | 'transaction';
  resourceId: string;
  data: EventData;
}

export interface EventQuery {
  /** Events with a greater sequence; 0 from the start. */
  after: number;
  types?: readonly EventType[] | undefined;
  limit: number;
}

export interface EventStore {
  list(environment: string, query: EventQuery): Promise<DomainEvent[]>;
  /** Only sequenced events: an event becomes readable once numbered (within a moment of its commit). */
  find(environment: string, eventId: string): Promise<DomainEvent | null>;
  /** Numbers the committed events not numbered yet, at most `limit`; answers how many it numbered. */
  sequence(limit: number): Promise<number>;
  /** Deletes sequenced events older than `before`, at most `limit`; answers how many. */
  prune(before: Date, limit: number): Promise<number>;
  /** The last sequence number given in the environment; 0 before its first event. */
  lastSequence(environment: string): Promise<number>;
}
