/**
 * The businesses feature's public face (docs/adr/0090): a customer that is an entity. Its creation and updates,
 * its profile store and its tax id's rotation; it is read, listed and deleted through the customer resource.
 */
export { BusinessService } from './business.service.js';
export type { BusinessStore } from './ports.js';
export { PROFILE_COLUMNS as BUSINESS_PROFILE_COLUMNS, PrismaBusinessStore } from './business.store.js';
export { createBusinessSchema, ENTITY_TYPES } from './business.schemas.js';
export { TAX_ID_RULE } from './tax-id.js';
export { PrismaSealedBusinessStore } from './sealed-business.store.js';
export { BeneficialOwnerService } from './beneficial-owner.service.js';
export { PrismaBeneficialOwnerStore } from './beneficial-owner.store.js';
export type { BeneficialOwner, BeneficialOwnerStore, BusinessOwnership } from './ports.js';
export {
  BENEFICIAL_OWNERS_ROUTES,
  beneficialOwnerAnswer,
  presentBeneficialOwner,
  presentBeneficialOwners,
} from './beneficial-owner.rest.js';
export { beneficialOwnerResolvers } from './beneficial-owner.resolvers.js';
