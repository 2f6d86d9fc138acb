import { z } from 'zod';
import { idempotencyKeyInProgress, idempotencyKeyReused } from '../errors.js';
import type { Database, PersonalDataProtector, Stores } from '../ports.js';
import type { RequestScope } from '../scope.js';
import { parseInput } from '../validation.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Options every create method accepts. */
export interface CreateOptions {
  /** 1–255 printable ASCII characters, chosen by the client; scoped to its principal and environment. */
  idempotencyKey?: string | undefined;
}

/** The key's rules; also the source of the published `Idempotency-Key` header schema. */
export const idempotencyKeySchema = z
  .string({ error: 'Must be a string.' })
  .regex(/^[\x20-\x7e]*$/, 'Must contain printable ASCII characters only.')
  .min(1, 'Must not be empty.')
  .max(IDEMPOTENCY_KEY_MAX_LENGTH, `Must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`);

const optionsSchema = z.strictObject({ idempotencyKey: idempotencyKeySchema.optional() });

/**
 * Results that are replays of an earlier creation. Kept beside the result rather than in it so that the
 * value a create method returns has exactly the shape it always had and no flag can leak into a response.
 */
const replays = new WeakSet<object>();

/** True when `result` came from an earlier request with the same idempotency key (REST: `Idempotent-Replayed: true`). */
export const isReplayed = (result: object): boolean => replays.has(result);

/** Object keys sorted at every level, so that the same input always yields the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

const PURGE_INTERVAL_MS = 10 * 60 * 1000;
const PURGE_BATCH = 1000;

/**
 * Runs creations at most once per idempotency key. The key is claimed inside the creation's own
 * transaction, so the unique index on (principal, environment, key) serialises concurrent duplicates:
 * the second waits for the first to commit and then replays its stored result, or takes over the key
 * if the first rolled back. Failed creations therefore leave no record and can be retried with the same key.
 */
export class IdempotentCreation {
  private lastPurge = 0;

  constructor(
    private readonly db: Database,
    private readonly fingerprinter: Pick<PersonalDataProtector, 'fingerprint'>,
    private readonly ttlMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Validates the options; call before any other work so a bad key fails fast. */
  parseOptions(options: unknown): CreateOptions {
    return parseInput(optionsSchema, options ?? {});
  }

  /**
   * `work` runs in a transaction; with a key, at most once per (principal, environment, key).
   * `request` is the validated input: with the operation it forms the fingerprint that tells a retry
   * (replayed) from a different request reusing the key (IDEMPOTENCY_KEY_REUSED).
   */
  async run<T extends object>(
    scope: RequestScope,
    operation: string,
    request: unknown,
    idempotencyKey: string | undefined,
    work: (stores: Stores) => Promise<T>,
  ): Promise<T> {
    if (idempotencyKey === undefined) return this.db.transaction(work);
    const now = this.now();
    const claim = {
      principalId: scope.principal.id,
      environment: scope.environment,
      key: idempotencyKey,
      operation,
      fingerprint: this.fingerprinter.fingerprint(canonicalJson({ operation, request })),
      expiresAt: new Date(now.getTime() + this.ttlMs),
    };
    const outcome = await this.db.transaction(async (stores) => {
      const claimed = await stores.idempotency.claim(claim);
      if (!claimed.claimed) {
        const { existing } = claimed;
        if (existing.operation !== operation || !sameBytes(existing.fingerprint, claim.fingerprint)) throw idempotencyKeyReused();
        if (existing.result === null || typeof existing.result !== 'object') throw idempotencyKeyInProgress();
        return { replayed: true, value: existing.result as T };
      }
      const value = await work(stores);
      await stores.idempotency.complete(claim, value);
      return { replayed: false, value };
    });
    if (outcome.replayed) replays.add(outcome.value);
    this.purgeIfDue(now);
    return outcome.value;
  }

  /** Expired keys are already ignored by claim(); this only keeps the table small, at most every 10 minutes per instance. */
  private purgeIfDue(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    this.db.stores.idempotency.purgeExpired(now, PURGE_BATCH).catch(() => {
      // Best effort: the next purge retries, and expired rows are never used meanwhile.
    });
  }
}
