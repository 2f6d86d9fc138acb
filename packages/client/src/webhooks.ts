import { Webhook } from 'standardwebhooks';
import type { components } from './generated/rest.js';

/** An event as the Events API and webhooks carry it (docs/events.md). */
export type CasEvent = components['schemas']['Event'];
export type CasEventType = CasEvent['type'];

/** A verified webhook delivery: `{ type, timestamp, data }`, `data` being the event. */
export interface WebhookEvent {
  type: CasEventType;
  /** The event's occurredAt. */
  timestamp: string;
  data: CasEvent;
}

/** The three Standard Webhooks headers, from a Headers object or a plain record (any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const lowerCased = (headers: WebhookHeaders): Record<string, string> => {
  const entries: [string, string][] =
    typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function'
      ? [...(headers as Headers).entries()]
      : Object.entries(headers as Record<string, string | string[] | undefined>).flatMap(([name, value]) =>
          value === undefined ? [] : [[name, Array.isArray(value) ? value.join(',') : value] as [string, string]],
        );
  return Object.fromEntries(entries.map(([name, value]) => [name.toLowerCase(), value]));
};

/**
 * Verifies a delivery with the endpoint's `whsec_` secret (signature, and a timestamp within five minutes) and
 * returns the typed event; throws (standardwebhooks' WebhookVerificationError) otherwise. Pass the raw body
 * exactly as received. Deduplicate by `webhook-id` (= `data.eventId`) and apply in `data.sequence` order.
 */
export function verifyWebhook(secret: string, payload: string, headers: WebhookHeaders): WebhookEvent {
  return new Webhook(secret).verify(payload, lowerCased(headers)) as WebhookEvent;
}
