import { z } from 'zod';
import {
  type DomainError,
  idempotencyKeyInProgress,
  idempotencyKeyReused,
  isDomainError,
} from '../../domain/errors.js';
import type { PersonalDataProtector } from '../../domain/personal-data.js';
import type { CreationOutcome } from '../../domain/write-effects.js';
import type { Caller } from '../../domain/caller.js';
import { maxLength, parseInput } from '../../domain/validation.js';
import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore } from './ports.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Options every create method accepts. */
export interface CreateOptions {
  /** 1–255 printable ASCII characters, chosen by the client; scoped to its principal and environment. */
  idempotencyKey?: string | undefined;
}

/** The key's rules; also the source of the published `Idempotency-Key` header schema. */
export const idempotencyKeySchema = z
  .string({ error: 'Must be a string.' })
  // The length first, and aborting: the pattern never reads a value too long.
  .max(IDEMPOTENCY_KEY_MAX_LENGTH, maxLength(IDEMPOTENCY_KEY_MAX_LENGTH))
  .min(1, 'Must not be empty.')
  .regex(/^[\x20-\x7e]*$/, 'Must contain printable ASCII characters only.');

const optionsSchema = z.strictObject({ idempotencyKey: idempotencyKeySchema.optional() });

/** What a create method returns: the value, and whether it is the replay of an earlier request's. */
export interface Creation<T> {
  value: T;
  /** True when an earlier request with the same idempotency key made it (REST: `Idempotent-Replayed: true`). */
  replayed: boolean;
}

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
 * Runs creations at most once per idempotency key. The key's record, holding the result, is written in
 * the same statement as the creation (CreationEffects), so a record exists exactly when its creation
 * committed: a failed creation leaves none and can be retried with the same key. The key's unique index
 * serialises concurrent duplicates: the second waits for the first to commit, writes nothing, and replays
 * the first one's result; it takes over the key if the first failed.
 */
export class IdempotentCreation {
  private lastPurge = 0;

  constructor(
    private readonly idempotency: IdempotencyStore,
    private readonly fingerprinter: Pick<PersonalDataProtector, 'fingerprint'>,
    private readonly ttlMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Validates the options; call before any other work so a bad key fails fast. */
  parseOptions(options: unknown): CreateOptions {
    return parseInput(optionsSchema, options ?? {});
  }

  /**
   * Makes `value` with `write`, at most once per (principal, environment, key) when a key is given.
   * `request` is the validated input: with the operation it forms the fingerprint that tells a retry
   * (replayed) from a different request reusing the key (IDEMPOTENCY_KEY_REUSED). A creation refused
   * with a domain error (a duplicate SSN, say) answers the key's earlier result if there is one: the
   * earlier request with this key may be what the refusal is about.
   */
  async run<T>(
    caller: Caller,
    operation: string,
    request: unknown,
    idempotencyKey: string | undefined,
    value: T,
    write: (idempotency: IdempotencyRecord | undefined) => Promise<CreationOutcome>,
  ): Promise<Creation<T>> {
    if (idempotencyKey === undefined) {
      await write(undefined);
      return { value, replayed: false };
    }
    const now = this.now();
    const claim: IdempotencyClaim = {
      principalId: caller.principal.id,
      environment: caller.environment,
      key: idempotencyKey,
      operation,
      fingerprint: this.fingerprinter.fingerprint(canonicalJson({ operation, request })),
      expiresAt: new Date(now.getTime() + this.ttlMs),
    };
    this.purgeIfDue(now);
    // A record that expires (and is purged) between our write and our read frees the key: try once more.
    for (let attempt = 1; ; attempt++) {
      let refusal: DomainError | undefined;
      try {
        if ((await write({ claim, result: value })) === 'created') return { value, replayed: false };
      } catch (error) {
        if (!isDomainError(error) || error.kind === 'unavailable') throw error;
        refusal = error;
      }
      const existing = await this.idempotency.find(claim);
      if (existing) {
        if (existing.operation !== operation || !sameBytes(existing.fingerprint, claim.fingerprint))
          throw idempotencyKeyReused();
        return { value: existing.result as T, replayed: true };
      }
      if (refusal) throw refusal;
      if (attempt === 2) throw idempotencyKeyInProgress();
    }
  }

  /** Expired keys are already ignored when claiming; this only keeps the table small, at most every 10 minutes per instance. */
  private purgeIfDue(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    this.idempotency.purgeExpired(now, PURGE_BATCH).catch(() => {
      // Best effort: the next purge retries, and expired rows are never used meanwhile.
    });
  }
}
