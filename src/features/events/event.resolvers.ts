import { isDomainError } from '../../domain/errors.js';
import type { BeneficialOwnerProng, Resolvers, VerificationStatus } from '../../graphql/generated/resolvers-types.js';
import { recentEventsFirst } from './event.schemas.js';

/** Events over GraphQL: the events API, a record's recent events, and what an event names. Subscriptions: event-subscription.resolvers.ts. */
export const eventResolvers: Pick<Resolvers, 'Query' | 'Customer' | 'Account' | 'Event' | 'EventPage'> = {
  Query: {
    // Typed, as the arguments are; the domain checks what the schema cannot (the types, the bounds of `first` and `after`), for REST as well.
    events: (_parent, { after, types, first }, { services, caller }) =>
      services.events.find(caller, types ? { types } : {}, { first: first ?? undefined, after: after ?? undefined }),
    event: async (_parent, { eventId }, { services, caller }) => {
      try {
        return await services.events.get(caller, eventId);
      } catch (error) {
        if (isDomainError(error) && error.code === 'EVENT_NOT_FOUND') return null;
        throw error;
      }
    },
  },

  Customer: {
    // `first` checked as GraphQL names it (1 to 50); the domain then parses REST's query (limit) and enforces events:read (@requiresScope).
    // Batched: every customer's in one read per `first` (loaders.ts).
    recentEvents: (customer, { first }, { loaders }) =>
      loaders.recentEvents('customer', recentEventsFirst(first)).load(customer.customerId),
  },

  Account: {
    recentEvents: (account, { first }, { loaders }) =>
      loaders.recentEvents('account', recentEventsFirst(first)).load(account.accountId),
  },

  Event: {
    customer: (event) => (event.data.kind === 'customer' ? event.data.customer : null),
    account: (event) => (event.data.kind === 'account' ? event.data.account : null),
    transaction: (event) => (event.data.kind === 'transaction' ? event.data.transaction : null),
    accountId: ({ data, resourceType }) => {
      if (data.kind === 'holder') return data.accountId;
      if (data.kind === 'withheld') return data.accountId ?? null;
      return data.kind === 'deleted' && resourceType === 'account' ? data.id : null;
    },
    customerId: ({ data, resourceType }) => {
      if (data.kind === 'holder') return data.customerId;
      if (data.kind === 'beneficial-owner' || data.kind === 'verification') return data.customerId;
      if (data.kind === 'withheld') return data.customerId ?? null;
      return data.kind === 'deleted' && resourceType === 'customer' ? data.id : null;
    },
    // Present only where the reader may see it (event-visibility.ts: a role is account data).
    role: ({ data }) => (data.kind === 'holder' ? (data.role ?? null) : null),
    // A beneficial owner's fields (docs/adr/0097): withheld with the event's record without `customers:read` (event-visibility.ts).
    ownerCustomerId: ({ data }) => (data.kind === 'beneficial-owner' ? data.ownerCustomerId : null),
    prongs: ({ data }) => (data.kind === 'beneficial-owner' ? (data.prongs as BeneficialOwnerProng[]) : null),
    ownershipPercentage: ({ data }) => (data.kind === 'beneficial-owner' ? data.ownershipPercentage : null),
    title: ({ data }) => (data.kind === 'beneficial-owner' ? data.title : null),
    // A verification's statuses (docs/adr/0101): withheld with the event's record without `verification:read`.
    verificationStatus: ({ data }) => (data.kind === 'verification' ? (data.status as VerificationStatus) : null),
    previousVerificationStatus: ({ data }) =>
      data.kind === 'verification' ? (data.previousStatus as VerificationStatus) : null,
    // A product's event (docs/adr/0112): its code, and a scheduled rate's first business date.
    productCode: ({ data }) => (data.kind === 'product' ? data.code : null),
    effectiveFrom: ({ data }) => (data.kind === 'product' ? data.effectiveFrom : null),
    changedFields: (event) => [...event.changedFields],
    requiredScope: ({ data }) => (data.kind === 'withheld' ? data.readScope : null),
  },

  // The domain's page names its records `items`, as every page does; the schema's EventPage says `events`.
  EventPage: {
    events: (page) => page.items,
  },
};
