import { z } from 'zod';
import { validationFailed } from '../../domain/errors.js';
import { limitParameter } from '../../domain/pagination.js';
import { maxLength } from '../../domain/validation.js';
import { EVENT_TYPES } from './event.js';

/** Query of `GET /{environment}/event`: after (a sequence), types (comma-separated), limit. */
export const eventQuerySchema = z.strictObject({
  after: z.string().regex(/^\d{1,15}$/, 'Must be a sequence number (a whole number, 0 or more).').transform(Number).optional(),
  types: z
    .string()
    .max(1000, maxLength(1000))
    // split and trim are linear; the length bound aborts before them.
    .transform((text) => text.split(',').map((type) => type.trim()).filter((type) => type !== ''))
    .pipe(z.array(z.enum(EVENT_TYPES, { error: `Must be a comma-separated list of ${EVENT_TYPES.join(', ')}.` })))
    .optional(),
  limit: limitParameter.optional(),
});

/** What a live follow of the events takes: the same `types` as `GET /{environment}/event`. */
export const eventWatchSchema = eventQuerySchema.pick({ types: true });

/** How many of a record's recent events one read answers: 10 unless asked, at most 50. */
export const RECENT_EVENTS = { default: 10, max: 50 } as const;

/**
 * Query of a record's recent events (`GET /{environment}/customer/{customerId}/event`, `…/account/{accountId}/event`;
 * GraphQL's `recentEvents(first:)` passes the same `limit`): how many, newest first.
 */
export const recentEventsQuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `Must be a whole number between 1 and ${RECENT_EVENTS.max}.`)
    .transform(Number)
    .refine((limit) => limit >= 1 && limit <= RECENT_EVENTS.max, `Must be a whole number between 1 and ${RECENT_EVENTS.max}.`)
    .optional(),
});

/** GraphQL's `recentEvents(first:)`: as asked, or the default; VALIDATION_FAILED (OUT_OF_RANGE, field `first`) outside 1–RECENT_EVENTS.max. */
export function recentEventsFirst(first: number | null | undefined): number {
  const size = first ?? RECENT_EVENTS.default;
  if (!Number.isInteger(size) || size < 1 || size > RECENT_EVENTS.max) {
    throw validationFailed([{ field: 'first', code: 'OUT_OF_RANGE', message: `Must be between 1 and ${RECENT_EVENTS.max}.` }]);
  }
  return size;
}
