import { z } from 'zod';
import { limitParameter } from '../pagination.js';
import { EVENT_TYPES } from './event.js';

/** Query of `GET /{environment}/event`: after (a sequence), types (comma-separated), limit. */
export const eventQuerySchema = z.strictObject({
  after: z.string().regex(/^\d{1,15}$/, 'Must be a sequence number (a whole number, 0 or more).').transform(Number).optional(),
  types: z
    .string()
    .max(1000)
    .transform((text) => text.split(',').map((type) => type.trim()).filter((type) => type !== ''))
    .pipe(z.array(z.enum(EVENT_TYPES, { error: `Must be a comma-separated list of ${EVENT_TYPES.join(', ')}.` })))
    .optional(),
  limit: limitParameter.optional(),
});

/** What a live follow of the events takes: the same `types` as `GET /{environment}/event`. */
export const eventWatchSchema = eventQuerySchema.pick({ types: true });
