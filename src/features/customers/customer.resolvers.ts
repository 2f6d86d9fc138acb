import type { EntityType, Resolvers } from '../../graphql/generated/resolvers-types.js';
import { createOptions, noteReplay } from '../../graphql/idempotency.js';
import { byId, relationKey, rootKey } from '../../graphql/loaders.js';
import { encodeCursor, pageRequest } from '../../graphql/pagination.js';
import { type CustomerParent, wholeRecord } from '../../graphql/parents.js';
import { chargeSsnRefusalResolver, chargeSsnSearchResolver } from '../../graphql/rate-limit.js';
import { endCursor, versionCondition, withoutNulls } from '../../graphql/resolver-helpers.js';

/**
 * Customers over GraphQL. The resolvers only translate: arguments go to the domain services untouched
 * (mutation inputs as `unknown`, validated once, in the domain), and domain records come back as parents of
 * the output types. Which fields leave is decided by schema.graphql, which has no field for the SSN or the
 * document locator number; the domain records do not carry them either.
 */
export const customerResolvers: Pick<Resolvers, 'Query' | 'Mutation' | 'Customer' | 'CustomerConnection'> = {
  Query: {
    customer: (_parent, { customerId }, { loaders }, info) =>
      loaders.customerById.load(rootKey('customer', customerId, info)),
    customers: async (_parent, args, { services, caller, loaders }) => {
      const request = pageRequest('customer', args);
      const page = await services.customers.find(caller, args.filter ? withoutNulls(args.filter) : {}, request);
      for (const customer of page.items) loaders.customerById.prime(byId(customer.customerId), customer);
      return page;
    },
    // The SSN travels in the input (a variable, never the document's text when clients use variables); REST's search rules.
    searchCustomers: async (_parent, { input, first, after }, context) => {
      const { services, caller, loaders } = context;
      const request = pageRequest('customer', { first, after });
      await chargeSsnSearchResolver(context, withoutNulls(input));
      const page = await services.customers.search(caller, withoutNulls(input), request);
      for (const customer of page.items) loaders.customerById.prime(byId(customer.customerId), customer);
      return page;
    },
  },

  Mutation: {
    createCustomer: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      return noteReplay(
        context,
        info,
        await chargeSsnRefusalResolver(context, () =>
          services.customers.create(caller, input as unknown, createOptions(idempotencyKey)),
        ),
      );
    },
    // A business: REST's POST /customer with `customerType: BUSINESS`; the tax id's refusal is charged as an SSN's.
    createBusinessCustomer: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      return noteReplay(
        context,
        info,
        await chargeSsnRefusalResolver(context, () =>
          services.customers.create(
            caller,
            { ...(input as object), customerType: 'BUSINESS' },
            createOptions(idempotencyKey),
          ),
        ),
      );
    },
    updateCustomer: async (_parent, { customerId, input, expectedVersion }, { services, caller, loaders }) => {
      const customer = await services.customers.update(
        caller,
        customerId,
        input as unknown,
        versionCondition(expectedVersion),
      );
      loaders.customerById.clear(byId(customerId)).prime(byId(customerId), customer);
      return customer;
    },
    deleteCustomer: async (_parent, { customerId, expectedVersion }, { services, caller, loaders }) => {
      await services.customers.delete(caller, customerId, versionCondition(expectedVersion));
      loaders.customerById.clear(byId(customerId));
      return customerId;
    },
  },

  Customer: {
    id: (customer) => customer.customerId,
    // A business (docs/adr/0090) has its profile and none of a person's fields: null, never empty strings.
    // These read the whole record: they are not among the ids-only walk's fields (loaders.ts, ID_AND_LINK_FIELDS).
    customerType: (customer) => wholeRecord(customer).customerType ?? 'INDIVIDUAL',
    business: (customer) => {
      const record = wholeRecord(customer);
      if (record.customerType !== 'BUSINESS') return null;
      // Never a business as an empty person: the customer service reads its profile with it, or this is a bug.
      if (record.business === undefined) throw new Error(`The business profile of ${record.customerId} was not read`);
      return { ...record.business, entityType: record.business.entityType as EntityType };
    },
    preferredName: (customer) => personField(customer, 'preferredName'),
    firstName: (customer) => personField(customer, 'firstName'),
    middleName: (customer) => personField(customer, 'middleName'),
    lastName: (customer) => personField(customer, 'lastName'),
    dateOfBirth: (customer) => personField(customer, 'dateOfBirth'),
    // Read with the customer by a walk (`below`), or by the relation's loader (loaders.ts).
    accounts: (customer, _args, { loaders }, info) =>
      customer.below?.accountsOf(customer) ?? loaders.accountsOfCustomer.load(relationKey(customer, 'customer', info)),
  },

  CustomerConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('customer', node.customerId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({
      hasNextPage: page.nextAfter !== null,
      endCursor: endCursor('customer', page.items.at(-1)?.customerId),
    }),
  },
};

type PersonField = 'preferredName' | 'firstName' | 'middleName' | 'lastName' | 'dateOfBirth';

/** A person's field, or null on a business (whose domain record holds empty strings there). */
function personField(customer: CustomerParent, field: PersonField): string | null {
  const record = wholeRecord(customer);
  return record.customerType === 'BUSINESS' ? null : record[field];
}
