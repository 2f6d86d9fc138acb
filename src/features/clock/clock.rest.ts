import { clockAdvanceTooFar, clockCannotGoBack, clockNotAdjustable } from '../../domain/errors.js';
import type { Caller } from '../../domain/caller.js';
import { failure, validationFailureOf } from '../../rest/operations/failures.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { clockAdvanceDataSchema, clockDataSchema, endOfDayDataSchema } from './clock.presenter.js';
import { clockAdvanceSchema, type EndOfDayRange, endOfDayQuerySchema } from './clock.schemas.js';

/** `GET /{environment}/end-of-day`: the query string as EndOfDayService.list's range. */
export const endOfDayQuery = (caller: Caller, query: QueryString): EndOfDayRange =>
  parseQuery(caller, 'accounts:read', endOfDayQuerySchema, query);

/** The operations tagged Clock, in the order of the reference. */
export const CLOCK_ROUTES = [
  {
    operationId: 'getClock',
    method: 'GET',
    path: '/:environment/clock',
    family: 'customer',
    tag: 'Clock',
    summary: "The environment's clock",
    description:
      "Not in the contract: the environment's time (`now`), which every time-based rule reads (posting times, hold expiry, flag `until`, " +
      'balances and statements by default), its business date in its time zone, and whether POST /{environment}/clock/advance may move it. ' +
      'The real time, except in a sandbox moved forward (docs/clock.md).',
    scope: 'accounts:read',
    success: { status: 200, description: "The environment's clock.", data: clockDataSchema, component: 'Clock' },
    failures: [],
  },
  {
    operationId: 'advanceClock',
    method: 'POST',
    path: '/:environment/clock/advance',
    family: 'customer',
    tag: 'Clock',
    summary: "Move a sandbox's clock forward",
    description:
      "Not in the contract: moves an adjustable environment's time (ADJUSTABLE_CLOCK_ENVIRONMENTS, `sandbox` by default) forward to `to`, or by `days` of 24 hours, " +
      'at most three years a call, and runs every end of day in between, in order (hold expiry, flag lifting, …); answers once they have run. ' +
      'Time keeps flowing from there and never moves back. Audited (`clock.advance`).',
    scope: 'clock:write',
    withoutIdempotencyKey:
      'send `to` to make a retry harmless: a repeated `to` is CLOCK_CANNOT_GO_BACK and changes nothing, and GET /{environment}/clock tells where the clock is',
    requestBody: {
      schema: clockAdvanceSchema,
      component: 'ClockAdvanceRequest',
      example: { days: 30 },
    },
    success: {
      status: 200,
      description: 'The clock moved and the ended business dates closed.',
      data: clockAdvanceDataSchema,
      component: 'ClockAdvance',
    },
    failures: [
      failure(
        'VALIDATION_FAILED',
        'Neither or both of `to` and `days`, `to` not an RFC 3339 instant, `days` not a whole number from 1 to 1096.',
        validationFailureOf(clockAdvanceSchema, { days: 0 }),
      ),
      failure(
        'CLOCK_NOT_ADJUSTABLE',
        'The environment is not in ADJUSTABLE_CLOCK_ENVIRONMENTS: its time is the real time.',
        clockNotAdjustable(),
      ),
      failure('CLOCK_CANNOT_GO_BACK', "`to` is not after the environment's time.", clockCannotGoBack()),
      failure('CLOCK_ADVANCE_TOO_FAR', '`to` is more than three years ahead.', clockAdvanceTooFar()),
    ],
  },
  {
    operationId: 'listEndOfDay',
    method: 'GET',
    path: '/:environment/end-of-day',
    family: 'customer',
    tag: 'Clock',
    summary: 'The end of day of a range of business dates',
    description:
      'Not in the contract: for each business date in [`from`, `to`] (YYYY-MM-DD; absent: `to` today, `from` 30 dates before) that has a run, ' +
      'its status, attempts and timings, and each step in order with the records it changed, its timings and its last failure. At most 366 dates.',
    scope: 'accounts:read',
    query: { schema: endOfDayQuerySchema, example: { from: '2026-12-01', to: '2026-12-31' } },
    success: {
      status: 200,
      description: 'The runs, oldest first.',
      data: endOfDayDataSchema,
      component: 'EndOfDay',
    },
    failures: [
      failure(
        'VALIDATION_FAILED',
        'A date is not YYYY-MM-DD, `from` is after `to`, more than 366 dates, or an unknown parameter.',
        validationFailureOf(endOfDayQuerySchema, { from: 'yesterday' }),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
