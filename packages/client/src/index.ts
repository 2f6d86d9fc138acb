export {
  CONSISTENCY_TOKEN_HEADER,
  createClient,
  type CasClient,
  type ClientOptions,
  type GraphqlOptions,
  type TypedDocument,
} from './client.js';
export { CasApiError, CasGraphqlError, unwrap, type ErrorDetail } from './errors.js';
export { API_VERSION } from './generated/operations.js';
export type { components, operations, paths } from './generated/rest.js';
export type { ListInit, ListItem, ListPath } from './pages.js';
export type { RetryOptions } from './retry.js';
export { verifyWebhook, type CasEvent, type CasEventType, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
