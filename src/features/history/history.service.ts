import { type EnvironmentTime, realTime } from '../../domain/environment-clock.js';
import type { Account } from '../accounts/index.js';
import { authorize, isAuthorized } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { accountNotFound, ledgerExportsFull, statementTooLarge, validationFailed } from '../../domain/errors.js';
import { isRecordId } from '../../domain/ids.js';
import type { AccountStore } from '../accounts/index.js';
import type { CustomerStore } from '../customers/index.js';
import { annualPercentageYieldEarned } from '../interest/index.js';
import { parseInput } from '../../domain/validation.js';
import {
  type BalanceHistoryRange,
  type BalanceMoment,
  balanceHistoryQuerySchema,
  balanceQuerySchema,
  HISTORY_LIMITS,
  type HistoryInterval,
  type LedgerExportRange,
  ledgerExportQuerySchema,
  type StatementPeriod,
  statementQuerySchema,
} from './history.schemas.js';
import type { HistoryStore, LedgerExportRequest } from './ports.js';
import type {
  BalanceAsOf,
  BalancePoint,
  ExportSink,
  LedgerExportFormat,
  Statement,
  StatementDocument,
  StatementInterest,
} from './statement.js';

/**
 * Entries per batch of the ledger export: one round trip to PostgreSQL each, held in memory one at a time
 * (docs/adr/0069-ledger-export-memory-and-concurrency.md: smaller batches cost round trips, not memory).
 */
export const EXPORT_BATCH_SIZE = 250;

/** Ledger exports one instance runs at once when the service is built without a limit (LEDGER_EXPORT_MAX_CONCURRENT). */
export const DEFAULT_MAX_CONCURRENT_EXPORTS = 2;

export interface HistoryServiceOptions {
  /** Ledger exports run at once by this instance; one more is refused with LEDGER_EXPORTS_FULL. */
  maxConcurrentExports?: number;
  /** Called on each refusal for want of an export slot (a metric). */
  onExportsFull?: () => void;
}

/**
 * A validated ledger export, ready to stream. It holds one of the instance's export slots from the moment it
 * is validated: `run` gives it back when it ends, `release` when the export will not run (idempotent).
 */
export interface LedgerExport {
  request: LedgerExportRequest;
  /** Hands every entry to `sink`, a batch of lines at a time; answers how many. Releases the slot when it ends. */
  run(sink: ExportSink): Promise<number>;
  release(): void;
}

/**
 * An account's past: its balances at any moment, a balance history for charts, statements of a period, and
 * the environment's ledger export for reconciliation. Everything here reads; a statement of a period that
 * has ended reads the same entries on every request, so it renders to the same bytes.
 */
export class HistoryService {
  private runningExports = 0;
  private readonly maxConcurrentExports: number;

  constructor(
    private readonly stores: { accounts: AccountStore; customers: CustomerStore; history: HistoryStore },
    /** The environments' clocks (docs/adr/0102): "now" is the account's environment's time. */
    private readonly clock: EnvironmentTime = realTime,
    private readonly options: HistoryServiceOptions = {},
  ) {
    this.maxConcurrentExports = options.maxConcurrentExports ?? DEFAULT_MAX_CONCURRENT_EXPORTS;
  }

  /** Ledger exports running now (validated and not yet ended), for the quota gauge. */
  exportsRunning(): number {
    return this.runningExports;
  }

  /** The account's posted, pending and available balances at `asOf` (absent: now); 0 before its first entry. */
  async balance(caller: Caller, accountId: string, moment: BalanceMoment = {}): Promise<BalanceAsOf> {
    authorize(caller, 'accounts:read');
    const valid = parseInput(balanceQuerySchema, moment);
    if (!isRecordId(accountId)) throw accountNotFound();
    const asOf = valid.asOf === undefined ? await this.clock.now(caller.environment) : new Date(valid.asOf);
    const balance = await this.stores.history.balanceAsOf(caller.environment, accountId.toLowerCase(), asOf);
    if (!balance) throw accountNotFound();
    return balance;
  }

  /** The closing posted balance of each interval (UTC) from the one holding `from` to the one holding the instant before `to`. */
  async balanceHistory(
    caller: Caller,
    accountId: string,
    range: BalanceHistoryRange,
  ): Promise<{ points: BalancePoint[] }> {
    authorize(caller, 'accounts:read');
    const valid = parseInput(balanceHistoryQuerySchema, range);
    const { from, to } = period(valid.from, valid.to);
    const ends = intervalEnds(from, to, valid.interval);
    const account = await this.addressedAccount(caller, accountId);
    return { points: await this.stores.history.balancesBefore(caller.environment, account.accountId, ends) };
  }

  /**
   * The posted entries of [from, to) with the opening and closing balances and the totals. STATEMENT_TOO_LARGE
   * when the period holds more than `maxEntries` (a shorter period, or the ledger export, answers it).
   */
  async statement(
    caller: Caller,
    accountId: string,
    asked: StatementPeriod,
    maxEntries: number = HISTORY_LIMITS.maxStatementEntries,
  ): Promise<Statement> {
    authorize(caller, 'accounts:read');
    const valid = parseInput(statementQuerySchema, asked);
    const { from, to } = period(valid.from, valid.to);
    if (!isRecordId(accountId)) throw accountNotFound();
    const statement = await this.stores.history.statement({
      environment: caller.environment,
      accountId: accountId.toLowerCase(),
      from,
      to,
      maxEntries,
    });
    if (!statement) throw accountNotFound();
    if (statement === 'too-large') throw statementTooLarge(maxEntries);
    return statement.interest ? { ...statement, interest: withYieldEarned(statement.interest) } : statement;
  }

  /**
   * The statement with what a document for the holders shows besides: the account's name, the holders' names
   * (only for a caller that may also read customers; never any other personal datum) and a daily balance chart.
   */
  async statementDocument(caller: Caller, accountId: string, asked: StatementPeriod): Promise<StatementDocument> {
    const statement = await this.statement(caller, accountId, asked);
    const account = await this.addressedAccount(caller, accountId);
    const from = new Date(statement.from);
    const to = new Date(statement.to);
    const interval: HistoryInterval =
      to.getTime() - from.getTime() <= HISTORY_LIMITS.maxPoints * DAY_MS ? 'day' : 'month';
    const ends = intervalEnds(from, to, interval).map((end) => (end.getTime() > to.getTime() ? to : end));
    const balanceHistory = [
      { at: statement.from, posted: statement.openingBalance },
      ...(await this.stores.history.balancesBefore(caller.environment, account.accountId, ends)),
    ];
    let holderNames: string[] | null = null;
    if (isAuthorized(caller, 'customers:read')) {
      const customers = await this.stores.customers.findByIds(caller.environment, account.customerIds);
      const byId = new Map(customers.map((customer) => [customer.customerId, customer]));
      holderNames = account.customerIds.flatMap((id) => {
        const customer = byId.get(id);
        return customer
          ? [[customer.firstName, customer.middleName, customer.lastName].filter((part) => part).join(' ')]
          : [];
      });
    }
    return { statement, accountName: account.name, holderNames, balanceHistory };
  }

  /**
   * The environment's posted entries (settlement accounts included, each with its kind) in [from, to), or
   * those of one account, in posting order. Validated here, streamed by `run` (from one snapshot). Each
   * export holds a snapshot and a connection for its whole run, so an instance runs at most
   * `maxConcurrentExports` at once: one more is LEDGER_EXPORTS_FULL, decided after the request is found valid.
   * Each entry is handed over as a line of `format`, written by the store (no object per entry).
   */
  async exportLedger(caller: Caller, range: LedgerExportRange, format: LedgerExportFormat): Promise<LedgerExport> {
    authorize(caller, 'ledger:export');
    const valid = parseInput(ledgerExportQuerySchema, range);
    const to = valid.to === undefined ? await this.clock.now(caller.environment) : new Date(valid.to);
    const from = valid.from === undefined ? null : new Date(valid.from);
    if (from && from.getTime() >= to.getTime())
      throw validationFailed([{ field: 'to', code: 'OUT_OF_RANGE', message: 'Must be later than from.' }]);
    // An id the service never issued names no account: the export is empty, as for an account without entries.
    const accountId =
      valid.accountId === undefined
        ? null
        : isRecordId(valid.accountId)
          ? valid.accountId.toLowerCase()
          : '00000000-0000-0000-0000-000000000000';
    const request: LedgerExportRequest = {
      environment: caller.environment,
      from,
      to,
      accountId,
      format,
      batchSize: EXPORT_BATCH_SIZE,
    };
    if (this.runningExports >= this.maxConcurrentExports) {
      this.options.onExportsFull?.();
      throw ledgerExportsFull(this.maxConcurrentExports);
    }
    this.runningExports++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.runningExports--;
    };
    return {
      request,
      run: async (sink) => {
        try {
          return await this.stores.history.exportEntries(request, sink);
        } finally {
          release();
        }
      },
      release,
    };
  }

  private async addressedAccount(caller: Caller, accountId: string): Promise<Account> {
    const account = isRecordId(accountId)
      ? await this.stores.accounts.findById(caller.environment, accountId.toLowerCase())
      : null;
    if (!account) throw accountNotFound();
    return account;
  }
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

function period(fromText: string, toText: string): { from: Date; to: Date } {
  const from = new Date(fromText);
  const to = new Date(toText);
  if (from.getTime() >= to.getTime())
    throw validationFailed([{ field: 'to', code: 'OUT_OF_RANGE', message: 'Must be later than from.' }]);
  return { from, to };
}

/** The start (UTC) of the interval holding `at`. */
function intervalStart(at: Date, interval: HistoryInterval): Date {
  if (interval === 'hour') return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  if (interval === 'day') return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function nextStart(start: Date, interval: HistoryInterval): Date {
  if (interval === 'hour') return new Date(start.getTime() + HOUR_MS);
  if (interval === 'day') return new Date(start.getTime() + DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/**
 * The end of every interval from the one holding `from` to the one holding the last instant before `to`;
 * VALIDATION_FAILED (TOO_MANY_POINTS) beyond HISTORY_LIMITS.maxPoints, decided before anything is read.
 */
export function intervalEnds(from: Date, to: Date, interval: HistoryInterval): Date[] {
  const ends: Date[] = [];
  for (let start = intervalStart(from, interval); start.getTime() < to.getTime();) {
    start = nextStart(start, interval);
    ends.push(start);
    if (ends.length > HISTORY_LIMITS.maxPoints) {
      throw validationFailed([
        {
          field: 'to',
          code: 'TOO_MANY_POINTS',
          message: `The range holds more than ${HISTORY_LIMITS.maxPoints} intervals; ask for a shorter range or a longer interval.`,
        },
      ]);
    }
  }
  return ends;
}

/**
 * Reg DD Appendix A, Part II: the annual percentage yield earned of a statement period, from the interest earned, the
 * average daily balance and the period's days; null when the average balance is not positive.
 */
function withYieldEarned(interest: StatementInterest): StatementInterest {
  const positive = Number(interest.averageDailyBalance) > 0 && interest.daysInPeriod > 0;
  return {
    ...interest,
    annualPercentageYieldEarned: positive
      ? annualPercentageYieldEarned(interest.interestEarned, interest.averageDailyBalance, interest.daysInPeriod)
      : null,
  };
}
