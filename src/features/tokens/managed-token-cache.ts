import { timingSafeEqual } from 'node:crypto';
import { BoundedCache } from '../../auth/bounded-cache.js';
import type { Clock } from '../../clock.js';
import type { Principal } from '../../domain/caller.js';

/**
 * Changes to managed tokens, as every instance learns of them: the database notifies the token's id whenever a
 * row of api_tokens changes in anything but its last use (a revocation, new scopes, a deletion; the trigger of
 * migration 20261210000000), and src/db/connection/notifications.ts hands that to this port.
 */
export interface TokenChanges {
  /**
   * The token `tokenId` changed; `undefined`: any token may have changed (the connection was just
   * (re)established, and what was notified while it was down is lost). Answers the subscription's end.
   */
  onTokenChanged(listener: (tokenId: string | undefined) => void): () => void;
  /** The notifications arrive now (LISTENing). */
  connected(): boolean;
}

export interface ManagedTokenCacheOptions {
  /** Tokens kept at most (AUTH_CACHE_MAX_ENTRIES); 0: nothing is cached. */
  maxEntries: number;
  /** The longest an entry is served while the change notifications arrive (AUTH_CACHE_MAX_AGE_MS). */
  maxAgeMs: number;
  /** Where changes come from; undefined (DATABASE_LISTEN=false): nowhere, so entries live UNNOTIFIED_MAX_AGE_MS. */
  changes?: TokenChanges | undefined;
  clock: Clock;
  /** For the metrics: one look-up answered from the cache (true) or not (false). */
  onLookup?: ((hit: boolean) => void) | undefined;
}

/**
 * How long an entry is served while no change notification can arrive (the LISTEN connection down or not yet
 * up, or DATABASE_LISTEN=false): a revoked token keeps working on an instance for about this long at most.
 */
export const UNNOTIFIED_MAX_AGE_MS = 1000;

interface Entry {
  /** The stored digest of the token's secret: a hit needs the presented secret's digest to equal it. */
  secretHash: Buffer;
  principal: Principal;
  cachedAt: number;
}

/**
 * The principals of managed tokens recently verified against the database, by token id (docs/adr/0099-authentication-caches.md).
 * An entry never outlives its token's expiry nor `maxAgeMs`; a change notification drops it on every instance.
 * Only successful verifications are kept: an unknown, revoked or expired token is looked up every time, so a
 * token created a moment ago is never refused from memory and made-up tokens cannot fill it (the key is the
 * id of a row that exists and whose secret was presented).
 */
export class ManagedTokenCache {
  private readonly entries: BoundedCache<string, Entry>;
  /**
   * Moves on every change notification. A look-up remembers it before reading the database and keeps what it
   * read only if it did not move meanwhile: a revocation notified while the row was being read (the read may
   * have seen the row before the revocation committed) is never overwritten by that stale row.
   */
  private generation = 0;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(private readonly options: ManagedTokenCacheOptions) {
    this.entries = new BoundedCache(options.maxEntries);
    this.unsubscribe = options.changes?.onTokenChanged((tokenId) => this.invalidate(tokenId));
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The principal of token `tokenId` if cached, still fresh, and `secretHash` (the presented secret's digest) is its. */
  lookup(tokenId: string, secretHash: Buffer): Principal | undefined {
    const now = this.options.clock.now();
    const entry = this.entries.get(tokenId, now);
    const fresh =
      entry !== undefined &&
      (this.options.changes?.connected() === true || now - entry.cachedAt < UNNOTIFIED_MAX_AGE_MS) &&
      entry.secretHash.length === secretHash.length &&
      timingSafeEqual(entry.secretHash, secretHash);
    this.options.onLookup?.(fresh);
    return fresh ? entry.principal : undefined;
  }

  /** To pass to `remember` with what the database answers next. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a verified token's principal, unless a change was notified since `mark` answered `generation`. */
  remember(
    tokenId: string,
    secretHash: Uint8Array,
    principal: Principal,
    expiresAt: Date | null,
    generation: number,
  ): void {
    if (generation !== this.generation) return;
    const now = this.options.clock.now();
    const until = Math.min(now + this.options.maxAgeMs, expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
    this.entries.set(tokenId, { secretHash: Buffer.from(secretHash), principal, cachedAt: now }, until, now);
  }

  /** Drops token `tokenId`'s entry, or every entry (undefined). */
  invalidate(tokenId: string | undefined): void {
    this.generation += 1;
    if (tokenId === undefined) this.entries.clear();
    else this.entries.delete(tokenId);
  }

  stop(): void {
    this.unsubscribe?.();
    this.entries.clear();
  }
}
