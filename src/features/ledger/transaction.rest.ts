import {
  accountClosed,
  accountFrozen,
  amountExceedsHold,
  currencyMismatch,
  externalIdTaken,
  holdExpired,
  referencedAccountNotFound,
  reversalNotReversible,
  minimumBalance,
  minimumOpeningDeposit,
  tokenLimitExceeded,
  withdrawalLimitExceeded,
  transactionAlreadyReversed,
  transactionNotFound,
  transactionNotPending,
  transactionNotPosted,
  transferNotFound,
  validationFailed,
} from '../../domain/errors.js';
import {
  postHoldSchema,
  postTransactionSchema,
  reverseTransactionSchema,
  type TransactionFilterInput,
  transactionPageSchema,
  transferSchema,
} from './ledger.schemas.js';
import type { Caller } from '../../domain/caller.js';
import type { PageQuery } from '../../domain/pagination.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';

/** `GET …/account/{accountId}/transaction`: the query string as LedgerService.findTransactions' filter and page. */
export function listTransactionsQuery(
  caller: Caller,
  query: QueryString,
): { filter: TransactionFilterInput; page: PageQuery } {
  const { limit, after, ...filter } = parseQuery(caller, 'accounts:read', transactionPageSchema, query);
  return { filter, page: { first: limit, after } };
}
import { RECENT_TRANSACTIONS } from './transaction.js';
import { transactionDataSchema, transactionPageDataSchema, transferDataSchema } from './transaction.presenter.js';
import { EXAMPLE_POST_TRANSACTION, EXAMPLE_TRANSFER } from '../../rest/operations/examples.js';
import {
  accountNotFoundFailure,
  failure,
  limitValidationFailure,
  postingRefusals,
} from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';

const transactionNotFoundFailure = failure(
  'TRANSACTION_NOT_FOUND',
  'No transaction with this id on this account.',
  transactionNotFound(),
);
const transactionNotPendingFailure = failure(
  'TRANSACTION_NOT_PENDING',
  'The transaction is not a pending hold (already posted or voided).',
  transactionNotPending(),
);
/** A managed token's limits (npm run token -- create --max-amount / --daily-limit); reversals and voids are not limited. */
const tokenLimitFailure = failure(
  'TOKEN_LIMIT_EXCEEDED',
  "The amount is over the token's maximum per posting, or would take its total of the UTC day in the currency over its daily limit; nothing is written.",
  tokenLimitExceeded(),
);
const externalIdFailure = (kind: 'transaction' | 'transfer') =>
  failure(
    'EXTERNAL_ID_TAKEN',
    `Another ${kind} of this environment has the externalId; nothing moves (a retry with the same Idempotency-Key still answers the original).`,
    externalIdTaken(kind),
  );
/** An account's product's rules on a client's posting (docs/products.md, docs/adr/0114); nothing is written. */
const productRefusals = [
  failure(
    'MINIMUM_BALANCE',
    "A debit (or hold) would take the available balance of an account on a product below its product's `minimumBalance` (details: `MINIMUM_BALANCE`, `AVAILABLE`, each with its `value`).",
    minimumBalance('500', '520'),
  ),
  failure(
    'WITHDRAWAL_LIMIT_EXCEEDED',
    "A debit (or debit hold) of an account on a product would pass its product's `limits`: the business date's total of the account's debits (detail `DAILY_WITHDRAWAL_TOTAL`) or their count in the business month (`WITHDRAWALS_PER_MONTH`), with the limit's `value` and `USED`.",
    withdrawalLimitExceeded('WITHDRAWALS_PER_MONTH', '6', '6'),
  ),
  failure(
    'MINIMUM_OPENING_DEPOSIT',
    "The first posting of an account on a product is a credit below its product's `minimumOpeningDeposit`, or a debit (detail `MINIMUM_OPENING_DEPOSIT` with its `value`).",
    minimumOpeningDeposit('100'),
  ),
];
const answersTransaction = (description: string, status: 200 | 201 = 200): RestRoute['success'] => ({
  status,
  description,
  data: transactionDataSchema,
  component: 'Transaction',
});

/** The operations tagged Transactions, in the order of the reference. */
export const TRANSACTIONS_ROUTES = [
  {
    operationId: 'postTransaction',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction',
    family: 'account',
    tag: 'Transactions',
    summary: 'Deposit, withdraw or hold',
    description:
      "Posts a CREDIT (money in) or DEBIT (money out) on the account against the environment's settlement account, in the account's currency. " +
      'With `hold: true` the amount is only authorised (a hold): a DEBIT hold reduces the available balance at once and posts or voids later; `expiresAt` voids it by itself. ' +
      'Answers the transaction; `Location` names it.',
    scope: 'transactions:write',
    requestBody: {
      schema: postTransactionSchema,
      component: 'PostTransactionRequest',
      example: EXAMPLE_POST_TRANSACTION,
    },
    success: answersTransaction('Posted (or held).', 201),
    failures: [
      accountNotFoundFailure,
      ...postingRefusals,
      ...productRefusals,
      tokenLimitFailure,
      externalIdFailure('transaction'),
    ],
  },
  {
    operationId: 'listTransactions',
    method: 'GET',
    path: '/:environment/account/:accountId/transaction',
    family: 'account',
    tag: 'Transactions',
    summary: "List an account's transactions",
    description:
      `Newest first, a page at a time (\`limit\` 1–100, default 20; \`after\`: the \`nextAfter\` of the previous page). The account itself carries its ${RECENT_TRANSACTIONS} newest. ` +
      'Filters, all of which must hold: `status` and `type` exactly; `from` (inclusive) and `to` (exclusive), instants of creation; `minAmount` and `maxAmount` (inclusive), ' +
      "decimals in the account's currency compared with `amount`; `externalId` exactly. Any other parameter is refused.",
    scope: 'accounts:read',
    query: {
      schema: transactionPageSchema,
      example: { status: 'POSTED', from: '2026-12-01T00:00:00Z', minAmount: '10', limit: '20' },
    },
    success: {
      status: 200,
      description: 'A page of transactions.',
      data: transactionPageDataSchema,
      component: 'TransactionPage',
    },
    failures: [
      limitValidationFailure(transactionPageSchema),
      failure(
        'VALIDATION_FAILED_amount',
        "`minAmount` or `maxAmount` is not a positive decimal with at most the currency's minor-unit digits, or `maxAmount` is below `minAmount`.",
        validationFailed([
          { field: 'minAmount', code: 'TOO_PRECISE', message: 'Must have at most 2 decimals for USD.' },
        ]),
      ),
      accountNotFoundFailure,
    ],
  },
  {
    operationId: 'getTransaction',
    method: 'GET',
    path: '/:environment/account/:accountId/transaction/:transactionId',
    family: 'account',
    tag: 'Transactions',
    summary: 'Retrieve a transaction',
    description: 'One transaction of the account.',
    scope: 'accounts:read',
    success: answersTransaction('The transaction.'),
    failures: [accountNotFoundFailure, transactionNotFoundFailure],
  },
  {
    operationId: 'postHold',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction/:transactionId/post',
    family: 'account',
    tag: 'Transactions',
    summary: 'Post a hold',
    description:
      'Posts a PENDING hold, for its whole amount or a smaller `amount` (the rest is released). Both sides of the hold post together. Answers the transaction, now POSTED.',
    scope: 'transactions:write',
    requestBody: { schema: postHoldSchema, component: 'PostHoldRequest', example: { amount: 20 } },
    success: answersTransaction('The posted transaction.'),
    failures: [
      accountNotFoundFailure,
      transactionNotFoundFailure,
      transactionNotPendingFailure,
      failure('HOLD_EXPIRED', 'The hold is past its expiresAt.', holdExpired()),
      failure('AMOUNT_EXCEEDS_HOLD', '`amount` is more than the hold.', amountExceedsHold()),
      failure('ACCOUNT_FROZEN', 'An account of the hold has the FROZEN flag.', accountFrozen()),
      failure('ACCOUNT_CLOSED', 'The account of the hold is closed.', accountClosed()),
      postingRefusals.find((refusal) => refusal.name === 'VERIFICATION_REQUIRED')!,
      tokenLimitFailure,
    ],
  },
  {
    operationId: 'voidHold',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction/:transactionId/void',
    family: 'account',
    tag: 'Transactions',
    summary: 'Void a hold',
    description:
      'Releases a PENDING hold: its amount is available again. No body. Answers the transaction, now VOIDED.',
    scope: 'transactions:write',
    success: answersTransaction('The voided transaction.'),
    failures: [accountNotFoundFailure, transactionNotFoundFailure, transactionNotPendingFailure],
  },
  {
    operationId: 'reverseTransaction',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction/:transactionId/reverse',
    family: 'account',
    tag: 'Transactions',
    summary: 'Reverse a transaction',
    description:
      'Undoes a POSTED transaction with a new one of the opposite type that names it (`reversesTransactionId`); for a transfer, both sides are reversed together. ' +
      'Posted transactions never change; each is reversed at most once. Answers the reversal on this account; `Location` names it.',
    scope: 'transactions:write',
    requestBody: {
      schema: reverseTransactionSchema,
      component: 'ReverseTransactionRequest',
      example: { description: 'Duplicate payment' },
    },
    success: answersTransaction('The reversal.', 201),
    failures: [
      accountNotFoundFailure,
      transactionNotFoundFailure,
      failure('TRANSACTION_NOT_POSTED', 'The transaction is a hold (post or void it instead).', transactionNotPosted()),
      failure('TRANSACTION_ALREADY_REVERSED', 'The transaction was reversed before.', transactionAlreadyReversed()),
      failure('REVERSAL_NOT_REVERSIBLE', 'The transaction is itself a reversal.', reversalNotReversible()),
      ...postingRefusals,
    ],
  },
  {
    operationId: 'createTransfer',
    method: 'POST',
    path: '/:environment/transfer',
    family: 'account',
    tag: 'Transactions',
    summary: 'Transfer between accounts',
    description:
      'Moves money from one account of the environment to another in the same currency: a DEBIT and a CREDIT posted together, with one transferId. Answers both.',
    scope: 'transactions:write',
    requestBody: { schema: transferSchema, component: 'TransferRequest', example: EXAMPLE_TRANSFER },
    success: {
      status: 201,
      description: 'Both transactions of the transfer.',
      data: transferDataSchema,
      component: 'Transfer',
    },
    failures: [
      failure(
        'ACCOUNT_NOT_FOUND',
        'fromAccountId or toAccountId names no account of this environment (the detail says which); nothing moves.',
        referencedAccountNotFound('toAccountId'),
      ),
      failure('CURRENCY_MISMATCH', 'The two accounts hold different currencies.', currencyMismatch()),
      ...postingRefusals,
      ...productRefusals,
      tokenLimitFailure,
      externalIdFailure('transfer'),
    ],
  },
  {
    operationId: 'getTransfer',
    method: 'GET',
    path: '/:environment/transfer/:transferId',
    family: 'account',
    tag: 'Transactions',
    summary: 'Retrieve a transfer',
    description:
      'Both transactions of a transfer, as creating it answered them, with their status as it is now (a reversal is a transaction of its own).',
    scope: 'accounts:read',
    success: {
      status: 200,
      description: 'Both transactions of the transfer.',
      data: transferDataSchema,
      component: 'Transfer',
    },
    failures: [
      failure(
        'TRANSFER_NOT_FOUND',
        'No transfer with this id in this environment (an id that is not a UUID cannot name one).',
        transferNotFound(),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
