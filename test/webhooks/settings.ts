/**
 * The service settings of the webhook suites: events numbered and deliveries claimed within tens of
 * milliseconds, retries after `retryScheduleMs`, and private networks allowed so that the local receiver
 * (receiver.ts) can be an endpoint.
 */
export function fastDeliverySettings(retryScheduleMs: readonly number[]): Record<string, string> {
  return {
    EVENT_SEQUENCER_INTERVAL_MS: '20',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_RETRY_SCHEDULE: retryScheduleMs.map((ms) => `${ms}ms`).join(','),
    WEBHOOKS_TIMEOUT_MS: '1000', // a receiver on this machine answers well within it, also under load
    WEBHOOKS_POLL_INTERVAL_MS: '50',
    WEBHOOKS_SECRET_OVERLAP_S: '3600',
  };
}
