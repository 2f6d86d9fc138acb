import { interestNotApplicable } from '../../domain/errors.js';
import { accountNotFoundFailure, failure } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { interestDataSchema } from './interest.presenter.js';

/** Interest (docs/products.md#interest, docs/adr/0113): an extension operation under the account. */
export const INTEREST_ROUTES = [
  {
    operationId: 'getAccountInterest',
    method: 'GET',
    path: '/:environment/account/:accountId/interest',
    family: 'account',
    tag: 'Accounts',
    summary: "An account's interest",
    description:
      "Not in the contract. The interest of an account on a deposit product with interest: its product, the rate in force on the environment's business date for its posted balance (the tier it reached), " +
      "the annual percentage yield of that rate (Reg DD Appendix A, a fraction of 1 to 4 decimals), what has accrued and is not posted yet, the last dates accrued and posted, and what was paid in the business date's year. " +
      "The end of day accrues each day and posts at each posting period's end (docs/products.md#interest). Exact decimal strings.",
    scope: 'accounts:read',
    success: {
      status: 200,
      description: "The account's interest.",
      data: interestDataSchema,
      component: 'AccountInterest',
    },
    failures: [
      accountNotFoundFailure,
      failure(
        'INTEREST_NOT_APPLICABLE',
        'The account is on no product, or on a product that pays no interest.',
        interestNotApplicable(),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
