/** An attempt's time-out in the webhook suites: WEBHOOKS_TIMEOUT_MS's maximum, so only a receiver that never answers reaches it. */
export const ATTEMPT_TIMEOUT_MS = 60_000;

/**
 * The service settings of the webhook suites: events numbered and deliveries claimed within tens of
 * milliseconds, retries after `retryScheduleMs`, and private networks allowed so that the local receiver
 * (receiver.ts) can be an endpoint. An attempt's time-out is the longest allowed: on a busy machine the
 * receiver's answer can take more than a second to come back, and a test that counts on a 410 or a 500 must
 * not see a time-out instead. A test about time-outs sets its own, with a receiver that never answers.
 */
export function fastDeliverySettings(retryScheduleMs: readonly number[]): Record<string, string> {
  return {
    EVENT_SEQUENCER_INTERVAL_MS: '20',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_RETRY_SCHEDULE: retryScheduleMs.map((ms) => `${ms}ms`).join(','),
    WEBHOOKS_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS),
    WEBHOOKS_POLL_INTERVAL_MS: '50',
    WEBHOOKS_SECRET_OVERLAP_S: '3600',
  };
}
