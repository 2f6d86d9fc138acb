import { z } from 'zod';
import { limitParameter, limitParameterOf, type PageBounds, pageSize } from '../../domain/pagination.js';
import { maxLength } from '../../domain/validation.js';
import { EVENT_TYPES } from './event.js';

export const AFTER_SEQUENCE_RULE = 'Must be a sequence number (a whole number, 0 or more).';
const TYPES_RULE = `Must be a comma-separated list of ${EVENT_TYPES.join(', ')}.`;
const eventTypeList = z
  .array(z.enum(EVENT_TYPES, { error: TYPES_RULE }), { error: 'Must be a list of event types.' })
  .max(200, maxLength(200, 'Must contain at most 200 items.'));

/** Query of `GET /{environment}/event`: after (a sequence), types (comma-separated), limit. */
export const eventQuerySchema = z.strictObject({
  after: z
    .string()
    .regex(/^\d{1,15}$/, AFTER_SEQUENCE_RULE)
    .transform(Number)
    .optional(),
  types: z
    .string()
    .max(1000, maxLength(1000))
    // split and trim are linear; the length bound aborts before them.
    .transform((text) =>
      text
        .split(',')
        .map((type) => type.trim())
        .filter((type) => type !== ''),
    )
    .pipe(eventTypeList)
    .optional(),
  limit: limitParameter.optional(),
});

/** Which events a read (`EventService.find`) or a live follow (`follow`) takes: of these types (absent or empty: every type). */
export const eventFilterSchema = z.strictObject({ types: eventTypeList.optional() });

/** The filter a caller gives `EventService.find` and `follow`: type names, checked against EVENT_TYPES by the service (GraphQL's are strings). */
export interface EventFilter {
  types?: readonly string[] | undefined;
}

/** How many of a record's recent events one read answers: 10 unless asked, at most 50. */
export const RECENT_EVENTS: PageBounds = { default: 10, max: 50 } as const;

/**
 * Query of a record's recent events (`GET /{environment}/customer/{customerId}/event`, `…/account/{accountId}/event`;
 * GraphQL's `recentEvents(first:)` passes the same `limit`): how many, newest first.
 */
export const recentEventsQuerySchema = z.strictObject({
  limit: limitParameterOf(RECENT_EVENTS).optional(),
});

/** GraphQL's `recentEvents(first:)`: as asked, or the default; VALIDATION_FAILED (OUT_OF_RANGE, field `first`) outside 1–RECENT_EVENTS.max (the domain's pageSize). */
export const recentEventsFirst = (first: number | null | undefined): number => pageSize(first, RECENT_EVENTS);
