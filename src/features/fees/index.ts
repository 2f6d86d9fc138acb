/**
 * The monthly maintenance fee of deposit products (docs/adr/0115): the end of day's `maintenance-fee` step, an
 * account's assessments (REST and GraphQL), their store. Amounts are exact decimal strings.
 */
export type { FeeStore } from './ports.js';
export { type AssessmentOutcome, isWaived, type MaintenanceFeeAssessment } from './fees.js';
export { FeeService, maintenanceFeeStep } from './fees.service.js';
export { PrismaFeeStore } from './fees.store.js';
export { feeResolvers } from './fees.resolvers.js';
export { FEES_ROUTES, listFeesQuery } from './fees.rest.js';
export { feeAssessmentPageDataSchema, presentFeeAssessmentPage } from './fees.presenter.js';
