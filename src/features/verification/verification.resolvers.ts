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
    // REST's review (docs/adr/0103); GraphQL has no upload and no content: REST alone carries the file.
    reviewDocument: async (_parent, { customerId, documentId, input }, { services, caller, loaders }) => {
      const document = await services.verificationDocuments.review(caller, customerId, documentId, input as unknown);
      // The verification's documents and requirements changed: read them again.
      loaders.verification.clearAll();
      return document;
    },
  },

  Customer: {
    verification: (customer, _args, { loaders }) => loaders.verification.load(customer.customerId),
  },
};
