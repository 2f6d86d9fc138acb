import type { AccessScope } from '../../domain/caller.js';
import { type DomainEvent, eventAsSeenWith, presentEvent } from '../events/index.js';
import type { ClaimedDelivery, RecordedAttempt, SecretSealer, WebhookStore } from './ports.js';
import { answeredGone, disabledBy, type EndpointDisabledBy, retryPolicy } from './retry-policy.js';
import { secretBinding } from './webhook.js';
import type { Logger } from '../../logging/logger.js';
import { startWakeableJob } from '../../jobs/interval-job.js';
import { fairShares, InFlightCounts } from './webhook-fairness.js';
import {
  type SendFailure,
  type SendOptions,
  sendWebhook,
  type SendResult,
  signatureOf,
  type UrlPolicy,
} from './webhook-http.js';

/** One finished attempt, for metrics (src/http/metrics.ts): what happened, never to which endpoint. */
export interface AttemptReport {
  /** The receiver's status; null when no answer came (then `failure` says why). */
  statusCode: number | null;
  failure: SendFailure | null;
  /** The delivery's first attempt (a retry or a redelivery otherwise). */
  firstAttempt: boolean;
  latencyMs: number;
  /** From the event's commit to this attempt's success, when it is the delivery's first success; else null. */
  deliveredAfterMs: number | null;
  /** This attempt disabled its endpoint: a 410 Gone, or the end of a whole retry window of failures. */
  disabledEndpoint: EndpointDisabledBy | null;
}

export interface WebhookDeliveryOptions {
  /** One attempt's time-out, connection to the last byte read (WEBHOOKS_TIMEOUT_MS). */
  timeoutMs: number;
  /** The delay before each retry; once used up, the delivery is exhausted (WEBHOOKS_RETRY_SCHEDULE). */
  retryScheduleMs: readonly number[];
  /** How retries falling due are found, and other instances' work while the listener is down (WEBHOOKS_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** Attempts in flight at once on this instance (WEBHOOKS_CONCURRENCY). */
  concurrency: number;
  /** Each environment's and endpoint's share of `concurrency` (webhook-fairness.ts); by default, one environment's. */
  shares?: { perEnvironment: number; perEndpoint: number };
  /** Tests only: receivers on 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE_NETWORKS; refused in production). */
  allowPrivateNetworks: boolean;
  /** The URL rules of registration, checked again at every attempt (WEBHOOKS_ALLOWED_PORTS, https in production). */
  allowedPorts?: UrlPolicy['allowedPorts'];
  requireHttps?: boolean;
  /** Told about every finished attempt (the delivery metrics). */
  onAttempt?: (report: AttemptReport) => void;
}

/** One attempt's request (sendWebhook); replaceable for tests (StartOptions.webhookSend). */
export type WebhookSend = (
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
) => Promise<SendResult>;

const FAN_OUT_BATCH = 500;
/** A claim outlives the attempt's time-out by this much before another dispatcher may take the delivery over. */
const LEASE_MARGIN_MS = 10_000;

/**
 * The Standard Webhooks body: the event as `GET /{environment}/event/{eventId}` answers it to a token with the
 * endpoint's read scopes (what its registrant could read: ADR 2), never an SSN.
 */
export const webhookBody = (event: DomainEvent, readScopes: readonly AccessScope[]): string => {
  const shown = eventAsSeenWith(event, readScopes);
  return JSON.stringify({ type: shown.type, timestamp: shown.occurredAt, data: presentEvent(shown) });
};

/**
 * Webhook delivery on every instance (docs/adr/0036-webhooks-standard-at-least-once.md): the fan-out turns newly numbered
 * events into deliveries (one instance at a time, advisory lock), the dispatcher claims due deliveries
 * with FOR UPDATE SKIP LOCKED (so instances share the work and an event goes to an endpoint once between
 * them) and makes one attempt each. Woken by `wake()` (this instance's sequencer numbered events, an attempt
 * finished, any instance's fan-out or redelivery made deliveries due: the composition root subscribes it to the
 * WakeUps port) and every `pollIntervalMs` (the fallback). A failure (the database away) waits for the next
 * wake; claimed deliveries whose outcome could not be recorded are due again when their lease ends.
 */
export function startWebhookDelivery(
  store: WebhookStore,
  sealer: SecretSealer,
  options: WebhookDeliveryOptions,
  logger: Logger,
  send: WebhookSend = sendWebhook,
): { wake: () => void; stop: () => Promise<void> } {
  const { retryDelay, disableAfterMs } = retryPolicy(options.retryScheduleMs);
  const leaseMs = options.timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Set<Promise<void>>();
  const counts = new InFlightCounts(options.shares ?? fairShares(options.concurrency, 1));
  let stopped = false;
  let failing = false;

  const attempt = async (delivery: ClaimedDelivery) => {
    const { event } = delivery;
    let result: SendResult;
    try {
      const binding = secretBinding(delivery.environment, delivery.endpointId);
      const secrets = [delivery.secret, ...(delivery.previousSecret ? [delivery.previousSecret] : [])].map((sealed) =>
        sealer.openSecret(binding, sealed),
      );
      const timestamp = Math.floor(Date.now() / 1000);
      const body = webhookBody(event, delivery.readScopes);
      const headers = {
        'webhook-id': event.eventId,
        'webhook-timestamp': String(timestamp),
        // During a rotation's overlap both secrets sign, space-separated: a receiver with either verifies.
        'webhook-signature': secrets.map((secret) => signatureOf(secret, event.eventId, timestamp, body)).join(' '),
      };
      result = await send(delivery.url, headers, body, {
        timeoutMs: options.timeoutMs,
        allowPrivateNetworks: options.allowPrivateNetworks,
        policy: { allowedPorts: options.allowedPorts ?? '*', requireHttps: options.requireHttps ?? false },
      });
    } catch (error) {
      logger.error(
        { err: { message: (error as Error).message }, endpointId: delivery.endpointId },
        'could not prepare a webhook attempt',
      );
      result = {
        succeeded: false,
        statusCode: null,
        failure: 'not_sent',
        latencyMs: 0,
        error: 'The service could not prepare the request (signing secret unavailable).',
        retryAfterMs: null,
      };
    }
    const gone = answeredGone(result.statusCode);
    const finishedAt = Date.now();
    let recorded: RecordedAttempt | undefined;
    try {
      recorded = await store.complete({
        deliveryId: delivery.deliveryId,
        leaseId: delivery.leaseId,
        endpointId: delivery.endpointId,
        eventId: event.eventId,
        succeeded: result.succeeded,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
        retryInMs: result.succeeded ? null : retryDelay(delivery.attempts, result.retryAfterMs),
        gone,
        disableAfterMs,
      });
    } catch (error) {
      // The lease runs out and the delivery is attempted again: at least once, never lost.
      logger.warn(
        { err: { message: (error as Error).message }, endpointId: delivery.endpointId },
        'could not record a webhook attempt; it will be retried',
      );
    }
    const disabledEndpoint = disabledBy(recorded?.disabledEndpoint ?? false, gone);
    if (disabledEndpoint)
      logger.warn({ endpointId: delivery.endpointId, reason: disabledEndpoint }, 'webhook endpoint disabled');
    options.onAttempt?.({
      statusCode: result.statusCode,
      failure: result.failure,
      firstAttempt: delivery.attempts === 0,
      latencyMs: result.latencyMs,
      // Counted once per delivery: by the dispatcher whose success was recorded, unless one came before.
      deliveredAfterMs:
        result.succeeded && recorded?.recorded && !recorded.deliveredBefore
          ? Math.max(0, finishedAt - Date.parse(event.occurredAt))
          : null,
      disabledEndpoint,
    });
    if (!result.succeeded)
      logger.info(
        {
          endpointId: delivery.endpointId,
          eventId: event.eventId,
          statusCode: result.statusCode,
          attempt: delivery.attempts + 1,
        },
        'webhook attempt failed',
      );
  };

  const tick = async () => {
    try {
      for (;;) {
        const round = await store.fanOut(FAN_OUT_BATCH);
        if (round.considered < FAN_OUT_BATCH || stopped) break;
      }
      while (!stopped) {
        const free = options.concurrency - inFlight.size;
        if (free <= 0) break;
        const claimed = await store.claim(free, leaseMs, counts.rooms());
        for (const delivery of claimed) {
          counts.started(delivery.environment, delivery.endpointId);
          const running = attempt(delivery).finally(() => {
            inFlight.delete(running);
            counts.finished(delivery.environment, delivery.endpointId);
            // A finished first attempt lets the endpoint's next event go; a freed slot takes more work.
            job.wake();
          });
          inFlight.add(running);
        }
        if (claimed.length < free) break;
      }
      failing = false;
    } catch (error) {
      if (!failing)
        logger.warn(
          { err: { message: (error as Error).message } },
          'could not fan out or claim webhook deliveries; retrying',
        );
      failing = true;
    }
  };

  const job = startWakeableJob(tick, options.pollIntervalMs, () => stopped);

  return {
    wake: job.wake,
    async stop() {
      stopped = true;
      await job.stop();
      // Attempts in flight finish (each bounded by the time-out) and record their outcome.
      await Promise.all([...inFlight]);
    },
  };
}
