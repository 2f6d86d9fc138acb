/**
 * Interest on deposit products (docs/adr/0113): the end of day's accrual and posting steps, an account's interest
 * (REST and GraphQL), its store. Amounts are exact decimal strings; the APY is Reg DD's, as a fraction of 1.
 */
export type { InterestStore } from './ports.js';
export {
  ACCRUAL_DECIMALS,
  annualPercentageYield,
  annualPercentageYieldEarned,
  type InterestSummary,
  isPeriodEnd,
  roundHalfEven,
} from './interest.js';
export { InterestService, interestAccrualStep, interestPostingStep } from './interest.service.js';
export { PrismaInterestStore } from './interest.store.js';
export { interestResolvers } from './interest.resolvers.js';
export { INTEREST_ROUTES } from './interest.rest.js';
export { interestDataSchema, presentInterest } from './interest.presenter.js';
