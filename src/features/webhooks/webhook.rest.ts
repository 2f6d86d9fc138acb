import {
  webhookEndpointDisabled,
  webhookEndpointLimit,
  webhookEndpointNotFound,
  webhookUrlNotAllowed,
} from './webhook.errors.js';
import {
  createWebhookEndpointSchema,
  updateWebhookEndpointSchema,
  webhookAttemptsQuerySchema,
} from './webhook.schemas.js';
import { DEFAULT_MAX_ENDPOINTS_PER_ENVIRONMENT } from './webhook.service.js';
import {
  createdWebhookEndpointDataSchema,
  redeliveryDataSchema,
  rotatedWebhookSecretDataSchema,
  webhookAttemptPageDataSchema,
  webhookEndpointDataSchema,
} from './webhook.presenter.js';
import { DELETED, eventNotFoundFailure, failure, limitValidationFailure } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { Caller } from '../../domain/caller.js';

/** `GET /{environment}/webhook-endpoint/{endpointId}/attempts`: the query string as WebhookService.listAttempts' page. */
export function listWebhookAttemptsQuery(caller: Caller, query: QueryString): { first?: number | undefined } {
  return { first: parseQuery(caller, 'webhooks:read', webhookAttemptsQuerySchema, query).limit };
}

const webhookEndpointNotFoundFailure = failure(
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'No webhook endpoint with this id in this environment.',
  webhookEndpointNotFound(),
);
const webhookUrlRefusal = failure(
  'WEBHOOK_URL_NOT_ALLOWED',
  'The host is, or resolves to, a private, loopback, link-local, multicast or unspecified address.',
  webhookUrlNotAllowed('the host resolves to a loopback address'),
);
const webhookEndpointLimitRefusal = failure(
  'WEBHOOK_ENDPOINT_LIMIT',
  'The environment already has WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT endpoints (16 by default); nothing was created.',
  webhookEndpointLimit(DEFAULT_MAX_ENDPOINTS_PER_ENVIRONMENT),
);
const answersEndpoint = (description: string): RestRoute['success'] => ({
  status: 200,
  description,
  data: webhookEndpointDataSchema,
  component: 'WebhookEndpoint',
});
const SECRET_NO_KEY =
  'Takes no Idempotency-Key: the answer holds the secret, which no stored record may keep in clear; on a lost answer, rotate the secret.';

/** The operations tagged Webhooks, in the order of the reference. */
export const WEBHOOKS_ROUTES = [
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/:environment/webhook-endpoint',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'Not in the contract: the events of this environment numbered from now on are POSTed to `url` as Standard Webhooks requests (headers `webhook-id` (the event id), `webhook-timestamp`, `webhook-signature`; body `{ type, timestamp, data }`, `data` being the event as GET /{environment}/event/{eventId} answers it). ' +
      'Delivery is at least once, retried on failure (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default); first attempts go out in sequence order per endpoint. ' +
      'The URL must be public: private, loopback, link-local and multicast addresses are refused, at registration and at every delivery. ' +
      'Answers the signing secret, this once. ' +
      SECRET_NO_KEY,
    scope: 'webhooks:write',
    withoutIdempotencyKey: SECRET_NO_KEY,
    requestBody: {
      schema: createWebhookEndpointSchema,
      component: 'CreateWebhookEndpointRequest',
      example: { url: 'https://hooks.example.com/cas', eventTypes: ['customer.created', 'transaction.posted'] },
    },
    success: {
      status: 201,
      description: 'Registered. `Location` names the endpoint.',
      data: createdWebhookEndpointDataSchema,
      component: 'CreatedWebhookEndpoint',
    },
    failures: [webhookUrlRefusal, webhookEndpointLimitRefusal],
  },
  {
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: '/:environment/webhook-endpoint/:endpointId',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook endpoint',
    description: 'The endpoint, without its secret, with why it is disabled if it is.',
    scope: 'webhooks:read',
    success: answersEndpoint('The endpoint.'),
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'updateWebhookEndpoint',
    method: 'PUT',
    path: '/:environment/webhook-endpoint/:endpointId',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description: 'Partial update: send `url`, `eventTypes` or both. Deliveries already due go to the new URL.',
    scope: 'webhooks:write',
    requestBody: {
      schema: updateWebhookEndpointSchema,
      component: 'UpdateWebhookEndpointRequest',
      example: { eventTypes: [] },
    },
    success: answersEndpoint('The updated endpoint.'),
    failures: [webhookUrlRefusal, webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/:environment/webhook-endpoint/:endpointId',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description:
      'Deletes the endpoint, its pending deliveries and its attempts; an attempt in flight may still arrive.',
    scope: 'webhooks:write',
    success: DELETED,
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'listWebhookAttempts',
    method: 'GET',
    path: '/:environment/webhook-endpoint/:endpointId/attempts',
    family: 'customer',
    tag: 'Webhooks',
    summary: "List an endpoint's delivery attempts",
    description: `The latest attempts, newest first (\`limit\` 1–100, default 20): status, latency and a short error. Kept as long as their event (EVENT_RETENTION_DAYS).`,
    scope: 'webhooks:read',
    query: { schema: webhookAttemptsQuerySchema, example: { limit: '20' } },
    success: {
      status: 200,
      description: 'The attempts.',
      data: webhookAttemptPageDataSchema,
      component: 'WebhookAttemptPage',
    },
    failures: [limitValidationFailure(webhookAttemptsQuerySchema), webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/rotate-secret',
    family: 'customer',
    tag: 'Webhooks',
    summary: "Rotate an endpoint's signing secret",
    description:
      'Answers a new secret, this once. Until `previousSecretExpiresAt` (WEBHOOKS_SECRET_OVERLAP_S, default 24 h) every delivery carries two signatures, one per secret, so a receiver verifies with either while it switches. ' +
      'Rotating again within the overlap drops the oldest secret at once. No body. ' +
      SECRET_NO_KEY,
    scope: 'webhooks:write',
    withoutIdempotencyKey: SECRET_NO_KEY,
    success: {
      status: 200,
      description: 'The new secret.',
      data: rotatedWebhookSecretDataSchema,
      component: 'RotatedWebhookSecret',
    },
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'enableWebhookEndpoint',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/enable',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Enable a webhook endpoint',
    description:
      'Delivers again: forgets the failures, and retries waiting for a later time are due at once. Events numbered while it was disabled are not sent (read them with GET /{environment}/event, or redeliver one). Enabling an enabled endpoint changes nothing. No body.',
    scope: 'webhooks:write',
    naturallyIdempotent: true,
    success: answersEndpoint('The endpoint.'),
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'disableWebhookEndpoint',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/disable',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Disable a webhook endpoint',
    description:
      'Stops deliveries (an attempt in flight still completes). The service disables an endpoint by itself on a 410 Gone answer, or after failing for a whole retry window. No body.',
    scope: 'webhooks:write',
    naturallyIdempotent: true,
    success: answersEndpoint('The endpoint.'),
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/delivery/:eventId/redeliver',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Redeliver an event',
    description:
      'Sends the event to the endpoint again (or for the first time: an event of before its creation, of the disabled period or of a type it does not take), as soon as a dispatcher is free, with the same `webhook-id`; a failure is retried on what remains of the schedule. No body.',
    scope: 'webhooks:write',
    naturallyIdempotent: true,
    success: { status: 200, description: 'Scheduled.', data: redeliveryDataSchema, component: 'Redelivery' },
    failures: [
      webhookEndpointNotFoundFailure,
      eventNotFoundFailure,
      failure('WEBHOOK_ENDPOINT_DISABLED', 'The endpoint is disabled; enable it first.', webhookEndpointDisabled()),
    ],
  },
] as const satisfies readonly RestRoute[];
