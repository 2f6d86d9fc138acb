import { DomainError } from '../../domain/errors.js';

/** The webhooks' refusals, with stable codes (listed in src/domain/errors.ts, ErrorCodes). */

export const webhookEndpointNotFound = () =>
  new DomainError(
    'WEBHOOK_ENDPOINT_NOT_FOUND',
    'not_found',
    'No webhook endpoint with this id exists in this environment.',
  );

/** The URL is not http(s), or its host is (or resolves to) an address webhooks may not reach. */
export const webhookUrlNotAllowed = (reason: string) =>
  new DomainError('WEBHOOK_URL_NOT_ALLOWED', 'invalid_input', `Webhooks cannot be sent to this URL: ${reason}.`, [
    { field: 'url', code: 'WEBHOOK_URL_NOT_ALLOWED', message: `Must be a public http(s) URL: ${reason}.` },
  ]);

export const webhookEndpointDisabled = () =>
  new DomainError('WEBHOOK_ENDPOINT_DISABLED', 'conflict', 'The webhook endpoint is disabled; enable it first.');

/** The environment has its maximum of endpoints (WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT); nothing was created. */
export const webhookEndpointLimit = (limit: number) =>
  new DomainError(
    'WEBHOOK_ENDPOINT_LIMIT',
    'conflict',
    `This environment already has the most webhook endpoints it may have (${limit}); delete one first, or take several event types on one endpoint.`,
  );
