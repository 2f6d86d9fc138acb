/**
 * The end of day (docs/adr/0102): per environment and business date, an ordered list of steps, each run until
 * it finds nothing left to do, recorded with its count, timings and failure. A step is given by the feature that
 * owns its records (hold expiry by the ledger, flag lifting by the accounts) and must be idempotent per record:
 * its change is conditional (it finds the record still due, or leaves it) and is written with an audit event whose
 * request id is the day's and step's (`endOfDayRequestId`), which a unique index allows once per record. So a
 * day resumed after a crash, or run by two instances at once, changes nothing twice, and its count is read back
 * from the audit trail exactly.
 */
export interface EndOfDayStep {
  /** Stable, kebab-case: the step's key in the record and in its request id. */
  readonly name: string;
  /**
   * One batch of the day's work: the records due by `cutoff` (the end of the business date, in the environment's
   * time), each changed by its own statement audited with `requestId`. Answers how many it changed; 0 ends the step.
   * A step that handles its records in key order answers the last key too, and its next batch is given it as `after`.
   */
  runBatch(day: EndOfDayContext): Promise<number | EndOfDayBatch>;
}

/**
 * A batch that handled its records in key order: the next one starts after `after` instead of at the first key, so
 * that a day's batches read each record once (a step that searched from the first key again each batch read, over
 * the day, its records times the number of batches: quadratic in the records).
 */
export interface EndOfDayBatch {
  changed: number;
  after: string;
}

export interface EndOfDayContext {
  environment: string;
  /** YYYY-MM-DD in the environment's time zone. */
  businessDate: string;
  /** The instant the business date ends (the environment's time): what is due at or before it is the day's. */
  cutoff: Date;
  /**
   * The request id of every audit event the step writes this day: `end-of-day:<date>:<step>`, or that followed by
   * `:<part>` where one record is changed once per part (an account once per flag); counted either way.
   */
  requestId: string;
  /**
   * The last key the step's previous batch of this run handled (EndOfDayBatch); absent for its first batch, a resumed
   * step's included: what a crash left undone is found from the first key again.
   */
  after?: string;
}

export const endOfDayRequestId = (businessDate: string, step: string) => `end-of-day:${businessDate}:${step}`;

export type EndOfDayStatus = 'RUNNING' | 'COMPLETED' | 'FAILED';

/** One day's run as recorded, for GET /{environment}/end-of-day. Times are real (the machine's), as timings are. */
export interface EndOfDayRun {
  businessDate: string;
  status: EndOfDayStatus;
  attempts: number;
  startedAt: Date;
  finishedAt: Date | null;
  steps: EndOfDayStepRecord[];
}

export interface EndOfDayStepRecord {
  step: string;
  position: number;
  status: EndOfDayStatus;
  /** Records the step changed this day, read from the audit trail. */
  records: number;
  attempts: number;
  startedAt: Date;
  finishedAt: Date | null;
  /** The last failure's message (never a value of a record), null once it succeeded. */
  error: string | null;
}
