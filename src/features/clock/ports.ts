import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { EndOfDayRun } from './end-of-day.js';

/** What an advance wrote: the environment's time before, or that it was already at or past the target. */
export type ClockMove = { outcome: 'advanced'; from: Date } | { outcome: 'not-forward'; now: Date };

/** The environment clocks' storage (environment_clocks; its SQL half is env_now(environment)). */
export interface ClockStore {
  /** The environment's time now, as the database's statements see it (env_now). */
  now(environment: string): Promise<Date>;
  /** Moves the environment's time forward to `to` with its audit event, one statement; never back. */
  advance(environment: string, to: Date, audit: NewAuditEvent): Promise<ClockMove>;
}

/** The claim on a day's run an instance asked for. */
export type EndOfDayClaim = 'claimed' | 'completed' | 'busy';

/** The end of day's record (end_of_day_runs, end_of_day_steps) and the lease that lets one instance run a day. */
export interface EndOfDayStore {
  /**
   * Takes the day's run for `owner` for `leaseMs` (creating it RUNNING): 'completed' when it already is,
   * 'busy' while another owner's lease holds.
   */
  claim(environment: string, businessDate: string, owner: string, leaseMs: number): Promise<EndOfDayClaim>;
  /** Extends the owner's lease; false once another owner has taken the day over (then the owner stops). */
  renew(environment: string, businessDate: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Starts (or resumes) a step; false when it completed before. */
  startStep(environment: string, businessDate: string, step: string, position: number): Promise<boolean>;
  /** The step completed, with the records it changed this day (counted by `requestId` in the audit trail). */
  completeStep(environment: string, businessDate: string, step: string, requestId: string): Promise<void>;
  /**
   * The step, and so the day, failed: recorded with `error` and the records it changed (by `requestId`), and the
   * owner's lease released so that the next attempt may start at once (an owner taken over changes only the step).
   */
  failStep(
    environment: string,
    businessDate: string,
    step: string,
    failure: { error: string; requestId: string; owner: string },
  ): Promise<void>;
  /** Every step done: the day is COMPLETED and its lease released. */
  complete(environment: string, businessDate: string, owner: string): Promise<void>;
  /**
   * Where the environment's record stands: the latest business date whose run completed (null before the first), and
   * the earliest date that has a run at all (null when none has: then no day was ever started).
   */
  progress(environment: string): Promise<{ lastCompleted: string | null; earliest: string | null }>;
  /** The runs of the business dates [from, to], oldest first, with their steps in order. */
  list(environment: string, from: string, to: string): Promise<EndOfDayRun[]>;
}
