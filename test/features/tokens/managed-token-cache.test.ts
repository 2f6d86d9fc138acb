import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiTokenRecord,
  type ApiTokenStore,
  generateApiToken,
  ManagedTokenAuthenticator,
  ManagedTokenCache,
  type TokenChanges,
  UNNOTIFIED_MAX_AGE_MS,
} from '../../../src/features/tokens/index.js';
import { PrismaApiTokenStore } from '../../../src/features/tokens/api-token.store.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { ManualClock } from '../../support/clock.js';

/**
 * The managed-token cache against the real api_tokens table, with time as an input (a ManualClock decides
 * expiry and the cache's ages) and the change notifications handed in by the test, as the LISTEN connection
 * hands them in (test/auth/token-revocation-fleet.test.ts sends them through PostgreSQL, across two instances).
 */
let h: DomainHarness;
let prismaStore: PrismaApiTokenStore;
beforeAll(async () => {
  h = await createDomainHarness();
  prismaStore = new PrismaApiTokenStore(h.prisma);
});
afterAll(async () => h?.close());

const MAX_AGE_MS = 60_000;

/** The real store, counting the rows it reads; `gate`, when set, holds the next read until the test opens it. */
class CountingStore implements ApiTokenStore {
  reads = 0;
  /** Rows read so far (each counted once the database answered). */
  answered = 0;
  gate: Promise<void> | undefined;
  findById = async (id: string): Promise<ApiTokenRecord | null> => {
    this.reads += 1;
    const row = await prismaStore.findById(id);
    this.answered += 1;
    await this.gate;
    return row;
  };
  touch = (id: string, at: Date) => prismaStore.touch(id, at);
}

/** The port the LISTEN connection implements, driven by the test. */
class Changes implements TokenChanges {
  listening = true;
  private readonly listeners = new Set<(tokenId: string | undefined) => void>();
  onTokenChanged(listener: (tokenId: string | undefined) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  connected = () => this.listening;
  notify(tokenId: string | undefined) {
    for (const listener of this.listeners) listener(tokenId);
  }
}

function setup(options: { maxEntries?: number; changes?: Changes | undefined } = {}) {
  const clock = new ManualClock(Date.now());
  const store = new CountingStore();
  const changes = 'changes' in options ? options.changes : new Changes();
  const lookups: boolean[] = [];
  const cache = new ManagedTokenCache({
    maxEntries: options.maxEntries ?? 100,
    maxAgeMs: MAX_AGE_MS,
    changes,
    clock,
    onLookup: (hit) => lookups.push(hit),
  });
  const verifier = new ManagedTokenAuthenticator(store, { cache, clock });
  return { clock, store, changes, cache, verifier, lookups };
}

async function issue(options: { expiresAt?: Date; scopes?: string[] } = {}) {
  const generated = generateApiToken();
  await prismaStore.insert(
    {
      id: generated.id,
      name: 'cached',
      secretHash: generated.secretHash,
      environments: ['sandbox'],
      scopes: options.scopes ?? ['customers:read'],
      expiresAt: options.expiresAt ?? null,
      limits: null,
    },
    [],
  );
  return generated;
}

const revoke = (id: string) => h.pool.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [id]);

describe('the managed-token cache', () => {
  it('answers a verified token from memory; another secret under a cached id is checked against the row and refused', async () => {
    const { verifier, store, lookups } = setup();
    const { id, token } = await issue();
    const first = await verifier.verify(token);
    expect(first).toMatchObject({ ok: true, principal: { id: `token:${id}`, scopes: ['customers:read'] } });
    expect(await verifier.verify(token)).toEqual(first);
    expect(store.reads).toBe(1);
    expect(lookups).toEqual([false, true]);

    const forged = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect(await verifier.verify(forged)).toEqual({ ok: false, reason: 'invalid' });
    expect(store.reads).toBe(2);
    // The forgery evicted nothing: the real token is still answered from memory.
    expect(await verifier.verify(token)).toEqual(first);
    expect(store.reads).toBe(2);
  });

  it('drops a token on its change notification: a revocation is refused at the next request, new scopes apply', async () => {
    const { verifier, store, changes } = setup();
    const { id, token } = await issue({ scopes: ['customers:read', 'accounts:read'] });
    expect(await verifier.verify(token)).toMatchObject({ ok: true });
    await h.pool.query("UPDATE api_tokens SET scopes = '{customers:read}' WHERE id = $1", [id]);
    changes!.notify(id);
    expect(await verifier.verify(token)).toMatchObject({ ok: true, principal: { scopes: ['customers:read'] } });
    await revoke(id);
    changes!.notify(id);
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'revoked' });
    expect(store.reads).toBe(3);
  });

  it('drops every token when the connection comes back (what was notified while it was down is lost)', async () => {
    const { verifier, store, changes, cache } = setup();
    const [a, b] = await Promise.all([issue(), issue()]);
    await verifier.verify(a.token);
    await verifier.verify(b.token);
    expect(cache.size).toBe(2);
    changes!.notify(undefined);
    expect(cache.size).toBe(0);
    await verifier.verify(a.token);
    expect(store.reads).toBe(3);
  });

  it('never serves a token past its expiry, nor past AUTH_CACHE_MAX_AGE_MS', async () => {
    const { verifier, store, clock } = setup();
    const expiring = await issue({ expiresAt: new Date(clock.now() + 30_000) });
    const lasting = await issue();
    await verifier.verify(expiring.token);
    await verifier.verify(lasting.token);
    clock.advance(29_999);
    expect(await verifier.verify(expiring.token)).toMatchObject({ ok: true });
    expect(store.reads).toBe(2);
    clock.advance(1);
    expect(await verifier.verify(expiring.token)).toEqual({ ok: false, reason: 'invalid' });
    expect(store.reads).toBe(3);

    clock.advance(MAX_AGE_MS - 30_000 - 1);
    expect(await verifier.verify(lasting.token)).toMatchObject({ ok: true });
    expect(store.reads).toBe(3);
    clock.advance(1);
    expect(await verifier.verify(lasting.token)).toMatchObject({ ok: true });
    expect(store.reads).toBe(4);
  });

  it('while no notification can arrive (listener down, or DATABASE_LISTEN=false) serves an entry for about a second only', async () => {
    for (const changes of [new Changes(), undefined]) {
      const { verifier, store, clock } = setup({ changes });
      const { id, token } = await issue();
      expect(await verifier.verify(token)).toMatchObject({ ok: true });
      if (changes) changes.listening = false;
      await revoke(id);
      // Within the second the revocation is not known yet; the second bounds it.
      clock.advance(UNNOTIFIED_MAX_AGE_MS - 1);
      expect(await verifier.verify(token)).toMatchObject({ ok: true });
      clock.advance(1);
      expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'revoked' });
      expect(store.reads).toBe(2);
    }
  });

  it('keeps nothing a change notification overtook: the row read before a revocation committed is not cached', async () => {
    const { verifier, store, changes } = setup();
    const { id, token } = await issue();
    let open!: () => void;
    store.gate = new Promise<void>((resolve) => (open = resolve));
    const reading = verifier.verify(token);
    await expect.poll(() => store.answered).toBe(1);
    // The revocation commits and is notified while the (older) row is on its way back.
    await revoke(id);
    changes!.notify(id);
    open();
    store.gate = undefined;
    expect(await reading).toMatchObject({ ok: true });
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'revoked' });
    expect(store.reads).toBe(2);
  });

  it('caches no refusal: a token refused before its row existed works once it does, and made-up tokens take no room', async () => {
    const { verifier, cache } = setup();
    const generated = generateApiToken();
    expect(await verifier.verify(generated.token)).toEqual({ ok: false, reason: 'invalid' });
    for (let i = 0; i < 50; i += 1)
      expect(await verifier.verify(generateApiToken().token)).toEqual({ ok: false, reason: 'invalid' });
    expect(cache.size).toBe(0);
    await prismaStore.insert(
      {
        id: generated.id,
        name: 'late',
        secretHash: generated.secretHash,
        environments: ['sandbox'],
        scopes: ['customers:read'],
        expiresAt: null,
        limits: null,
      },
      [],
    );
    expect(await verifier.verify(generated.token)).toMatchObject({ ok: true });
    expect(cache.size).toBe(1);
  });

  it('holds AUTH_CACHE_MAX_ENTRIES tokens at most, the least recently used leaving first; 0 holds none', async () => {
    const { verifier, store, cache } = setup({ maxEntries: 2 });
    const [a, b, c] = await Promise.all([issue(), issue(), issue()]);
    await verifier.verify(a.token);
    await verifier.verify(b.token);
    await verifier.verify(a.token); // a is now the most recently used
    await verifier.verify(c.token); // evicts b
    expect(cache.size).toBe(2);
    expect(store.reads).toBe(3);
    await verifier.verify(a.token);
    await verifier.verify(c.token);
    expect(store.reads).toBe(3);
    await verifier.verify(b.token);
    expect(store.reads).toBe(4);

    const none = setup({ maxEntries: 0 });
    await none.verifier.verify(a.token);
    await none.verifier.verify(a.token);
    expect(none.store.reads).toBe(2);
    expect(none.cache.size).toBe(0);
  });
});
