import { ACCOUNTS_ROUTES } from '../features/accounts/index.js';
import { ACCOUNT_NUMBERS_ROUTES } from '../features/account-numbers/index.js';
import { AUDIT_ROUTES } from '../features/audit/index.js';
import { CLOCK_ROUTES } from '../features/clock/index.js';
import { CUSTOMERS_ROUTES } from '../features/customers/index.js';
import { BENEFICIAL_OWNERS_ROUTES } from '../features/businesses/index.js';
import { DOCUMENT_ROUTES, VERIFICATION_ROUTES } from '../features/verification/index.js';
import { EVENTS_ROUTES } from '../features/events/index.js';
import { HISTORY_ROUTES } from '../features/history/index.js';
import { NOTES_ROUTES } from '../features/notes/index.js';
import { PRODUCTS_ROUTES } from '../features/products/index.js';
import { LIFECYCLE_ROUTES } from '../features/lifecycle/index.js';
import { DORMANCY_ROUTES } from '../features/dormancy/index.js';
import { INTEREST_ROUTES } from '../features/interest/index.js';
import { FEES_ROUTES } from '../features/fees/index.js';
import { TAX_FORM_ROUTES } from '../features/tax-forms/index.js';
import type { RestRoute } from './operations/route.js';
import { TRANSACTIONS_ROUTES } from '../features/ledger/index.js';
import { WEBHOOKS_ROUTES } from '../features/webhooks/index.js';

export { EXAMPLE_CREATE_CUSTOMER, EXAMPLE_IDS } from './operations/examples.js';
export { failuresOf } from './operations/failures.js';
export {
  answersEntityTag,
  type DocumentedFailure,
  type HttpMethod,
  type RestRoute,
  takesIdempotencyKey,
  takesIfMatch,
  takesIfNoneMatch,
} from './operations/route.js';

/**
 * The REST surface as data: every operation with its path, envelope family, scope, request and response
 * schemas and the failures it can answer. The router (src/rest/router.ts) mounts exactly these routes and
 * the OpenAPI document (src/openapi/document.ts) describes exactly these, so neither can drift from the
 * other. Failures are real error objects: their status, code and headers come from the one error mapping.
 *
 * One module per tag (src/rest/operations/), the examples in their own (examples.ts); this list is their order.
 */
export const REST_ROUTES = [
  ...CUSTOMERS_ROUTES,
  ...BENEFICIAL_OWNERS_ROUTES,
  ...VERIFICATION_ROUTES,
  ...DOCUMENT_ROUTES,
  ...ACCOUNTS_ROUTES,
  ...TRANSACTIONS_ROUTES,
  ...HISTORY_ROUTES,
  ...EVENTS_ROUTES,
  ...WEBHOOKS_ROUTES,
  ...AUDIT_ROUTES,
  ...NOTES_ROUTES,
  ...LIFECYCLE_ROUTES,
  ...DORMANCY_ROUTES,
  ...INTEREST_ROUTES,
  ...FEES_ROUTES,
  ...TAX_FORM_ROUTES,
  ...CLOCK_ROUTES,
  ...ACCOUNT_NUMBERS_ROUTES,
  ...PRODUCTS_ROUTES,
] as const satisfies readonly RestRoute[];

export type OperationId = (typeof REST_ROUTES)[number]['operationId'];
