/**
 * The accounts feature's public face, for the other features and the composition root: the account record,
 * its input types, service, store, presenters, REST routes, GraphQL resolvers and the flag-expiry job.
 */
export {
  ACCOUNT_CLOSE_REASONS,
  type AccountCloseReason,
  ACCOUNT_FLAGS,
  ACCOUNT_ROLES,
  type Account,
  type AccountFlagDetail,
  type AccountLinks,
  type AccountRelationship,
  type AccountRole,
  everyRelationship,
} from './account.js';
export { currencySchema, type CreateAccountInput } from './account.schemas.js';
export type { AccountStore, ProductTerms } from './ports.js';
export { AccountService } from './account.service.js';
export { PrismaAccountStore } from './account.store.js';
export {
  accountAcknowledgmentDataSchema,
  accountAnswerDataSchema,
  accountDataSchema,
  presentAccount,
  presentAccountAnswer,
  presentAccountFlags,
  presentAccountPage,
} from './account.presenter.js';
export { ACCOUNTS_ROUTES, listAccountsQuery } from './account.rest.js';
export type { AccountFilterInput } from './account-search.js';
export { flagExpiryStep, startFlagExpiry } from './flag-expiry.job.js';
export { accountResolvers } from './account.resolvers.js';
