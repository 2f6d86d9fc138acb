import { z } from 'zod';
/** An instant of the query string: RFC 3339 with a time zone (`Z` or an offset), within the instant range. */
import { instantSchema as instant, maxLength } from '../../domain/validation.js';

export const HISTORY_INTERVALS = ['hour', 'day', 'month'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

export const HISTORY_LIMITS = {
  /** Points of one balance history: a year of days, or about six weeks of hours. */
  maxPoints: 1000,
  /** Posted entries of one statement (JSON, CSV, PDF); a longer history is exported (GET /{environment}/ledger-entries). */
  maxStatementEntries: 10_000,
  /** GraphQL's `Account.statement` answers at most this many entries, the size its cost estimate counts. */
  maxGraphqlStatementEntries: 1000,
} as const;

/** `GET …/balance`: `asOf` (absent: now). */
export const balanceQuerySchema = z.strictObject({ asOf: instant.optional() });

/** `GET …/balance-history`: the closing posted balance of each interval from `from` to `to`. */
export const balanceHistoryQuerySchema = z.strictObject({
  from: instant,
  to: instant,
  interval: z.enum(HISTORY_INTERVALS, { error: `Must be one of ${HISTORY_INTERVALS.join(', ')}.` }),
});

/** `GET …/statement`: the period [from, to). */
export const statementQuerySchema = z.strictObject({ from: instant, to: instant });

/** `GET /{environment}/ledger-entries`: posted in [from, to) (absent: since the beginning, until now), of one account or all. */
export const ledgerExportQuerySchema = z.strictObject({
  from: instant.optional(),
  to: instant.optional(),
  accountId: z.string().max(64, maxLength(64)).optional(),
});

/**
 * The typed inputs of the history service (validated by it: instants as RFC 3339 text within the instant range,
 * the interval one of HISTORY_INTERVALS). REST parses its query strings into them (history.rest.ts), GraphQL
 * passes its arguments.
 */
export interface BalanceMoment {
  asOf?: string | undefined;
}
export interface BalanceHistoryRange {
  from: string;
  to: string;
  interval: string;
}
export interface StatementPeriod {
  from: string;
  to: string;
}
export interface LedgerExportRange {
  from?: string | undefined;
  to?: string | undefined;
  accountId?: string | undefined;
}
