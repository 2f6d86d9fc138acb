import type { DomainEvent, EventType } from '../events/event.js';

/**
 * Webhooks (docs/decisions.md, "Webhooks"): endpoints that receive this environment's events as
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

/** Seals and opens endpoint secrets (src/pii/pii-cipher.ts); `binding` names the row the secret belongs to. */
export interface SecretSealer {
  sealSecret(binding: string, secret: string): SealedSecret;
  openSecret(binding: string, sealed: SealedSecret): string;
}

/** The associated data binding an endpoint's secret to its row: a ciphertext copied elsewhere fails to open. */
export const secretBinding = (environment: string, endpointId: string): string => `webhook\u0000${environment}\u0000${endpointId}\u0000secret`;

/**
 * Decides whether a URL may be registered: answers the reason it may not, or null. The runtime's guard
 * resolves the host and refuses private, loopback, link-local, multicast and unspecified addresses
 * (src/jobs/webhook-http.ts); the dispatcher checks again, at connect time, every time.
 */
export interface WebhookUrlGuard {
  check(url: URL): Promise<string | null>;
}

export interface NewEndpointRecord {
  id: string;
  environment: string;
  url: string;
  eventTypes: EventType[];
  secret: SealedSecret;
}

export type RedeliveryOutcome = 'scheduled' | 'endpoint_not_found' | 'endpoint_disabled' | 'event_not_found';

/** A delivery a dispatcher claimed: everything it needs to make one attempt. */
export interface ClaimedDelivery {
  deliveryId: string;
  /** Proves the claim when the outcome is recorded: a dispatcher whose lease ran out records nothing. */
  leaseId: string;
  endpointId: string;
  environment: string;
  url: string;
  /** Attempts finished before this one. */
  attempts: number;
  secret: SealedSecret;
  /** The previous secret while its overlap lasts. */
  previousSecret: SealedSecret | null;
  event: DomainEvent;
}

export interface AttemptOutcome {
  deliveryId: string;
  leaseId: string;
  endpointId: string;
  eventId: string;
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The next attempt's delay; null when the schedule is exhausted (or on success). */
  retryInMs: number | null;
  /** A 410 Gone: the receiver asks never to be called again; the endpoint is disabled. */
  gone: boolean;
  /** An endpoint failing for this long without a success is disabled. */
  disableAfterMs: number;
}

/** What recording an attempt did (for metrics and the log). */
export interface RecordedAttempt {
  /** False when the lease had run out: another dispatcher owns the delivery now; only the attempt row was kept. */
  recorded: boolean;
  /** An earlier attempt of this delivery had succeeded (this one is a redelivery). */
  deliveredBefore: boolean;
  /** This attempt disabled the endpoint (a 410, or the end of a whole window of failures). */
  disabledEndpoint: boolean;
}

export interface WebhookStore {
  create(record: NewEndpointRecord): Promise<WebhookEndpoint>;
  find(environment: string, endpointId: string): Promise<WebhookEndpoint | null>;
  /** The environment's endpoints, oldest first. */
  list(environment: string): Promise<WebhookEndpoint[]>;
  update(environment: string, endpointId: string, changes: { url?: string | undefined; eventTypes?: EventType[] | undefined }): Promise<WebhookEndpoint | null>;
  delete(environment: string, endpointId: string): Promise<boolean>;
  /** Enabling also forgets the failures (failingSince) and resumes the endpoint's outstanding deliveries. */
  setEnabled(environment: string, endpointId: string, enabled: boolean, reason: string | null): Promise<WebhookEndpoint | null>;
  /** The current secret becomes the previous one, valid until `previousExpiresAt`. */
  rotateSecret(environment: string, endpointId: string, secret: SealedSecret, previousExpiresAt: Date): Promise<WebhookEndpoint | null>;
  /** Newest first; null when there is no such endpoint. */
  listAttempts(environment: string, endpointId: string, limit: number): Promise<WebhookAttempt[] | null>;
  /** Schedules (another) delivery of the event to the endpoint now, whatever happened to it before. */
  redeliver(environment: string, endpointId: string, eventId: string): Promise<RedeliveryOutcome>;

  /** The fan-out: turns newly sequenced events into deliveries; answers how many events it considered. */
  fanOut(limit: number): Promise<{ considered: number; created: number }>;
  /** Claims due deliveries (FOR UPDATE SKIP LOCKED), leasing each for `leaseMs`. */
  claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt and its consequences for the delivery and the endpoint, in one statement. */
  complete(outcome: AttemptOutcome): Promise<RecordedAttempt>;
}

export const WEBHOOK_LIMITS = { url: 2048, eventTypes: 50, attemptsPage: 100 } as const;
