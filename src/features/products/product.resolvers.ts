import { createOptions, noteReplay } from '../../graphql/idempotency.js';
import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import type { ProductPage } from '../../graphql/pagination.js';

/** GraphQL passes null for an absent optional argument; the domain's schemas take absent fields only. */
const withoutNulls = <T extends object>(input: T) =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));

/**
 * Deposit products over GraphQL (docs/adr/0112): REST's ProductService, its scopes, rules and codes; the resolvers
 * only translate. The cursor is the product's code, the value REST answers as `nextAfter`.
 */
export const productResolvers: Pick<Resolvers, 'Query' | 'Mutation' | 'Product' | 'ProductConnection'> = {
  Query: {
    products: (_parent, { first, after }, { services, caller }) =>
      services.products.list(caller, { first: first ?? undefined, after: after ?? undefined }),
    product: (_parent, { code }, { services, caller }) => services.products.get(caller, code),
  },
  Mutation: {
    createProduct: async (_parent, { input, idempotencyKey }, context, info) =>
      noteReplay(
        context,
        info,
        await context.services.products.create(
          context.caller,
          {
            ...withoutNulls(input),
            ...(input.interest && { interest: withoutNulls(input.interest) }),
            ...(input.fees && {
              fees: { monthlyMaintenance: withoutNulls(input.fees.monthlyMaintenance) },
            }),
            ...(input.limits && { limits: withoutNulls(input.limits) }),
          },
          createOptions(idempotencyKey),
        ),
      ),
    changeProductRate: (_parent, { code, input }, { services, caller }) =>
      services.products.changeRate(caller, code, withoutNulls(input)),
  },
  Product: {
    id: (product) => product.productId,
    interest: (product) =>
      product.interest ? { ...product.interest, rate: product.rate, rateHistory: product.rates } : null,
    fees: (product) => (product.monthlyMaintenanceFee ? { monthlyMaintenance: product.monthlyMaintenanceFee } : null),
  },
  ProductConnection: {
    edges: (page: ProductPage) => page.items.map((node) => ({ cursor: node.code, node })),
    nodes: (page: ProductPage) => page.items,
    pageInfo: (page: ProductPage) => ({
      hasNextPage: page.nextAfter !== null,
      endCursor: page.items.at(-1)?.code ?? null,
    }),
  },
};
