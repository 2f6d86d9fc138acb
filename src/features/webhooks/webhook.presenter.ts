import { z } from 'zod';
import { EVENT_TYPES } from '../events/index.js';
import type { WebhookAttempt, WebhookEndpoint } from './webhook.js';
import { recordId } from '../../presenters/record-id.js';

/**
 * What leaves the service for webhook endpoints and their delivery attempts: the response schemas (the OpenAPI document is generated
 * from them; strict objects) and the presenters mapping domain values onto them field by field, so a field added to
 * the domain never reaches a client by accident. Shared by REST (inside its envelope), webhook delivery and the CLI.
 */

const webhookSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
  .describe(
    'The signing secret, `whsec_` and base64: shown only in this answer, store it now. Verify deliveries with any Standard Webhooks library.',
  );
const webhookEventTypes = z.array(z.enum(EVENT_TYPES)).describe('The event types delivered; empty: every type.');

export const webhookEndpointDataSchema = z
  .strictObject({
    endpointId: recordId,
    url: z.string().describe('Where the events are POSTed.'),
    eventTypes: webhookEventTypes,
    enabled: z
      .boolean()
      .describe(
        'False: nothing is delivered (events of the disabled period are not sent later; read them with GET /{environment}/event).',
      ),
    disabledReason: z
      .string()
      .nullable()
      .describe(
        'Why it is disabled: by a client, a 410 Gone answer, or failures for a whole retry window; null while enabled.',
      ),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    failingSince: z.iso.datetime().nullable().describe('Since when every attempt failed; null after a success.'),
    previousSecretExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe(
        'Until when deliveries also carry a signature with the secret before the last rotation; null when none.',
      ),
  })
  .describe('A webhook endpoint. Its signing secret is never answered after its creation or rotation.');

export const createdWebhookEndpointDataSchema = z
  .strictObject({
    endpointId: recordId,
    url: z.string(),
    eventTypes: webhookEventTypes,
    secret: webhookSecret,
    enabled: z.boolean(),
  })
  .describe('The new endpoint and its signing secret, shown this once.');

export const rotatedWebhookSecretDataSchema = z
  .strictObject({
    endpointId: recordId,
    secret: webhookSecret,
    previousSecretExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe('Until then deliveries carry signatures with both secrets (null when WEBHOOKS_SECRET_OVERLAP_S is 0).'),
  })
  .describe('The new signing secret, shown this once.');

export const webhookAttemptPageDataSchema = z
  .strictObject({
    attempts: z
      .array(
        z.strictObject({
          attemptId: recordId,
          eventId: recordId,
          attemptedAt: z.iso.datetime(),
          statusCode: z
            .number()
            .int()
            .nullable()
            .describe(
              "The receiver's HTTP status; null when no answer came (time-out, refused address, connection error).",
            ),
          latencyMs: z.number().int(),
          succeeded: z.boolean().describe('A 2xx answer.'),
          error: z
            .string()
            .max(200)
            .nullable()
            .describe(
              "What went wrong, at most 200 characters: never more of the receiver's answer than a short excerpt.",
            ),
        }),
      )
      .describe('Newest first.'),
  })
  .describe("The endpoint's latest delivery attempts.");

export const redeliveryDataSchema = z
  .strictObject({ endpointId: recordId, eventId: recordId })
  .describe('The event is due for the endpoint now; the attempt follows within a moment.');

export type WebhookEndpointData = z.infer<typeof webhookEndpointDataSchema>;
export type WebhookAttemptPageData = z.infer<typeof webhookAttemptPageDataSchema>;

/** Never the secret: it is answered only by the creation and the rotation, by their own handlers. */
export const presentWebhookEndpoint = (endpoint: WebhookEndpoint): WebhookEndpointData => ({
  endpointId: endpoint.endpointId,
  url: endpoint.url,
  eventTypes: [...endpoint.eventTypes],
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason,
  createdAt: endpoint.createdAt,
  updatedAt: endpoint.updatedAt,
  failingSince: endpoint.failingSince,
  previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
});

export const presentWebhookAttempts = (attempts: WebhookAttempt[]): WebhookAttemptPageData => ({
  attempts: attempts.map((attempt) => ({
    attemptId: attempt.attemptId,
    eventId: attempt.eventId,
    attemptedAt: attempt.attemptedAt,
    statusCode: attempt.statusCode,
    latencyMs: attempt.latencyMs,
    succeeded: attempt.succeeded,
    error: attempt.error,
  })),
});
