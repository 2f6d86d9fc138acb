/**
 * When a failed webhook attempt is tried again, and when an endpoint is given up on (docs/adr/0036-webhooks-standard-at-least-once.md):
 * the pure decisions of webhook delivery. The dispatcher (src/features/webhooks/webhook-delivery.job.ts) applies
 * them to each attempt; the store (src/features/webhooks/webhook.store.ts) records the outcome, comparing the
 * endpoint's failure streak with the window in the same statement, on the database's clock.
 */

/** Why an attempt disabled its endpoint: a 410 Gone, or the end of a whole retry window of failures. */
export type EndpointDisabledBy = 'gone' | 'failing_window';

export interface RetryPolicy {
  /**
   * The next attempt's delay after `attemptsBefore + 1` failed attempts; null once the schedule is used up
   * (the delivery is exhausted). A receiver's Retry-After is honoured, capped at the schedule's longest delay
   * (or the scheduled one, if longer).
   */
  retryDelay(attemptsBefore: number, retryAfterMs: number | null): number | null;
  /** An endpoint failing for this long without a success is disabled: the whole schedule. */
  disableAfterMs: number;
}

/** The policy of a retry schedule (WEBHOOKS_RETRY_SCHEDULE): the delay before each retry. */
export function retryPolicy(retryScheduleMs: readonly number[]): RetryPolicy {
  const disableAfterMs = retryScheduleMs.reduce((sum, delay) => sum + delay, 0);
  const maxDelayMs = Math.max(0, ...retryScheduleMs);
  return {
    disableAfterMs,
    retryDelay(attemptsBefore, retryAfterMs) {
      const scheduled = retryScheduleMs[attemptsBefore];
      if (scheduled === undefined) return null;
      return retryAfterMs === null ? scheduled : Math.min(Math.max(retryAfterMs, 0), Math.max(maxDelayMs, scheduled));
    },
  };
}

/** A 410 Gone: the receiver asks never to be called again, and the endpoint is disabled at once. */
export const answeredGone = (statusCode: number | null): boolean => statusCode === 410;

/** Why the endpoint was disabled, when recording the attempt disabled it; null otherwise. */
export const disabledBy = (disabledEndpoint: boolean, gone: boolean): EndpointDisabledBy | null =>
  disabledEndpoint ? (gone ? 'gone' : 'failing_window') : null;
