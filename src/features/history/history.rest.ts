import { ledgerExportsFull, statementRenderingBusy, statementTooLarge, validationFailed } from '../../domain/errors.js';
import {
  type BalanceHistoryRange,
  type BalanceMoment,
  balanceHistoryQuerySchema,
  balanceQuerySchema,
  HISTORY_LIMITS,
  type LedgerExportRange,
  ledgerExportQuerySchema,
  type StatementPeriod,
  statementQuerySchema,
} from './history.schemas.js';
import type { Caller } from '../../domain/caller.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';

/** `GET …/account/{accountId}/balance`: the query string as HistoryService.balance's moment. */
export const balanceQuery = (caller: Caller, query: QueryString): BalanceMoment =>
  parseQuery(caller, 'accounts:read', balanceQuerySchema, query);
/** `GET …/account/{accountId}/balance-history`: the query string as HistoryService.balanceHistory's range. */
export const balanceHistoryQuery = (caller: Caller, query: QueryString): BalanceHistoryRange =>
  parseQuery(caller, 'accounts:read', balanceHistoryQuerySchema, query);
/** `GET …/account/{accountId}/statement`: the query string as HistoryService.statement's period. */
export const statementQuery = (caller: Caller, query: QueryString): StatementPeriod =>
  parseQuery(caller, 'accounts:read', statementQuerySchema, query);
/** `GET /{environment}/ledger-entries`: the query string as HistoryService.exportLedger's range. */
export const ledgerExportQuery = (caller: Caller, query: QueryString): LedgerExportRange =>
  parseQuery(caller, 'ledger:export', ledgerExportQuerySchema, query);
import { notAcceptable } from '../../http/errors.js';
import {
  balanceAsOfDataSchema,
  balanceHistoryDataSchema,
  LEDGER_EXPORT_COLUMNS,
  ledgerExportEntrySchema,
  STATEMENT_CSV_COLUMNS,
  statementDataSchema,
} from './history.presenter.js';
import { accountNotFoundFailure, failure, validationFailureOf } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';

/** The media types a statement is answered in, the first the default (no Accept, or `*\/*`). */
export const STATEMENT_MEDIA_TYPES = ['application/json', 'text/csv', 'application/pdf'] as const;
/** The media types of the ledger export, the first the default. */
export const LEDGER_EXPORT_MEDIA_TYPES = ['application/x-ndjson', 'text/csv'] as const;

const rangeFailure = (description: string) =>
  failure(
    'VALIDATION_FAILED_range',
    description,
    validationFailed([{ field: 'to', code: 'OUT_OF_RANGE', message: 'Must be later than from.' }]),
  );

/** The operations tagged History, in the order of the reference. */
export const HISTORY_ROUTES = [
  {
    operationId: 'getBalanceAsOf',
    method: 'GET',
    path: '/:environment/account/:accountId/balance',
    family: 'account',
    tag: 'History',
    summary: "An account's balances at a moment",
    description:
      'Not in the contract: the posted, pending and available balances at `asOf` (RFC 3339; absent: now). Posted is the balance after the last transaction posted at or before ' +
      "`asOf` (0 before the first); pending and available count the holds open at that moment (created by then, posted or voided after). One index look-up, whatever the account's history.",
    scope: 'accounts:read',
    query: { schema: balanceQuerySchema, example: { asOf: '2026-12-01T00:00:00Z' } },
    success: {
      status: 200,
      description: 'The balances at `asOf`.',
      data: balanceAsOfDataSchema,
      component: 'BalanceAsOf',
    },
    failures: [
      failure(
        'VALIDATION_FAILED',
        '`asOf` is not an RFC 3339 instant with a time zone, or an unknown parameter.',
        validationFailureOf(balanceQuerySchema, { asOf: 'yesterday' }),
      ),
      accountNotFoundFailure,
    ],
  },
  {
    operationId: 'getBalanceHistory',
    method: 'GET',
    path: '/:environment/account/:accountId/balance-history',
    family: 'account',
    tag: 'History',
    summary: "An account's balance history",
    description:
      'Not in the contract: the closing posted balance of each interval (`hour`, `day` or `month`, in UTC) from the one holding `from` to the one holding the last instant before `to`, ' +
      `for a chart: at most ${HISTORY_LIMITS.maxPoints} points, read in one statement.`,
    scope: 'accounts:read',
    query: {
      schema: balanceHistoryQuerySchema,
      example: { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z', interval: 'day' },
    },
    success: {
      status: 200,
      description: 'One point per interval, oldest first.',
      data: balanceHistoryDataSchema,
      component: 'BalanceHistory',
    },
    failures: [
      failure(
        'VALIDATION_FAILED',
        '`from`, `to` or `interval` is missing or malformed, or an unknown parameter.',
        validationFailureOf(balanceHistoryQuerySchema, { from: '2026-11-01T00:00:00Z', interval: 'week' }),
      ),
      rangeFailure('`to` is not later than `from`.'),
      failure(
        'VALIDATION_FAILED_too_many_points',
        `The range holds more than ${HISTORY_LIMITS.maxPoints} intervals (detail code TOO_MANY_POINTS); nothing is read.`,
        validationFailed([
          {
            field: 'to',
            code: 'TOO_MANY_POINTS',
            message: `The range holds more than ${HISTORY_LIMITS.maxPoints} intervals; ask for a shorter range or a longer interval.`,
          },
        ]),
      ),
      accountNotFoundFailure,
    ],
  },
  {
    operationId: 'getStatement',
    method: 'GET',
    path: '/:environment/account/:accountId/statement',
    family: 'account',
    tag: 'History',
    summary: "An account's statement of a period",
    description:
      'Not in the contract: the posted transactions of [`from`, `to`) with the opening and closing balances and the totals (openingBalance + totalCredits − totalDebits = closingBalance). ' +
      `By \`Accept\`: \`application/json\` (default, in the envelope), \`text/csv\` (RFC 4180, header row: ${STATEMENT_CSV_COLUMNS.join(', ')}; an OPENING_BALANCE and a CLOSING_BALANCE row around the transactions; an account on a product adds INTEREST_EARNED, AVERAGE_DAILY_BALANCE and ANNUAL_PERCENTAGE_YIELD_EARNED rows) ` +
      "or `application/pdf` (the holders' names when the token may also read customers, the balances, a balance chart, the transactions, page numbers). " +
      '`asOfSequence` names the last posting the statement reflects; for a period that has ended, the same request answers the same data (CSV and PDF: the same bytes). ' +
      `At most ${HISTORY_LIMITS.maxStatementEntries} transactions; the ledger export streams longer periods. ` +
      'A PDF is drawn off the event loop by a few rendering workers, at most `STATEMENT_PDF_MAX_PENDING` in flight or queued per instance: one more is refused with 503 ' +
      '`STATEMENT_RENDERING_BUSY` and `Retry-After`. The PDF of a period that has ended is kept by content, so asking for it again answers the same bytes without drawing it again.',
    scope: 'accounts:read',
    query: { schema: statementQuerySchema, example: { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' } },
    success: { status: 200, description: 'The statement.', data: statementDataSchema, component: 'Statement' },
    representations: STATEMENT_MEDIA_TYPES,
    failures: [
      failure(
        'VALIDATION_FAILED',
        '`from` or `to` is missing or malformed, or an unknown parameter.',
        validationFailureOf(statementQuerySchema, { from: '2026-11-01' }),
      ),
      rangeFailure('`to` is not later than `from`.'),
      failure(
        'STATEMENT_TOO_LARGE',
        `The period holds more than ${HISTORY_LIMITS.maxStatementEntries} posted transactions.`,
        statementTooLarge(HISTORY_LIMITS.maxStatementEntries),
      ),
      failure(
        'NOT_ACCEPTABLE',
        `\`Accept\` names none of ${STATEMENT_MEDIA_TYPES.join(', ')}.`,
        notAcceptable(STATEMENT_MEDIA_TYPES),
      ),
      accountNotFoundFailure,
      failure(
        'STATEMENT_RENDERING_BUSY',
        'PDF only: the instance already renders or queues `STATEMENT_PDF_MAX_PENDING` statement PDFs; retry shortly, or on another instance. Decided after the statement is read (a PDF it keeps is answered whatever the queue).',
        statementRenderingBusy(4),
      ),
    ],
  },
  {
    operationId: 'exportLedgerEntries',
    method: 'GET',
    path: '/:environment/ledger-entries',
    family: 'customer',
    tag: 'History',
    summary: 'Export the ledger',
    description:
      'Not in the contract: every posted entry of the environment in [`from`, `to`) (absent: since the beginning, until now), settlement accounts included, or those of `accountId`, ' +
      'in posting order, streamed from one snapshot of the database in constant memory. Per currency, the debits of an environment export equal its credits. ' +
      `By \`Accept\`: \`application/x-ndjson\` (default: one JSON object per line) or \`text/csv\` (RFC 4180, header row: ${LEDGER_EXPORT_COLUMNS.join(', ')}). Amounts are exact decimal text. ` +
      'The `Ledger-Export-To` header names the end used. A failure after the first line cuts the connection (the answer is then incomplete, never silently short). ' +
      'An instance runs a few exports at once (`LEDGER_EXPORT_MAX_CONCURRENT`); one more is refused with 503 `LEDGER_EXPORTS_FULL` and `Retry-After`.',
    scope: 'ledger:export',
    query: { schema: ledgerExportQuerySchema, example: { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' } },
    success: {
      status: 200,
      description: 'The entries, one per line.',
      data: ledgerExportEntrySchema,
      component: 'LedgerExportEntry',
    },
    representations: LEDGER_EXPORT_MEDIA_TYPES,
    failures: [
      failure(
        'VALIDATION_FAILED',
        '`from`, `to` or `accountId` is malformed, or an unknown parameter.',
        validationFailureOf(ledgerExportQuerySchema, { from: 'last week' }),
      ),
      rangeFailure('`to` is not later than `from`.'),
      failure(
        'NOT_ACCEPTABLE',
        `\`Accept\` names none of ${LEDGER_EXPORT_MEDIA_TYPES.join(', ')}.`,
        notAcceptable(LEDGER_EXPORT_MEDIA_TYPES),
      ),
      failure(
        'LEDGER_EXPORTS_FULL',
        'The instance already runs `LEDGER_EXPORT_MAX_CONCURRENT` exports (each holds a snapshot and a database connection); retry when one has finished. Decided after the request is found valid.',
        ledgerExportsFull(2),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
