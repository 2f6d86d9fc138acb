import type { AccessScope } from '../../domain/caller.js';
import type { DomainEvent, EventType } from '../events/index.js';
import type { WriteEffects } from '../../domain/write-effects.js';
import type { SealedSecret, WebhookAttempt, WebhookEndpoint } from './webhook.js';

/**
 * What the webhook service and the delivery job need from outside the domain: the store
 * (src/features/webhooks/webhook.store.ts), the secret sealer (src/pii/pii-cipher.ts) and the URL guard
 * (src/features/webhooks/webhook-http.ts).
 */

/** Seals and opens endpoint secrets (src/pii/pii-cipher.ts); `binding` names the row the secret belongs to. */
export interface SecretSealer {
  sealSecret(binding: string, secret: string): SealedSecret;
  openSecret(binding: string, sealed: SealedSecret): string;
}

/**
 * Decides whether a URL may be registered: answers the reason it may not, or null. The runtime's guard
 * resolves the host and refuses private, loopback, link-local, multicast and unspecified addresses
 * (src/features/webhooks/webhook-http.ts); the dispatcher checks again, at connect time, every time.
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
  /** What its deliveries may show: the registrant's read scopes (event-visibility.ts). */
  readScopes: AccessScope[];
}

/** The creation made the endpoint, or refused it: the environment already has its maximum of endpoints. */
export type EndpointCreation = { created: WebhookEndpoint } | { refused: 'endpoint_limit' };

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
  /** As stored: the dispatcher shows it as the endpoint's read scopes allow (eventAsSeenWith). */
  event: DomainEvent;
  readScopes: AccessScope[];
}

/**
 * How many more attempts a dispatcher may start per environment and per endpoint (its fair shares, minus
 * what it has in flight): a never-answering endpoint holds at most its endpoint's share, an environment
 * full of them at most the environment's, and the other environments keep the rest.
 */
export interface ClaimRooms {
  /** The room of an environment with nothing in flight. */
  perEnvironment: number;
  /** The room of an endpoint with nothing in flight. */
  perEndpoint: number;
  /** Environments with attempts in flight, and their room left (0: none). */
  busyEnvironments: ReadonlyMap<string, number>;
  /** Endpoints with attempts in flight, and their room left. */
  busyEndpoints: ReadonlyMap<string, number>;
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

/**
 * Every change to who receives what (create, update, delete, enable, disable, rotate, redeliver) writes
 * `effects.audit` in the same statement as the change, and only when the change happened.
 */
export interface WebhookStore {
  /** Creates the endpoint unless its environment already has `maxEndpoints` (checked race-free, in the same statement). */
  create(record: NewEndpointRecord, maxEndpoints: number, effects: WriteEffects): Promise<EndpointCreation>;
  find(environment: string, endpointId: string): Promise<WebhookEndpoint | null>;
  /** The environment's endpoints, oldest first. */
  list(environment: string): Promise<WebhookEndpoint[]>;
  update(
    environment: string,
    endpointId: string,
    changes: { url?: string | undefined; eventTypes?: EventType[] | undefined; readScopes?: AccessScope[] | undefined },
    effects: WriteEffects,
  ): Promise<WebhookEndpoint | null>;
  delete(environment: string, endpointId: string, effects: WriteEffects): Promise<boolean>;
  /** Enabling also forgets the failures (failingSince) and resumes the endpoint's outstanding deliveries. */
  setEnabled(
    environment: string,
    endpointId: string,
    enabled: boolean,
    reason: string | null,
    effects: WriteEffects,
  ): Promise<WebhookEndpoint | null>;
  /** The current secret becomes the previous one, valid until `previousExpiresAt`. */
  rotateSecret(
    environment: string,
    endpointId: string,
    secret: SealedSecret,
    previousExpiresAt: Date,
    effects: WriteEffects,
  ): Promise<WebhookEndpoint | null>;
  /** Newest first; null when there is no such endpoint. */
  listAttempts(environment: string, endpointId: string, limit: number): Promise<WebhookAttempt[] | null>;
  /** Schedules (another) delivery of the event to the endpoint now, whatever happened to it before. */
  redeliver(
    environment: string,
    endpointId: string,
    eventId: string,
    effects: WriteEffects,
  ): Promise<RedeliveryOutcome>;

  /** The fan-out: turns newly sequenced events into deliveries; answers how many events it considered. */
  fanOut(limit: number): Promise<{ considered: number; created: number }>;
  /**
   * Claims due deliveries (FOR UPDATE SKIP LOCKED), leasing each for `leaseMs`: at most the room each
   * environment and endpoint has left, environments taking turns (without `rooms`, only `limit` bounds it).
   */
  claim(limit: number, leaseMs: number, rooms?: ClaimRooms): Promise<ClaimedDelivery[]>;
  /** Records an attempt and its consequences for the delivery and the endpoint, in one statement. */
  complete(outcome: AttemptOutcome): Promise<RecordedAttempt>;
}
