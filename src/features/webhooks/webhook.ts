import type { EventType } from '../events/index.js';

/**
 * Webhooks (docs/adr/0036-webhooks-standard-at-least-once.md): endpoints that receive this environment's events as
 * Standard Webhooks requests (https://www.standardwebhooks.com), signed with the endpoint's secret.
 */
export interface WebhookEndpoint {
  endpointId: string;
  url: string;
  /** Empty: every event type. */
  eventTypes: EventType[];
  enabled: boolean;
  /** Why it was disabled (by a client, a 410 answer, or a whole retry window of failures); null while enabled. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** Since when every attempt failed; null after a success. */
  failingSince: string | null;
  /** Until when the secret before the last rotation still signs deliveries; null when there is none. */
  previousSecretExpiresAt: string | null;
}

/** The endpoint and, only when it is created or its secret rotated, the secret in clear. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

export interface WebhookAttempt {
  attemptId: string;
  eventId: string;
  attemptedAt: string;
  /** The receiver's HTTP status; null when no answer came (refused address, time-out, connection error). */
  statusCode: number | null;
  latencyMs: number;
  succeeded: boolean;
  /** At most 200 characters: what went wrong, with at most an excerpt of the receiver's answer. */
  error: string | null;
}

/** A secret sealed at rest: AES-256-GCM under a PII key, bound to its row. */
export interface SealedSecret {
  keyId: string;
  ciphertext: Uint8Array;
}

/** The associated data binding an endpoint's secret to its row: a ciphertext copied elsewhere fails to open. */
export const secretBinding = (environment: string, endpointId: string): string =>
  `webhook\u0000${environment}\u0000${endpointId}\u0000secret`;

export const WEBHOOK_LIMITS = { url: 2048, eventTypes: 50, attemptsPage: 100 } as const;
