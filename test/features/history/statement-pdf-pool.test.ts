import { afterEach, describe, expect, it } from 'vitest';
import { isDomainError } from '../../../src/domain/errors.js';
import type { StatementDocument } from '../../../src/features/history/statement.js';
import { statementPdf } from '../../../src/features/history/statement-pdf.js';
import { StatementPdfPool } from '../../../src/features/history/statement-pdf-pool.js';
import { ByteBudgetLru, StatementPdfs, statementPdfKey } from '../../../src/features/history/statement-pdfs.js';

/**
 * The statement PDF renderer of the REST surface (src/features/history/statement-pdfs.ts): worker threads draw the same
 * bytes as the renderer always did, off the event loop; a full pool refuses at once; PDFs of ended periods are
 * kept by content. Performance is never a timed assertion here: the event loop's longest stall is compared between
 * two ways of drawing the same document, the one stalling it for the whole render, the other not at all.
 */

/** A statement of `entries` credits over January 2025 (ended), or over a period ending in a year's time (open). */
function statementDocument(entries: number, options: { open?: boolean; accountName?: string } = {}): StatementDocument {
  const from = new Date(Date.UTC(2025, 0, 1));
  const to = options.open ? new Date(Date.now() + 365 * 24 * 60 * 60 * 1000) : new Date(Date.UTC(2025, 1, 1));
  return {
    accountName: options.accountName ?? 'Everyday Checking',
    holderNames: ['Alexandra Jane Doe'],
    statement: {
      accountId: '0193a0c2-7e1d-7c4e-9f10-5a8b2c3d4e5f',
      currency: 'USD',
      from: from.toISOString(),
      to: to.toISOString(),
      asOfSequence: String(entries),
      openingBalance: '0',
      closingBalance: String(entries * 2),
      totalCredits: String(entries * 2),
      totalDebits: '0',
      entries: Array.from({ length: entries }, (_, i) => ({
        transactionId: `0193a0c2-7e1d-7c4e-9f10-${String(i).padStart(12, '0')}`,
        type: 'CREDIT' as const,
        amount: '2',
        description: `Card payment ${i}`,
        postedAt: new Date(from.getTime() + i * 60_000).toISOString(),
        balanceAfter: String((i + 1) * 2),
        sequence: String(i + 1),
        transferId: null,
        reversesTransactionId: null,
      })),
    },
    balanceHistory: Array.from({ length: 31 }, (_, day) => ({
      at: new Date(Date.UTC(2025, 0, 2 + day)).toISOString(),
      posted: String(Math.min(entries, day * 1440) * 2),
    })),
  };
}

const LARGE = 10_000;

/**
 * The event loop's longest stall (ms) while `work` runs: the longest gap between two turns of a 5 ms interval,
 * counting the turn after `work`. (perf_hooks' monitorEventLoopDelay under-reports one long stall: on Node 20 its
 * max read 14 ms around a 6 s synchronous render.)
 */
async function longestStallMs(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const interval = setInterval(tick, 5);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 20));
    tick();
  } finally {
    clearInterval(interval);
  }
  return longest;
}

const busy = (error: unknown) => isDomainError(error) && error.code === 'STATEMENT_RENDERING_BUSY';

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const pool of closing.splice(0)) await pool.close();
});
function pool(options: ConstructorParameters<typeof StatementPdfPool>[0]) {
  const created = new StatementPdfPool(options);
  closing.push(created);
  return created;
}
function renderer(options: ConstructorParameters<typeof StatementPdfs>[0]) {
  const created = new StatementPdfs(options);
  closing.push(created);
  return created;
}

describe('the statement PDF pool', () => {
  it('draws the same bytes as the renderer on the event loop', async () => {
    const workers = pool({ workers: 1, maxPending: 2 });
    for (const document of [
      statementDocument(3),
      statementDocument(400),
      { ...statementDocument(2), holderNames: null },
    ]) {
      expect(Buffer.compare(await workers.render(document), await statementPdf(document))).toBe(0);
    }
    expect(workers.pending()).toBe(0);
  });

  it('keeps the event loop turning while it draws 10,000 entries, where drawing them on the loop stalls it', async () => {
    const document = statementDocument(LARGE);
    const workers = pool({ workers: 1, maxPending: 1 });
    // The worker's start (loading the renderer) is not what is compared.
    await workers.render(statementDocument(1));
    const inPool = await longestStallMs(() => workers.render(document));
    const onLoop = await longestStallMs(() => statementPdf(document));
    expect(onLoop).toBeGreaterThan(4 * inPool);
  });

  it('refuses a render beyond maxPending at once with STATEMENT_RENDERING_BUSY, and has room again once one has finished', async () => {
    let refusals = 0;
    const workers = pool({ workers: 1, maxPending: 2, onRefused: () => refusals++ });
    const first = workers.render(statementDocument(LARGE));
    const queued = workers.render(statementDocument(5));
    expect(workers.pending()).toBe(2);
    const refused = await workers.render(statementDocument(1)).then(
      () => 'rendered',
      (error: unknown) => error,
    );
    expect(busy(refused)).toBe(true);
    expect(refused).toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('maximum of 2 statement PDFs'),
    });
    expect(refusals).toBe(1);
    await Promise.all([first, queued]);
    expect(workers.pending()).toBe(0);
    expect((await workers.render(statementDocument(1))).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('fails the render of a worker that cannot start, and the pool has its room back', async () => {
    const workers = pool({ workers: 1, maxPending: 1, workerUrl: new URL('./no-such-worker.js', import.meta.url) });
    await expect(workers.render(statementDocument(1))).rejects.toThrow(/statement PDF worker stopped/);
    expect(workers.pending()).toBe(0);
    await expect(workers.render(statementDocument(1))).rejects.toThrow(/statement PDF worker stopped/);
  });

  it('fails what is pending when it is closed', async () => {
    const workers = new StatementPdfPool({ workers: 1, maxPending: 2 });
    const pending = Promise.allSettled([workers.render(statementDocument(2000)), workers.render(statementDocument(1))]);
    await workers.close();
    expect(await pending).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }) },
      { status: 'rejected', reason: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }) },
    ]);
    await expect(workers.render(statementDocument(1))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('statement PDFs kept by content', () => {
  it('draws an ended statement asked twice once, and answers the same bytes', async () => {
    let renders = 0;
    let hits = 0;
    const pdfs = renderer({
      workers: 1,
      maxPending: 1,
      cacheBytes: 1024 * 1024,
      onRendered: () => renders++,
      onCacheHit: () => hits++,
    });
    const first = await pdfs.render(statementDocument(50));
    // Built again, as a second request reads it again: equal content, another object.
    const second = await pdfs.render(statementDocument(50));
    expect(Buffer.compare(first, second)).toBe(0);
    expect(Buffer.compare(first, await statementPdf(statementDocument(50)))).toBe(0);
    expect({ renders, hits }).toEqual({ renders: 1, hits: 1 });
    expect(pdfs.cachedBytes()).toBe(first.length);
    // Other content is another key: another render.
    await pdfs.render(statementDocument(50, { accountName: 'Savings' }));
    await pdfs.render({ ...statementDocument(50), holderNames: null });
    expect(renders).toBe(3);
  });

  it('never keeps an open period', async () => {
    let renders = 0;
    let hits = 0;
    const pdfs = renderer({
      workers: 1,
      maxPending: 1,
      cacheBytes: 1024 * 1024,
      onRendered: () => renders++,
      onCacheHit: () => hits++,
    });
    const document = statementDocument(20, { open: true });
    await pdfs.render(document);
    await pdfs.render(document);
    expect({ renders, hits, kept: pdfs.cachedBytes() }).toEqual({ renders: 2, hits: 0, kept: 0 });
  });

  it('answers a kept PDF while the pool is full, and shares one render between identical requests in flight', async () => {
    let renders = 0;
    const pdfs = renderer({ workers: 1, maxPending: 1, cacheBytes: 1024 * 1024, onRendered: () => renders++ });
    const kept = await pdfs.render(statementDocument(10));
    const large = pdfs.render(statementDocument(LARGE));
    const same = pdfs.render(statementDocument(LARGE));
    expect(pdfs.pending()).toBe(1);
    expect(Buffer.compare(await pdfs.render(statementDocument(10)), kept)).toBe(0);
    await expect(pdfs.render(statementDocument(11))).rejects.toMatchObject({ code: 'STATEMENT_RENDERING_BUSY' });
    const [one, other] = await Promise.all([large, same]);
    expect(one).toBe(other);
    expect(renders).toBe(2);
  });

  it('keys on the renderer version and every datum drawn', () => {
    const document = statementDocument(3);
    expect(statementPdfKey(statementDocument(3))).toBe(statementPdfKey(document));
    const changed: StatementDocument[] = [
      { ...document, accountName: 'Other' },
      { ...document, holderNames: null },
      { ...document, holderNames: [] },
      { ...document, balanceHistory: document.balanceHistory.slice(1) },
      { ...document, statement: { ...document.statement, asOfSequence: '4' } },
      {
        ...document,
        statement: {
          ...document.statement,
          entries: document.statement.entries.map((entry, i) => (i === 2 ? { ...entry, description: 'Rent' } : entry)),
        },
      },
    ];
    expect(new Set([document, ...changed].map(statementPdfKey)).size).toBe(changed.length + 1);
  });
});

describe('the byte-budget LRU', () => {
  const bytes = (n: number) => Buffer.alloc(n);

  it('evicts the least recently used to stay within its budget, and never keeps one larger than the budget', () => {
    const lru = new ByteBudgetLru(100);
    lru.set('a', bytes(40));
    lru.set('b', bytes(40));
    expect(lru.get('a')).toBeDefined();
    lru.set('c', bytes(40));
    expect([lru.get('a') !== undefined, lru.get('b') !== undefined, lru.get('c') !== undefined]).toEqual([
      true,
      false,
      true,
    ]);
    expect(lru.bytes()).toBe(80);
    lru.set('huge', bytes(101));
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.bytes()).toBe(80);
    lru.set('a', bytes(10));
    expect(lru.bytes()).toBe(50);
    lru.set('d', bytes(90));
    expect({ size: lru.size(), bytes: lru.bytes() }).toEqual({ size: 2, bytes: 100 });
    expect(lru.get('d')).toBeDefined();
  });

  it('keeps nothing with a budget of 0', () => {
    const lru = new ByteBudgetLru(0);
    lru.set('a', bytes(1));
    expect({ size: lru.size(), bytes: lru.bytes() }).toEqual({ size: 0, bytes: 0 });
  });
});
