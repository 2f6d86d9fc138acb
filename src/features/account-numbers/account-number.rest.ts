import { accountNumberCanceled, accountNumberNotFound } from '../../domain/errors.js';
import { accountNumberLookupRateLimited } from '../../http/rate-limit.js';
import { accountNotFoundFailure, failure, validationFailureOf } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import {
  accountNumberDataSchema,
  accountNumberLookupDataSchema,
  accountNumbersDataSchema,
} from './account-number.presenter.js';
import {
  addAccountNumberSchema,
  lookupAccountNumberSchema,
  updateAccountNumberSchema,
} from './account-number.schemas.js';

const numberNotFoundFailure = failure(
  'ACCOUNT_NUMBER_NOT_FOUND',
  'No account number of this account has this id (an id that is not a UUID cannot name one); nothing is changed.',
  accountNumberNotFound(),
);

/** Account and routing numbers (docs/adr/0107), tagged Accounts. */
export const ACCOUNT_NUMBERS_ROUTES = [
  {
    operationId: 'listAccountNumbers',
    method: 'GET',
    path: '/:environment/account/:accountId/account-numbers',
    family: 'account',
    tag: 'Accounts',
    summary: "List an account's account numbers, in full",
    description:
      "Not in the contract. Every account number of the account (oldest first) in full, with the environment's ABA routing number. " +
      'The only answer that holds the digits: every other one (GraphQL `accountNumberLast4`, the changes below) has the last four. ' +
      'Each read is audited (`account.account_number.read`, the account as resource; never the digits). ' +
      'An account opened before account numbers existed is issued its first here (audited `account.account_number.create`).',
    scope: 'accounts:numbers:read',
    success: {
      status: 200,
      description: "The account's numbers and routing number.",
      data: accountNumbersDataSchema,
      component: 'AccountNumbers',
    },
    failures: [accountNotFoundFailure],
  },
  {
    operationId: 'addAccountNumber',
    method: 'POST',
    path: '/:environment/account/:accountId/account-numbers',
    family: 'account',
    tag: 'Accounts',
    summary: 'Add another account number to an account',
    description:
      'Not in the contract. A new random account number (12 digits, Luhn check digit), ACTIVE, unique in the environment. ' +
      'The answer has its last four digits only (the full number: `GET …/account-numbers`, `accounts:numbers:read`). ' +
      '`inboundAchDebits`: ALLOWED (default) or BLOCKED. Audited (`account.account_number.create`); no event.',
    scope: 'accounts:controls',
    withoutIdempotencyKey:
      'a repeat adds one more number, which costs nothing and can be disabled; list the numbers after a lost answer',
    requestBody: {
      schema: addAccountNumberSchema,
      component: 'AddAccountNumberRequest',
      example: { inboundAchDebits: 'BLOCKED' },
      optional: true,
    },
    success: {
      status: 201,
      description: 'Added: the number, its last four digits.',
      data: accountNumberDataSchema,
      component: 'AccountNumber',
    },
    failures: [
      failure(
        'VALIDATION_FAILED_inboundAchDebits',
        '`inboundAchDebits` is neither ALLOWED nor BLOCKED, or another field is sent; nothing is written.',
        validationFailureOf(addAccountNumberSchema, { inboundAchDebits: 'SOMETIMES' }),
      ),
      accountNotFoundFailure,
    ],
  },
  {
    operationId: 'updateAccountNumber',
    method: 'PUT',
    path: '/:environment/account/:accountId/account-numbers/:accountNumberId',
    family: 'account',
    tag: 'Accounts',
    summary: "Set an account number's status or inbound ACH debits",
    description:
      'Not in the contract. `status`: ACTIVE, DISABLED or CANCELED (final: nothing about a canceled number changes again); ' +
      '`inboundAchDebits`: ALLOWED or BLOCKED; one or both. Audited (`account.account_number.update`, the fields given), a call that changes nothing too. ' +
      'The answer has the last four digits only.',
    scope: 'accounts:controls',
    requestBody: {
      schema: updateAccountNumberSchema,
      component: 'UpdateAccountNumberRequest',
      example: { status: 'DISABLED', inboundAchDebits: 'BLOCKED' },
    },
    success: {
      status: 200,
      description: 'The number as it is now.',
      data: accountNumberDataSchema,
      component: 'AccountNumber',
    },
    failures: [
      failure(
        'VALIDATION_FAILED_status',
        '`status` or `inboundAchDebits` is not one of its values, neither is given, or another field is sent; nothing changes.',
        validationFailureOf(updateAccountNumberSchema, { status: 'PAUSED' }),
      ),
      numberNotFoundFailure,
      failure(
        'ACCOUNT_NUMBER_CANCELED',
        'The number is CANCELED, which is final; nothing changes (add a new number instead).',
        accountNumberCanceled(),
      ),
    ],
  },
  {
    operationId: 'lookupAccountNumber',
    method: 'POST',
    path: '/:environment/account-numbers/lookup',
    family: 'account',
    tag: 'Accounts',
    summary: 'Find the account an inbound payment names',
    description:
      "Not in the contract. `{routingNumber, accountNumber}` (in a body, never a URL) → the account and the number's controls, for an inbound payment (ACH, wire). " +
      "The numbers are compared through the blind index; the routing number must be this environment's. " +
      'Every look-up is audited (`account_number.lookup`: found or not, never the digits) and counts against its own per-token budget ' +
      '(ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE, shared with GraphQL). A DISABLED or CANCELED number is found, with its status: the payment side refuses it. A read: it takes no Idempotency-Key.',
    scope: 'accounts:numbers:lookup',
    naturallyIdempotent: true,
    requestBody: {
      schema: lookupAccountNumberSchema,
      component: 'AccountNumberLookupRequest',
      example: { routingNumber: '011000015', accountNumber: '123456789015' },
    },
    success: {
      status: 200,
      description: "The account and the number's controls.",
      data: accountNumberLookupDataSchema,
      component: 'AccountNumberLookup',
    },
    failures: [
      failure(
        'VALIDATION_FAILED_accountNumber',
        '`routingNumber` is not 9 digits or `accountNumber` not 10 to 12 digits (strings); nothing is looked up.',
        validationFailureOf(lookupAccountNumberSchema, { routingNumber: '011000015', accountNumber: '12-34' }),
      ),
      failure(
        'ACCOUNT_NUMBER_NOT_FOUND',
        "The routing number is not this environment's, or the account number is none of its numbers: the answer is the same either way.",
        accountNumberNotFound(),
      ),
      failure(
        'ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED',
        "The token's look-ups this minute (ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE) are spent; nothing is looked up or audited; retry after Retry-After.",
        accountNumberLookupRateLimited(42),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
