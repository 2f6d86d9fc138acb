import { z } from 'zod';
import { booleanFlag, commaList, DURATION, durationMs, integer, type Settings } from './settings.js';

/** WEBHOOKS_ALLOWED_PORTS' default: https, http, and the usual alternative https port. */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443, 80, 8443];

/** Standard Webhooks' (and Svix's) schedule: the first attempt at once, then these delays. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** Webhook delivery (docs/adr/0036-webhooks-standard-at-least-once.md). */
export const webhooksEnv = {
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: booleanFlag('WEBHOOKS_ALLOW_PRIVATE_NETWORKS').default(false),
  WEBHOOKS_TIMEOUT_MS: integer('WEBHOOKS_TIMEOUT_MS', 100, 60_000).default(10_000),
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .transform(commaList)
    .refine(
      (delays) => delays.length >= 1 && delays.length <= 20 && delays.every((delay) => DURATION.test(delay)),
      'WEBHOOKS_RETRY_SCHEDULE must be 1 to 20 comma-separated delays such as 500ms, 5s, 5m or 2h',
    )
    .transform((delays) => delays.map(durationMs))
    .refine(
      (delays) => delays.every((delay) => delay <= 24 * 3_600_000),
      'WEBHOOKS_RETRY_SCHEDULE delays must be at most 24h each',
    )
    .default(DEFAULT_WEBHOOK_RETRY_SCHEDULE.split(',').map(durationMs)),
  WEBHOOKS_SECRET_OVERLAP_S: integer('WEBHOOKS_SECRET_OVERLAP_S', 0, 30 * 86_400).default(86_400),
  WEBHOOKS_POLL_INTERVAL_MS: integer('WEBHOOKS_POLL_INTERVAL_MS', 10, 3_600_000).default(1000),
  WEBHOOKS_CONCURRENCY: integer('WEBHOOKS_CONCURRENCY', 1, 200).default(10),
  // At most 100: GraphQL's cost analysis counts `webhookEndpoints` at that size (schema.graphql).
  WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT: integer('WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT', 1, 100).default(16),
  WEBHOOKS_ALLOWED_PORTS: z
    .string()
    .trim()
    .refine(
      (v) =>
        v === '*' ||
        v.split(',').every((port) => /^\s*\d{1,5}\s*$/.test(port) && Number(port) >= 1 && Number(port) <= 65535),
      'WEBHOOKS_ALLOWED_PORTS must be * or comma-separated ports between 1 and 65535, e.g. 443,8443',
    )
    .transform((v): readonly number[] | '*' => (v === '*' ? '*' : [...new Set(v.split(',').map(Number))]))
    .optional(),
};

export const webhooksConfig = (raw: Settings<typeof webhooksEnv>, nodeEnv: string) => ({
  /** Webhook delivery (docs/adr/0036-webhooks-standard-at-least-once.md). */
  webhooks: {
    /** Deliver to private, loopback and link-local addresses too: tests only, refused in production. */
    allowPrivateNetworks: raw.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
    /** One attempt's time-out. */
    timeoutMs: raw.WEBHOOKS_TIMEOUT_MS,
    /** The delay before each retry; after the last one the delivery is exhausted. Their sum is the window after which a failing endpoint is disabled. */
    retryScheduleMs: raw.WEBHOOKS_RETRY_SCHEDULE,
    /** How long the secret before a rotation keeps signing. */
    secretOverlapMs: raw.WEBHOOKS_SECRET_OVERLAP_S * 1000,
    /** How often each instance looks for due deliveries besides being woken (retries, and everything while the listener is down). */
    pollIntervalMs: raw.WEBHOOKS_POLL_INTERVAL_MS,
    /** Attempts in flight at once per instance. */
    concurrency: raw.WEBHOOKS_CONCURRENCY,
    /** Endpoints one environment may have; a creation beyond is refused (WEBHOOK_ENDPOINT_LIMIT). */
    maxEndpointsPerEnvironment: raw.WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT,
    /**
     * The ports a webhook URL may name (its scheme's default port when it names none); '*': any. A local
     * receiver (tests, development with private networks allowed) listens on any port.
     */
    allowedPorts: raw.WEBHOOKS_ALLOWED_PORTS ?? (raw.WEBHOOKS_ALLOW_PRIVATE_NETWORKS ? '*' : DEFAULT_WEBHOOK_PORTS),
    /** Only https URLs (in production); http is accepted elsewhere. */
    requireHttps: nodeEnv === 'production',
  },
});

export type WebhooksConfig = ReturnType<typeof webhooksConfig>['webhooks'];
