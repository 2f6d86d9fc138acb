import { accountAnswerDataSchema } from '../accounts/index.js';
import type { Caller } from '../../domain/caller.js';
import { accountNotDormant, validationFailed } from '../../domain/errors.js';
import {
  accountNotFoundFailure,
  failure,
  limitValidationFailure,
  validationFailureOf,
} from '../../rest/operations/failures.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { escheatmentPageDataSchema } from './dormancy.presenter.js';
import { escheatmentQuerySchema, reactivateAccountSchema } from './dormancy.schemas.js';
import type { EscheatmentListQuery } from './dormancy.service.js';

/** `GET /{environment}/escheatment`: the query string as DormancyService.escheatment's. */
export function escheatmentQuery(caller: Caller, query: QueryString): EscheatmentListQuery {
  const { asOf, state, limit, after } = parseQuery(caller, 'accounts:read', escheatmentQuerySchema, query);
  return { asOf, state, first: limit, after };
}

const ANSWER_NOTE =
  'Answers the full account to a token that also holds `accounts:read`; to one without it, only `{accountId}`.';

/** Dormancy and escheatment (docs/dormancy-and-escheatment.md, docs/adr/0109): extension operations. */
export const DORMANCY_ROUTES = [
  {
    operationId: 'reactivateAccount',
    method: 'POST',
    path: '/:environment/account/:accountId/reactivate',
    family: 'account',
    tag: 'Accounts',
    summary: 'Reactivate an inactive or dormant account',
    description:
      'Not in the contract. Makes an INACTIVE or DORMANT open account active again (the end of day sets those after INACTIVE_AFTER_DAYS / DORMANT_AFTER_DAYS without customer-initiated activity): ' +
      "its last activity becomes now (the environment's clock), so its dormancy and escheatment periods start again, and it answers without `status`. " +
      `A customer's own credit (a deposit) reactivates it too. The body is optional and takes no field. Audited (\`account.reactivate\`), event \`account.reactivated\`. ${ANSWER_NOTE} ` +
      'Repeating the call changes nothing more (ACCOUNT_NOT_DORMANT), so it takes no Idempotency-Key.',
    scope: 'accounts:controls',
    naturallyIdempotent: true,
    requestBody: {
      schema: reactivateAccountSchema,
      component: 'ReactivateAccountRequest',
      example: {},
      optional: true,
    },
    success: {
      status: 200,
      description: `The account, active again. ${ANSWER_NOTE}`,
      data: accountAnswerDataSchema,
      component: 'AccountAnswer',
    },
    failures: [
      accountNotFoundFailure,
      failure(
        'ACCOUNT_NOT_DORMANT',
        'The account is neither INACTIVE nor DORMANT, or it is closed.',
        accountNotDormant(),
      ),
    ],
  },
  {
    operationId: 'listEscheatment',
    method: 'GET',
    path: '/:environment/escheatment',
    family: 'customer',
    tag: 'Accounts',
    summary: 'Accounts due for escheatment',
    description:
      "Not in the contract. The open accounts whose state's dormancy period for demand deposits (years, by the state of the primary owner's address: src/features/dormancy/escheatment-periods.ts, to be reviewed by compliance) " +
      'has passed, counted from their last customer-initiated activity, by the end of `asOf` (YYYY-MM-DD, default: the business date), or will within ESCHEATMENT_NOTICE_DAYS (120 by default) after it. ' +
      'Only `state` (a USPS code) when given. Each with its balance, status, state, last activity, due date and owners (ids; names with `customers:read`). ' +
      "By accountId, a page at a time (`limit` 1–100, default 20; `after`: the `nextAfter` of the previous page). Accounts whose owner has no address of the table are not listed. Uses the customer endpoints' envelope (`log_ref_id`), as its path is not under `account`.",
    scope: 'accounts:read',
    query: { schema: escheatmentQuerySchema, example: { asOf: '2026-12-31', state: 'NY', limit: '20' } },
    success: {
      status: 200,
      description: 'A page of accounts due.',
      data: escheatmentPageDataSchema,
      component: 'EscheatmentPage',
    },
    failures: [
      limitValidationFailure(escheatmentQuerySchema),
      failure(
        'VALIDATION_FAILED_query',
        '`asOf` is not a date, `state` not the code of a US state or DC, or `after` not an accountId.',
        validationFailureOf(escheatmentQuerySchema, { state: 'XX' }),
      ),
      failure(
        'VALIDATION_FAILED_after',
        '`after` is not an accountId.',
        validationFailed([
          { field: 'after', code: 'INVALID_VALUE', message: 'Must be an accountId from a previous page.' },
        ]),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
