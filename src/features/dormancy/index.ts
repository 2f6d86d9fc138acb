/**
 * The dormancy feature's public face (docs/adr/0109): accounts become INACTIVE and DORMANT at the end of day, a dormant
 * account refuses a client's debits (decided by the ledger's posting statement), reactivation, and the escheatment list
 * and notices by the owner's state. The account's status fields are presented by the accounts' own presenter.
 */
export {
  DormancyService,
  type DormancySettings,
  dormancyStep,
  END_OF_DAY_PRINCIPAL_ID,
  escheatmentNoticeStep,
  type EscheatmentItem,
  type EscheatmentItemPage,
} from './dormancy.service.js';
export type { DormancyStore } from './ports.js';
export { PrismaDormancyStore } from './dormancy.store.js';
export { DEFAULT_DORMANCY_SETTINGS } from './dormancy.schemas.js';
export { DORMANCY_ROUTES, escheatmentQuery } from './dormancy.rest.js';
export { presentEscheatmentPage } from './dormancy.presenter.js';
export { dormancyResolvers } from './dormancy.resolvers.js';
export { ESCHEATMENT_PERIOD_YEARS, ESCHEATMENT_PERIODS_AS_OF } from './escheatment-periods.js';
