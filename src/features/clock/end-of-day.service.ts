import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import type { EnvironmentTime } from '../../domain/environment-clock.js';
import { isDomainError, validationFailed } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import { businessDateOf, daysBetween, endOfDate, nextDate, previousDate } from './clock.js';
import { type EndOfDayRange, endOfDayQuerySchema, MAX_END_OF_DAY_DATES } from './clock.schemas.js';
import { type EndOfDayContext, type EndOfDayRun, type EndOfDayStep, endOfDayRequestId } from './end-of-day.js';
import type { EndOfDayStore } from './ports.js';

export interface EndOfDaySettings {
  /** Each configured environment's IANA time zone. */
  timeZones: Readonly<Record<string, string>>;
  /** How long a claim on a day lasts without renewal (END_OF_DAY_LEASE_MS); renewed after every batch. */
  leaseMs: number;
  /** How often a caller that waits for another instance's day looks again. */
  pollMs?: number;
}

/** What one pass over an environment's due days did. */
export interface EndOfDayPass {
  /** The business dates this pass ran (or finished), in order. */
  ran: string[];
  /** The latest business date completed, by anyone, when the pass ended; null before the first. */
  completedThrough: string | null;
  /** The business date whose run failed (the pass stops there: later days wait for it), or null. */
  failed: string | null;
}

type DayOutcome = 'ran' | 'completed' | 'busy' | 'failed';

/** A failure as recorded and answered: a domain error's code and message (which never hold values), else its kind. */
const describeFailure = (error: unknown): string =>
  isDomainError(error) ? `${error.code}: ${error.message}` : 'UNEXPECTED_ERROR: see the service log at that time';

/**
 * The end of day (docs/adr/0102): closes each ended business date of an environment, in order, exactly once. One
 * instance at a time runs a day (a lease on its row, renewed after every batch, taken over once it has run out:
 * the instance died), and each step is idempotent per record (end-of-day.ts), so a day resumed after a crash, or
 * raced by a second instance, changes nothing twice.
 */
export class EndOfDayService {
  constructor(
    private readonly stores: { endOfDay: EndOfDayStore },
    private readonly clock: EnvironmentTime,
    private readonly settings: EndOfDaySettings,
    private readonly steps: readonly EndOfDayStep[],
    private readonly onFailure: (
      environment: string,
      businessDate: string,
      step: string,
      error: unknown,
    ) => void = () => {},
  ) {}

  private timeZoneOf(environment: string): string {
    return this.settings.timeZones[environment] ?? 'America/New_York';
  }

  /**
   * Runs every ended business date of the environment not completed yet, oldest first: from the day after the last
   * completed one (before any completed: from the first day ever started, a first day interrupted; before any run
   * at all: from `since`, else yesterday) to yesterday, by the environment's clock. Stops at a failed day, and at a
   * day another instance runs unless `waitForOthers` (then it waits for it).
   */
  async runDue(environment: string, options: { since?: string; waitForOthers?: boolean } = {}): Promise<EndOfDayPass> {
    const timeZone = this.timeZoneOf(environment);
    const today = businessDateOf(await this.clock.now(environment), timeZone);
    const progress = await this.stores.endOfDay.progress(environment);
    let completedThrough = progress.lastCompleted;
    let date =
      completedThrough !== null
        ? nextDate(completedThrough)
        : (progress.earliest ?? options.since ?? previousDate(today));
    const ran: string[] = [];
    for (; date < today; date = nextDate(date)) {
      const outcome = await this.runDay(environment, date, options.waitForOthers === true);
      if (outcome === 'failed') return { ran, completedThrough, failed: date };
      if (outcome === 'busy') break;
      if (outcome === 'ran') ran.push(date);
      completedThrough = date;
    }
    return { ran, completedThrough, failed: null };
  }

  /** One business date's run: claimed, each step resumed where it stopped, completed. */
  private async runDay(environment: string, businessDate: string, waitForOthers: boolean): Promise<DayOutcome> {
    const owner = randomUUID();
    const { leaseMs } = this.settings;
    for (;;) {
      const claim = await this.stores.endOfDay.claim(environment, businessDate, owner, leaseMs);
      if (claim === 'completed') return 'completed';
      if (claim === 'claimed') break;
      if (!waitForOthers) return 'busy';
      await sleep(this.settings.pollMs ?? 100);
    }
    const cutoff = endOfDate(businessDate, this.timeZoneOf(environment));
    for (const [position, step] of this.steps.entries()) {
      if (!(await this.stores.endOfDay.startStep(environment, businessDate, step.name, position))) continue;
      const requestId = endOfDayRequestId(businessDate, step.name);
      let context: EndOfDayContext = { environment, businessDate, cutoff, requestId };
      try {
        for (;;) {
          const batch = await step.runBatch(context);
          if ((typeof batch === 'number' ? batch : batch.changed) === 0) break;
          // Taken over (this instance was too slow to renew): the new owner finishes the day.
          if (!(await this.stores.endOfDay.renew(environment, businessDate, owner, leaseMs))) return 'busy';
          if (typeof batch !== 'number') context = { ...context, after: batch.after };
        }
        await this.stores.endOfDay.completeStep(environment, businessDate, step.name, requestId);
      } catch (error) {
        this.onFailure(environment, businessDate, step.name, error);
        await this.stores.endOfDay.failStep(environment, businessDate, step.name, {
          error: describeFailure(error),
          requestId,
          owner,
        });
        return 'failed';
      }
    }
    await this.stores.endOfDay.complete(environment, businessDate, owner);
    return 'ran';
  }

  /**
   * `GET /{environment}/end-of-day`: the runs of the business dates [from, to] (absent: `to` today, `from` 30 dates before `to`), with
   * their steps, counts, timings and failures. Needs `accounts:read`; VALIDATION_FAILED beyond 366 dates.
   */
  async list(caller: Caller, range: EndOfDayRange = {}): Promise<{ from: string; to: string; runs: EndOfDayRun[] }> {
    authorize(caller, 'accounts:read');
    const valid = parseInput(endOfDayQuerySchema, range);
    const today = businessDateOf(await this.clock.now(caller.environment), this.timeZoneOf(caller.environment));
    const to = valid.to ?? today;
    let from = valid.from ?? to;
    if (valid.from === undefined) for (let back = 0; back < 30; back++) from = previousDate(from);
    if (daysBetween(from, to) >= MAX_END_OF_DAY_DATES)
      throw validationFailed([
        { field: 'to', code: 'OUT_OF_RANGE', message: `At most ${MAX_END_OF_DAY_DATES} dates at a time.` },
      ]);
    return { from, to, runs: await this.stores.endOfDay.list(caller.environment, from, to) };
  }
}
