import { z } from 'zod';
import type { ClockAdvance, EnvironmentClockReading } from './clock.js';
import type { EndOfDayRun } from './end-of-day.js';

/**
 * What leaves the service about an environment's clock and its end of day: the response schemas (the OpenAPI
 * document is generated from them; strict objects) and the presenters mapping the domain's values onto them.
 */

const instant = (description: string) => z.iso.datetime({ offset: true }).describe(description);
const date = (description: string) => z.iso.date().describe(description);
const status = z.enum(['RUNNING', 'COMPLETED', 'FAILED']);

export const clockDataSchema = z
  .strictObject({
    now: instant("The environment's time, ISO 8601 UTC: the real time, or ahead of it in a sandbox moved forward."),
    businessDate: date("The environment's local date at `now` (YYYY-MM-DD), in `timeZone`."),
    timeZone: z
      .string()
      .describe('The IANA time zone of the business dates and the end of day (ENVIRONMENT_TIME_ZONES).'),
    adjustable: z.boolean().describe('May POST /{environment}/clock/advance move it (ADJUSTABLE_CLOCK_ENVIRONMENTS)?'),
  })
  .describe("An environment's clock.");

export const clockAdvanceDataSchema = z
  .strictObject({
    from: instant("The environment's time before the advance."),
    to: instant("The environment's time after it."),
    businessDaysRun: z
      .number()
      .int()
      .describe(
        'The business dates the advance ended (from the one `from` is in to the one before `to`), each closed by its end of day.',
      ),
  })
  .describe('What an advance did.');

const endOfDayStepDataSchema = z.strictObject({
  step: z.string().describe('The step, e.g. hold-expiry, flag-expiry.'),
  status,
  records: z.number().int().describe('Records the step changed this day (holds voided, flags lifted).'),
  attempts: z.number().int().describe('Times the step was started: more than 1 after a failure or a crash.'),
  startedAt: instant('When its last attempt started (real time).'),
  finishedAt: instant('When it completed or failed (real time); null while running.').nullable(),
  error: z
    .string()
    .nullable()
    .describe("The last attempt's failure (a code and message, never a record's values); null once completed."),
});

export const endOfDayDataSchema = z
  .strictObject({
    from: date('The first business date listed.'),
    to: date('The last business date listed.'),
    days: z
      .array(
        z.strictObject({
          businessDate: date('The business date closed.'),
          status,
          attempts: z.number().int().describe('Times the day was started.'),
          startedAt: instant('When the first attempt started (real time).'),
          finishedAt: instant('When it completed or failed (real time); null while running.').nullable(),
          steps: z.array(endOfDayStepDataSchema).describe('In the order they run.'),
        }),
      )
      .describe('The business dates that have a run, oldest first.'),
  })
  .describe('The end of day of a range of business dates.');

export type ClockData = z.infer<typeof clockDataSchema>;
export type ClockAdvanceData = z.infer<typeof clockAdvanceDataSchema>;
export type EndOfDayData = z.infer<typeof endOfDayDataSchema>;

export const presentClock = (clock: EnvironmentClockReading): ClockData => ({
  now: clock.now.toISOString(),
  businessDate: clock.businessDate,
  timeZone: clock.timeZone,
  adjustable: clock.adjustable,
});

export const presentClockAdvance = (advance: ClockAdvance): ClockAdvanceData => ({
  from: advance.from.toISOString(),
  to: advance.to.toISOString(),
  businessDaysRun: advance.businessDaysRun,
});

export const presentEndOfDay = (range: { from: string; to: string; runs: EndOfDayRun[] }): EndOfDayData => ({
  from: range.from,
  to: range.to,
  days: range.runs.map((run) => ({
    businessDate: run.businessDate,
    status: run.status,
    attempts: run.attempts,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    steps: run.steps.map((step) => ({
      step: step.step,
      status: step.status,
      records: step.records,
      attempts: step.attempts,
      startedAt: step.startedAt.toISOString(),
      finishedAt: step.finishedAt?.toISOString() ?? null,
      error: step.error,
    })),
  })),
});
