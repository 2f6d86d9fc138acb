/**
 * The customers feature's public face, for the other features and the composition root: its records,
 * rules, service, stores, presenters, REST routes and GraphQL resolvers. Anything not exported here is the
 * feature's own; its tests may still reach in.
 */
export {
  type Address,
  type BusinessProfile,
  type Customer,
  CUSTOMER_ARCHIVE_REASONS,
  type CustomerArchiveReason,
  type CustomerLinks,
  type Phone,
} from './customer.js';
export {
  addressSchema,
  BUSINESS_FIELDS,
  CUSTOMER_LIMITS,
  emailSchema,
  PERSON_FIELDS,
  phoneSchema,
} from './customer.schemas.js';
export { SSN_RULE } from './ssn.js';
export { SECRET_INPUT_FIELDS, SSN_QUERY_PARAMETERS, TAX_ID_QUERY_PARAMETERS } from './customer-search.js';
export type { BusinessCustomers, BusinessProfileReader, CustomerStore } from './ports.js';
export { phoneSearchKeys } from './phone-numbers.js';
export { CustomerService } from './customer.service.js';
export { PrismaCustomerStore } from './customer.store.js';
export { PrismaSealedCustomerStore } from './sealed-customer.store.js';
export {
  addressDataSchema,
  anyCustomerDataSchema,
  businessCustomerDataSchema,
  customerAcknowledgmentDataSchema,
  customerAnswerDataSchema,
  customerDataSchema,
  phoneDataSchema,
  presentAnyCustomer,
  presentCustomer,
  presentCustomerAnswer,
  presentCustomerPage,
} from './customer.presenter.js';
export { CUSTOMERS_ROUTES, listCustomersQuery, searchCustomersBody } from './customer.rest.js';
export type { CustomerFilterInput, CustomerSearchInput } from './customer-search.js';
export { customerResolvers } from './customer.resolvers.js';
