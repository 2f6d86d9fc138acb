import type { BeneficialOwnerProng, Resolvers } from '../../graphql/generated/resolvers-types.js';
import { type Loaders, rootKey } from '../../graphql/loaders.js';
import { wholeRecord } from '../../graphql/parents.js';

/**
 * Beneficial owners over GraphQL (docs/adr/0097): REST's BeneficialOwnerService, its rules and codes; the
 * resolvers only translate. Reads are batched per request (loaders.ts), so a page of customers with their owners
 * costs one statement more, whatever its size.
 */
export const beneficialOwnerResolvers: Pick<
  Resolvers,
  'Mutation' | 'Customer' | 'BeneficialOwner' | 'BusinessOwnership'
> = {
  Mutation: {
    addBeneficialOwner: async (_parent, { businessCustomerId, input }, { services, caller, loaders }) => {
      const owner = await services.beneficialOwners.add(caller, businessCustomerId, input as unknown);
      forgetOwners(loaders, businessCustomerId, owner.customerId);
      return owner;
    },
    removeBeneficialOwner: async (_parent, { businessCustomerId, ownerCustomerId }, { services, caller, loaders }) => {
      await services.beneficialOwners.remove(caller, businessCustomerId, ownerCustomerId);
      forgetOwners(loaders, businessCustomerId, ownerCustomerId);
      return ownerCustomerId;
    },
  },

  Customer: {
    // Null for a person (only a business has owners); the type needs the whole record (not an ids-only field).
    beneficialOwners: (customer, _args, { loaders }) =>
      wholeRecord(customer).customerType === 'BUSINESS' ? loaders.beneficialOwners.load(customer.customerId) : null,
    // A business owns nothing here: the read finds no row for it, so it needs no type.
    beneficialOwnerOf: (customer, _args, { loaders }) => loaders.ownershipsOf.load(customer.customerId),
  },

  BeneficialOwner: {
    customer: (owner, _args, { loaders }, info) =>
      loaders.customerById.load(rootKey('customer', owner.customerId, info)),
    prongs: (owner) => owner.prongs as BeneficialOwnerProng[],
  },

  BusinessOwnership: {
    business: (ownership, _args, { loaders }, info) =>
      loaders.customerById.load(rootKey('customer', ownership.businessCustomerId, info)),
    prongs: (ownership) => ownership.prongs as BeneficialOwnerProng[],
  },
};

/** An addition or removal moved the business's version and changed both sides' lists: read them again. */
function forgetOwners(loaders: Loaders, businessId: string, ownerId: string): void {
  loaders.beneficialOwners.clear(businessId);
  loaders.ownershipsOf.clear(ownerId);
  // Keyed by id, depth and shape: every copy of the business read so far carries its old version.
  loaders.customerById.clearAll();
}
