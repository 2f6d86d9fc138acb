/**
 * The webhooks feature's public face (endpoints, delivery, retries, the URL guard, sealed secrets), for the
 * other features, src/pii (which seals and rotates the secrets), the CLI and the composition root.
 */
export {
  type EndpointWithSecret,
  type SealedSecret,
  secretBinding,
  type WebhookAttempt,
  type WebhookEndpoint,
} from './webhook.js';
export type { SecretSealer, WebhookStore } from './ports.js';
export type { EndpointDisabledBy } from './retry-policy.js';
export { WebhookService, type WebhookServiceOptions } from './webhook.service.js';
export { PrismaWebhookStore } from './webhook.store.js';
export { PrismaSealedWebhookSecretStore } from './sealed-webhook-secret.store.js';
export { presentWebhookAttempts, presentWebhookEndpoint } from './webhook.presenter.js';
export { listWebhookAttemptsQuery, WEBHOOKS_ROUTES } from './webhook.rest.js';
export { webhookResolvers } from './webhook.resolvers.js';
export { startWebhookDelivery, type WebhookSend } from './webhook-delivery.job.js';
export { fairShares } from './webhook-fairness.js';
export { webhookServiceOptions } from './webhook-http.js';
