/**
 * The account numbers feature's public face (docs/adr/0107): every account's account numbers (sealed under the PII
 * keys, found by a blind index), the environment's ABA routing number, their controls and the inbound payment's
 * look-up. Its service, store, REST operations, presenters and GraphQL resolvers.
 */
export {
  abaRoutingNumberValid,
  ACCOUNT_NUMBER_LENGTH,
  ACCOUNT_NUMBER_STATUSES,
  type AccountNumberStatus,
  DEFAULT_ROUTING_NUMBER,
  INBOUND_ACH_DEBITS,
  type InboundAchDebits,
  isAccountNumber,
  last4Of,
  luhnValid,
  newAccountNumber,
} from './account-number.js';
export type {
  AccountNumberBinding,
  AccountNumberRecord,
  AccountNumberSealer,
  AccountNumberStore,
  NewAccountNumberRow,
  SealedAccountNumber,
} from './ports.js';
export {
  type AccountNumberLookup,
  AccountNumberService,
  type AccountNumberOptions,
  type MaskedAccountNumber,
  type RevealedAccountNumber,
  issueAccountNumber,
  last4Shown,
} from './account-number.service.js';
export {
  ACCOUNT_NUMBER_UNIQUE_INDEX,
  accountNumberInsert,
  accountNumberValues,
  PrismaAccountNumberStore,
} from './account-number.store.js';
export { PrismaSealedAccountNumberStore } from './sealed-account-number.store.js';
export { ACCOUNT_NUMBERS_ROUTES } from './account-number.rest.js';
export { presentAccountNumber, presentAccountNumberLookup, presentAccountNumbers } from './account-number.presenter.js';
export { accountNumberResolvers } from './account-number.resolvers.js';
