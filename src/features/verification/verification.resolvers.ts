import type { Resolvers } from '../../graphql/generated/resolvers-types.js';

/**
 * Verification over GraphQL (docs/adr/0101): REST's VerificationService, its scopes, rules and codes; the resolvers
 * only translate. `Customer.verification` is batched per request (loaders.ts): a page of customers with their
 * verifications costs one statement more. Fields beyond `customerId` / `checkId` need `verification:read`
 * (src/graphql/schema.ts, RECORD_TYPES), so a mutation made with its write scope alone answers the id.
 */
export const verificationResolvers: Pick<Resolvers, 'Mutation' | 'Customer'> = {
  Mutation: {
    requestVerificationCheck: (_parent, { customerId }, { services, caller }) =>
      services.verification.requestCheck(caller, customerId),
    decideVerification: async (_parent, { customerId, input }, { services, caller, loaders }) => {
      const verification = await services.verification.decide(caller, customerId, input as unknown);
      // A rejection may have moved businesses this customer owns: read every verification again.
      loaders.verification.clearAll();
      return verification;
    },
  },

  Customer: {
    verification: (customer, _args, { loaders }) => loaders.verification.load(customer.customerId),
  },
};
