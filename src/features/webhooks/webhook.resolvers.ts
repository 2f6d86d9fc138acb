import { isDomainError } from '../../domain/errors.js';
import type { Resolvers } from '../../graphql/generated/resolvers-types.js';

/**
 * Webhook endpoint management, the REST routes' twins (`/{environment}/webhook-endpoint…`): the same
 * WebhookService methods, so the same scopes (`webhooks:read`, `webhooks:write`), validation and error
 * codes. Inputs reach the domain untouched. The secret is a field of `WebhookEndpointSecret` only, which
 * only the creation and the rotation answer.
 */
export const webhookResolvers: Pick<Resolvers, 'Query' | 'Mutation' | 'WebhookEndpoint' | 'WebhookEndpointSecret'> = {
  Query: {
    webhookEndpoints: (_parent, _args, { services, caller }) => services.webhooks.list(caller),
    // null for an unknown id, as `customer`, `account` and `event` answer.
    webhookEndpoint: async (_parent, { endpointId }, { services, caller }) => {
      try {
        return await services.webhooks.get(caller, endpointId);
      } catch (error) {
        if (isDomainError(error) && error.code === 'WEBHOOK_ENDPOINT_NOT_FOUND') return null;
        throw error;
      }
    },
  },

  Mutation: {
    createWebhookEndpoint: (_parent, { input }, { services, caller }) =>
      services.webhooks.create(caller, input as unknown),
    updateWebhookEndpoint: (_parent, { endpointId, input }, { services, caller }) =>
      services.webhooks.update(caller, endpointId, input as unknown),
    deleteWebhookEndpoint: async (_parent, { endpointId }, { services, caller }) => {
      await services.webhooks.delete(caller, endpointId);
      return endpointId;
    },
    enableWebhookEndpoint: (_parent, { endpointId }, { services, caller }) =>
      services.webhooks.setEnabled(caller, endpointId, true),
    disableWebhookEndpoint: (_parent, { endpointId }, { services, caller }) =>
      services.webhooks.setEnabled(caller, endpointId, false),
    rotateWebhookSecret: (_parent, { endpointId }, { services, caller }) =>
      services.webhooks.rotateSecret(caller, endpointId),
    redeliverWebhook: async (_parent, { endpointId, eventId }, { services, caller }) => {
      await services.webhooks.redeliver(caller, endpointId, eventId);
      return { endpointId: endpointId.toLowerCase(), eventId: eventId.toLowerCase() };
    },
  },

  WebhookEndpoint: {
    eventTypes: (endpoint) => [...endpoint.eventTypes],
    // The domain parses the query REST sends (`limit`), so both surfaces share the page rules.
    attempts: (endpoint, { first }, { services, caller }) =>
      services.webhooks.listAttempts(caller, endpoint.endpointId, { first: first ?? undefined }),
  },

  WebhookEndpointSecret: {
    secret: (created) => created.secret,
    endpoint: (created) => created.endpoint,
  },
};
