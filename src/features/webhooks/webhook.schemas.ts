import { z } from 'zod';
import { EVENT_TYPES } from '../events/index.js';
import { limitParameter } from '../../domain/pagination.js';
import { isWellFormedText, list, maxLength } from '../../domain/validation.js';
import { WEBHOOK_LIMITS } from './webhook.js';

/** An absolute http(s) URL without credentials or fragment; where it points is checked by the URL guard. */
export const webhookUrlSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
  .trim()
  .min(1, { message: 'Must not be empty.', abort: true })
  .max(WEBHOOK_LIMITS.url, maxLength(WEBHOOK_LIMITS.url))
  .refine(isWellFormedText, { message: 'Must be an absolute http or https URL.', abort: true })
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !/[\s]/.test(value);
    } catch {
      return false;
    }
  }, 'Must be an absolute http or https URL.')
  .refine(
    (value) => URL.canParse(value) && new URL(value).username === '' && new URL(value).password === '',
    'Must not contain a user name or password.',
  )
  .refine((value) => !value.includes('#'), 'Must not contain a fragment (#).');

const eventTypesSchema = list(
  z.enum(EVENT_TYPES, { error: `Must be one of ${EVENT_TYPES.join(', ')}.` }),
  WEBHOOK_LIMITS.eventTypes,
).transform((types) => [...new Set(types)]);

export const createWebhookEndpointSchema = z.strictObject({
  url: webhookUrlSchema.describe(
    'Where the events are POSTed: a public http(s) URL (https only in production) on an allowed port (WEBHOOKS_ALLOWED_PORTS, default 443, 80, 8443).',
  ),
  eventTypes: eventTypesSchema.optional().describe('The event types to deliver; empty or absent: every type.'),
});

export const UPDATABLE_WEBHOOK_FIELDS = ['url', 'eventTypes'] as const;

export const updateWebhookEndpointSchema = z
  .strictObject({
    url: webhookUrlSchema.optional(),
    eventTypes: eventTypesSchema.optional(),
  })
  .refine((input) => input.url !== undefined || input.eventTypes !== undefined, {
    message: `Send at least one field to change: ${UPDATABLE_WEBHOOK_FIELDS.join(', ')}.`,
  });

/** Query of `GET …/webhook-endpoint/{endpointId}/attempts`. */
export const webhookAttemptsQuerySchema = z.strictObject({
  limit: limitParameter.optional(),
});
