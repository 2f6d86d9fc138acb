import type { AccessScope } from '../../domain/caller.js';
import type { DomainEvent } from './event.js';

/**
 * An event shows what its reader could read directly (docs/adr/0002-events-respect-read-scopes.md).
 * `events:read` lets a token follow what happens; the records in the events still need their own read
 * scope: a customer `customers:read`, an account and a transaction `accounts:read`, a verification
 * `verification:read`. Without it the event
 * keeps its type, time, sequence, ids and the names of the changed fields, and withholds the record.
 * The events API, GraphQL, subscriptions and webhook deliveries all present events through this rule.
 */
export function eventAsSeenBy(event: DomainEvent, mayRead: (scope: AccessScope) => boolean): DomainEvent {
  const { data } = event;
  switch (data.kind) {
    case 'customer':
      return mayRead('customers:read')
        ? event
        : { ...event, data: { kind: 'withheld', readScope: 'customers:read', customerId: data.customer.customerId } };
    case 'account':
      return mayRead('accounts:read')
        ? event
        : { ...event, data: { kind: 'withheld', readScope: 'accounts:read', accountId: data.account.accountId } };
    case 'transaction':
      return mayRead('accounts:read')
        ? event
        : {
            ...event,
            data: {
              kind: 'withheld',
              readScope: 'accounts:read',
              accountId: data.transaction.accountId,
              transactionId: data.transaction.transactionId,
            },
          };
    // A role is what the account shows (its `relationships`): a reader without `accounts:read` gets the ids only.
    case 'holder':
      if (data.role === undefined || mayRead('accounts:read')) return event;
      return { ...event, data: { kind: 'holder', accountId: data.accountId, customerId: data.customerId } };
    // Who owns or controls a business is the business's to read (docs/adr/0094): without `customers:read`, its id.
    case 'beneficial-owner':
      return mayRead('customers:read')
        ? event
        : { ...event, data: { kind: 'withheld', readScope: 'customers:read', customerId: data.customerId } };
    // A verification is read with its own scope (docs/adr/0101): without `verification:read`, the customer's id.
    case 'verification':
      return mayRead('verification:read')
        ? event
        : { ...event, data: { kind: 'withheld', readScope: 'verification:read', customerId: data.customerId } };
    // Ids only: what a holder change or a deletion says is visible to any reader of events; a product's event holds its
    // id, code and a rate's date, never its terms (docs/adr/0112).
    case 'product':
    case 'deleted':
    case 'withheld':
      return event;
  }
}

/** The scopes that decide what an event shows: a webhook endpoint records which of them its registrant held. */
export const EVENT_READ_SCOPES = [
  'customers:read',
  'accounts:read',
  'verification:read',
] as const satisfies readonly AccessScope[];

/** The same rule for a principal's scope list (a token, or the scopes recorded for a webhook endpoint). */
export const eventAsSeenWith = (event: DomainEvent, scopes: readonly AccessScope[]): DomainEvent =>
  eventAsSeenBy(event, (scope) => scopes.includes(scope));
