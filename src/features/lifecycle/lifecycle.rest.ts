import { ACCOUNT_CLOSE_REASONS, accountAnswerDataSchema } from '../accounts/index.js';
import { CUSTOMER_ARCHIVE_REASONS, customerAnswerDataSchema } from '../customers/index.js';
import {
  accountBalanceNotZeroToClose,
  accountClosed,
  accountFrozen,
  accountHasPendingHolds,
  accountNotClosed,
  accountReopenWindowPassed,
  currencyMismatch,
  customerArchived,
  customerHasOpenAccounts,
  customerNotFound,
  referencedAccountNotFound,
  tokenLimitExceeded,
  verificationRequired,
} from '../../domain/errors.js';
import { EXAMPLE_IDS } from '../../rest/operations/examples.js';
import { accountNotFoundFailure, failure, validationFailureOf } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { archiveCustomerSchema, closeAccountSchema, reopenAccountSchema } from './lifecycle.schemas.js';

const ANSWER_NOTE =
  'Answers the full account to a token that also holds `accounts:read`; to one without it, only `{accountId}`.';
const REPEAT_NOTE =
  'Repeating the call changes nothing more (it is refused with a code), so it takes no Idempotency-Key.';

/**
 * Accounts close and reopen, customers archive (docs/account-lifecycle.md, docs/adr/0106): extension operations,
 * tagged with the record they act on. Their answers add `status`, `closedAt`/`archivedAt` and the reason to the
 * record's usual fields, only once it is closed or archived.
 */
export const LIFECYCLE_ROUTES = [
  {
    operationId: 'closeAccount',
    method: 'POST',
    path: '/:environment/account/:accountId/close',
    family: 'account',
    tag: 'Accounts',
    summary: 'Close an account',
    description:
      `Not in the contract. \`reason\`: one of ${ACCOUNT_CLOSE_REASONS.join(', ')}. A remaining balance needs \`disbursementAccountId\`, ` +
      "another account of the environment in the same currency: the balance moves there by a transfer in the same transaction (as `POST /{environment}/transfer` moves it: its audit event, two `transaction.posted` events, the caller's posting limits). " +
      "In an environment that requires verification (VERIFICATION_REQUIRED), every customer of `disbursementAccountId` must be VERIFIED; the closing account's need not be, but a FROZEN closing account disburses nothing (ACCOUNT_FROZEN). " +
      'Then the account is closed, by the environment\'s clock: every posting on it is refused (ACCOUNT_CLOSED), its history, statements and balance history stay, and it answers `status: "CLOSED"`, `closedAt`, `closeReason`. ' +
      `Audited (\`account.close\`), event \`account.closed\`. Reopen it with \`POST …/reopen\` within ACCOUNT_REOPEN_WINDOW_DAYS. \`DELETE\` still deletes an empty account. ${ANSWER_NOTE} ${REPEAT_NOTE}`,
    scope: 'accounts:controls',
    naturallyIdempotent: true,
    requestBody: {
      schema: closeAccountSchema,
      component: 'CloseAccountRequest',
      example: { reason: 'CUSTOMER_REQUEST', disbursementAccountId: EXAMPLE_IDS.otherAccountId },
    },
    success: {
      status: 200,
      description: `The closed account. ${ANSWER_NOTE}`,
      data: accountAnswerDataSchema,
      component: 'AccountAnswer',
    },
    failures: [
      failure(
        'VALIDATION_FAILED_reason',
        '`reason` is missing or not one of the reasons; `disbursementAccountId` is the closing account itself.',
        validationFailureOf(closeAccountSchema, { reason: 'MOVED' }),
      ),
      accountNotFoundFailure,
      failure(
        'ACCOUNT_NOT_FOUND_disbursement',
        '`disbursementAccountId` names no account of this environment; nothing changes.',
        referencedAccountNotFound('disbursementAccountId'),
      ),
      failure(
        'ACCOUNT_BALANCE_NOT_ZERO',
        'The account holds money and no `disbursementAccountId` is given, or it owes money (a negative balance).',
        accountBalanceNotZeroToClose(false),
      ),
      failure('ACCOUNT_HAS_PENDING_HOLDS', 'The account has a pending hold.', accountHasPendingHolds()),
      failure(
        'ACCOUNT_CLOSED',
        'The account is already closed, or the disbursement account is closed.',
        accountClosed(),
      ),
      failure(
        'CURRENCY_MISMATCH',
        'The disbursement account holds another currency; nothing changes.',
        currencyMismatch(),
      ),
      failure(
        'ACCOUNT_FROZEN',
        'An account of the disbursement carries FROZEN (DEBITS_BLOCKED / CREDITS_BLOCKED refuse it too).',
        accountFrozen(),
      ),
      failure('TOKEN_LIMIT_EXCEEDED', "The disbursement is over the token's posting limits.", tokenLimitExceeded()),
      failure(
        'VERIFICATION_REQUIRED',
        'A gated environment (VERIFICATION_REQUIRED): a customer of the disbursement account is not VERIFIED (one detail per customer); nothing changes. The closing account is not gated.',
        verificationRequired([EXAMPLE_IDS.otherCustomerId]),
      ),
    ],
  },
  {
    operationId: 'reopenAccount',
    method: 'POST',
    path: '/:environment/account/:accountId/reopen',
    family: 'account',
    tag: 'Accounts',
    summary: 'Reopen a closed account',
    description:
      "Not in the contract. Reopens an account closed less than ACCOUNT_REOPEN_WINDOW_DAYS days ago (30 by default), by the environment's clock, " +
      `unless one of its customers is archived. The body is optional and takes no field. Audited (\`account.reopen\`), event \`account.reopened\`. ${ANSWER_NOTE} ${REPEAT_NOTE}`,
    scope: 'accounts:controls',
    naturallyIdempotent: true,
    requestBody: { schema: reopenAccountSchema, component: 'ReopenAccountRequest', example: {}, optional: true },
    success: {
      status: 200,
      description: `The reopened account (without \`status\`, \`closedAt\`, \`closeReason\`). ${ANSWER_NOTE}`,
      data: accountAnswerDataSchema,
      component: 'AccountAnswer',
    },
    failures: [
      accountNotFoundFailure,
      failure('ACCOUNT_NOT_CLOSED', 'The account is open.', accountNotClosed()),
      failure(
        'ACCOUNT_REOPEN_WINDOW_PASSED',
        'The account was closed ACCOUNT_REOPEN_WINDOW_DAYS days ago or more.',
        accountReopenWindowPassed(30),
      ),
      failure(
        'CUSTOMER_ARCHIVED',
        'A customer of the account is archived.',
        customerArchived(
          'A customer of the account is archived: an archived customer has no open account; nothing was changed.',
        ),
      ),
    ],
  },
  {
    operationId: 'archiveCustomer',
    method: 'POST',
    path: '/:environment/customer/:customerId/archive',
    family: 'customer',
    tag: 'Customers',
    summary: 'Archive a customer',
    description:
      `Not in the contract. \`reason\`: one of ${CUSTOMER_ARCHIVE_REASONS.join(', ')}. Only once every account linked to the customer is closed. ` +
      'An archived customer opens no account and is linked to none (CUSTOMER_ARCHIVED), is left out of `GET /{environment}/customer` unless `status=ARCHIVED` is asked for, and answers `status: "ARCHIVED"`, `archivedAt` (the environment\'s clock), `archiveReason`. ' +
      `It stays readable by id, its SSN stays enrolled. Audited (\`customer.archive\`), event \`customer.archived\`. Answers the full customer to a token that also holds \`customers:read\`; to one without it, only \`{customerId}\`. ${REPEAT_NOTE}`,
    scope: 'customers:write',
    naturallyIdempotent: true,
    requestBody: {
      schema: archiveCustomerSchema,
      component: 'ArchiveCustomerRequest',
      example: { reason: 'CUSTOMER_REQUEST' },
    },
    success: {
      status: 200,
      description: 'The archived customer (with `customers:read`), or its id alone (without).',
      data: customerAnswerDataSchema,
      component: 'CustomerAnswer',
    },
    failures: [
      failure(
        'VALIDATION_FAILED_reason',
        '`reason` is missing or not one of the reasons.',
        validationFailureOf(archiveCustomerSchema, { reason: 'MOVED' }),
      ),
      failure(
        'CUSTOMER_NOT_FOUND',
        'No customer with this id in this environment (an id that is not a UUID cannot name one).',
        customerNotFound(),
      ),
      failure(
        'CUSTOMER_HAS_OPEN_ACCOUNTS',
        'An account linked to the customer is not closed.',
        customerHasOpenAccounts(1),
      ),
      failure(
        'CUSTOMER_ARCHIVED',
        'The customer is already archived.',
        customerArchived('The customer is already archived; nothing was changed.'),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
