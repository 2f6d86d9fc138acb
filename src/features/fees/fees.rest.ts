import type { Caller } from '../../domain/caller.js';
import { validationFailed } from '../../domain/errors.js';
import type { PageQuery } from '../../domain/pagination.js';
import { accountNotFoundFailure, failure, limitValidationFailure } from '../../rest/operations/failures.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { feeAssessmentPageDataSchema } from './fees.presenter.js';
import { feePageQuerySchema } from './fees.schemas.js';

/** `GET …/fees`: the query string as FeeService.list's page. */
export function listFeesQuery(caller: Caller, query: QueryString): PageQuery {
  const { limit, after } = parseQuery(caller, 'accounts:read', feePageQuerySchema, query);
  return { first: limit, after };
}

/** Maintenance fees (docs/products.md#fees, docs/adr/0115): an extension operation under the account. */
export const FEES_ROUTES = [
  {
    operationId: 'listAccountFees',
    method: 'GET',
    path: '/:environment/account/:accountId/fees',
    family: 'account',
    tag: 'Accounts',
    summary: "An account's maintenance fee assessments",
    description:
      'Not in the contract. The monthly maintenance fee assessments of an account on a deposit product with a fee, one per month, newest first (`limit` 1–100, default 20; `after`: the `nextAfter` of the previous page, a month YYYY-MM): ' +
      "the month's minimum daily balance, the fee and waiver threshold applied, whether it was waived, what was charged and what did not fit within the overdraft limit. " +
      'The end of day assesses each month on its last business date (docs/products.md#fees). An account on no product with a fee has none: an empty list. Exact decimal strings.',
    scope: 'accounts:read',
    query: { schema: feePageQuerySchema, example: { limit: '12' } },
    success: {
      status: 200,
      description: 'A page of assessments.',
      data: feeAssessmentPageDataSchema,
      component: 'AccountFeeAssessmentPage',
    },
    failures: [
      limitValidationFailure(feePageQuerySchema),
      failure(
        'VALIDATION_FAILED_after',
        '`after` is not a month (YYYY-MM).',
        validationFailed([
          { field: 'after', code: 'INVALID_FORMAT', message: 'Must be a month (YYYY-MM) from a previous page.' },
        ]),
      ),
      accountNotFoundFailure,
    ],
  },
] as const satisfies readonly RestRoute[];
