import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { createOptions, noteReplay } from '../../graphql/idempotency.js';
import { byId, relationKey, rootKey } from '../../graphql/loaders.js';
import { encodeCursor, pageRequest } from '../../graphql/pagination.js';
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
