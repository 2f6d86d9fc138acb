import { integer, type Settings } from './settings.js';

/** Each instance's background work: idempotency keys' lifetime, hold and flag expiry, the outbox's numbering and retention. */
export const jobsEnv = {
  IDEMPOTENCY_TTL_HOURS: integer('IDEMPOTENCY_TTL_HOURS', 1, 720).default(24),
  HOLD_EXPIRY_INTERVAL_MS: integer('HOLD_EXPIRY_INTERVAL_MS', 100, 3_600_000).default(5000),
  FLAG_EXPIRY_INTERVAL_MS: integer('FLAG_EXPIRY_INTERVAL_MS', 100, 3_600_000).default(10_000),
  EVENT_SEQUENCER_INTERVAL_MS: integer('EVENT_SEQUENCER_INTERVAL_MS', 10, 3_600_000).default(100),
  EVENT_RETENTION_DAYS: integer('EVENT_RETENTION_DAYS', 1, 3650).default(30),
};

export const jobsConfig = (raw: Settings<typeof jobsEnv>) => ({
  /** How long an idempotency key and its stored result are kept. */
  idempotencyTtlHours: raw.IDEMPOTENCY_TTL_HOURS,
  /** How often each instance voids the holds past their expiry (HOLD_EXPIRY_INTERVAL_MS). */
  holdExpiryIntervalMs: raw.HOLD_EXPIRY_INTERVAL_MS,
  /** How often each instance lifts the account flags whose `until` has passed (FLAG_EXPIRY_INTERVAL_MS). */
  flagExpiryIntervalMs: raw.FLAG_EXPIRY_INTERVAL_MS,
  /** The outbox: how often each instance numbers new events, and how long events are kept. */
  events: { sequencerIntervalMs: raw.EVENT_SEQUENCER_INTERVAL_MS, retentionDays: raw.EVENT_RETENTION_DAYS },
});
