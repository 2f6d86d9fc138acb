import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPostings } from '../../../scripts/history/seed-ledger.js';
import { loadConfig } from '../../../src/config/config.js';
import { configProblems } from '../../support/config.js';
import { metricSample } from '../../support/metrics.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';

/**
 * Statement PDFs on the running service (docs/statements.md, "Rendering a PDF"): drawn by a rendering worker, so
 * the instance keeps answering while one draws 10,000 entries; at most STATEMENT_PDF_MAX_PENDING in flight or
 * queued (one more: 503 STATEMENT_RENDERING_BUSY with Retry-After); an ended period's PDF kept by content, an
 * open one never. Outcomes only: no assertion on how long anything takes.
 */
const METRICS_TOKEN = 'metrics-scraper-token-for-statement-pdfs-01';
const ENTRIES = 10_000;
// The seeded postings are spread evenly over [START, END): the whole period holds 10,000 (the most a statement shows), January about a third.
const START = '2025-01-01T00:00:00.000Z';
const END = '2025-04-01T00:00:00.000Z';
const JANUARY_END = '2025-02-01T00:00:00.000Z';

let service: TestService;
let busy: string;
beforeAll(async () => {
  service = await startTestService({ STATEMENT_PDF_WORKERS: '1', STATEMENT_PDF_MAX_PENDING: '1', METRICS_TOKEN });
  const customer = await createCustomer(service);
  const res = await service.call('POST', '/sandbox/account', {
    body: { associatedCustomerIds: [customer.customerId], name: 'Busy', currency: 'SEK', type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  busy = res.json.data.accountId;
  await seedPostings(service.database.pool, {
    environment: 'sandbox',
    accountId: busy,
    count: ENTRIES,
    from: new Date(START),
    to: new Date(END),
  });
});
afterAll(async () => service?.stop());

const statementPath = (accountId: string, from: string, to: string) =>
  `/sandbox/account/${accountId}/statement?from=${from}&to=${to}`;
/** A statement as PDF, its raw bytes. */
async function pdf(pathname: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const response = await fetch(`${service.url}${pathname}`, {
    headers: { authorization: `Bearer ${service.token}`, accept: 'application/pdf' },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}
const scrape = async () =>
  (await service.call('GET', '/metrics', { auth: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text;
const sample = async (name: string, labels: Record<string, string>) =>
  metricSample(await scrape(), name, labels) ?? Number.NaN;
const rendersPending = () => sample('quota_usage', { quota: 'statement_pdf_renders' });
const counts = async () => {
  const metrics = await scrape();
  return {
    rendered: metricSample(metrics, 'statement_pdfs_total', { outcome: 'rendered' }),
    cached: metricSample(metrics, 'statement_pdfs_total', { outcome: 'cached' }),
    refused: metricSample(metrics, 'quota_refusals_total', { quota: 'statement_pdf_renders' }),
  };
};

/** Polls (bounded in attempts, not time) until `done` holds; answers whether it did. */
async function eventually(done: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 2000; attempt++) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

/** A PDF request left running, with whether its answer has come. */
function inFlight(pathname: string) {
  const state = { settled: false };
  const answer = pdf(pathname).finally(() => (state.settled = true));
  return { state, answer };
}

describe('statement PDFs on the running service', () => {
  let whole: Buffer;

  it('keeps answering /healthz while a statement of 10,000 entries renders, and refuses a second render beyond the quota with 503 STATEMENT_RENDERING_BUSY and Retry-After', async () => {
    const before = await counts();
    const large = inFlight(statementPath(busy, START, END));
    // The render is in flight: the instance says so (the metrics answer while it draws).
    expect(await eventually(async () => large.state.settled || (await rendersPending()) === 1)).toBe(true);
    expect(large.state.settled).toBe(false);

    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);

    // Another statement (not the same content, which would wait for the same render) finds no room.
    const refused = await service.call('GET', statementPath(busy, START, JANUARY_END), {
      headers: { accept: 'application/pdf' },
    });
    expectFailure(refused, 'account', 503, 'STATEMENT_RENDERING_BUSY');
    expect(refused.headers.get('retry-after')).toBe('1');
    // Both answered while the large statement was still drawing.
    expect(large.state.settled).toBe(false);
    // The statement as JSON does not wait for the renderer.
    expectSuccess(await service.call('GET', statementPath(busy, START, JANUARY_END)), 'account', 200);

    const answer = await large.answer;
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/pdf');
    expect(answer.body.subarray(0, 5).toString()).toBe('%PDF-');
    whole = answer.body;
    const after = await counts();
    expect({ rendered: after.rendered! - before.rendered!, refused: after.refused! - before.refused! }).toEqual({
      rendered: 1,
      refused: 1,
    });
    expect(await sample('quota_limit', { quota: 'statement_pdf_renders' })).toBe(1);
    expect(await rendersPending()).toBe(0);
  });

  it('renders an ended statement asked again once: the same bytes from memory, even while the renderer has no room', async () => {
    const before = await counts();
    // Hold the only render slot with another statement.
    const other = inFlight(statementPath(busy, JANUARY_END, END));
    expect(await eventually(async () => other.state.settled || (await rendersPending()) === 1)).toBe(true);
    const again = await pdf(statementPath(busy, START, END));
    expect(again.status).toBe(200);
    expect(again.body.equals(whole)).toBe(true);
    expect((await other.answer).status).toBe(200);
    const after = await counts();
    expect({ rendered: after.rendered! - before.rendered!, cached: after.cached! - before.cached! }).toEqual({
      rendered: 1,
      cached: 1,
    });
    expect(await sample('statement_pdf_cache_bytes', {})).toBeGreaterThanOrEqual(whole.length);
  });

  it('renders an open period on every request', async () => {
    const customer = await createCustomer(service);
    const res = await service.call('POST', '/sandbox/account', {
      body: { associatedCustomerIds: [customer.customerId], name: 'Open', currency: 'USD', type: 'CHECKING' },
    });
    expectSuccess(res, 'account', 201);
    const accountId = res.json.data.accountId as string;
    expectSuccess(
      await service.call('POST', `/sandbox/account/${accountId}/transaction`, { body: { type: 'CREDIT', amount: 25 } }),
      'account',
      201,
    );
    const from = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
    const to = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    const before = await counts();
    const first = await pdf(statementPath(accountId, from, to));
    const second = await pdf(statementPath(accountId, from, to));
    expect([first.status, second.status]).toEqual([200, 200]);
    const after = await counts();
    expect({ rendered: after.rendered! - before.rendered!, cached: after.cached! - before.cached! }).toEqual({
      rendered: 2,
      cached: 0,
    });
  });
});

describe('STATEMENT_PDF_* settings', () => {
  const base = { API_TOKENS: 'a-5jqRnzXE31tXt_Kvy-Uk8HSQEXu-kraXoCUQUmJHcJfjSya0CPS29invA', ...TEST_PII_ENV };

  it('default to one worker, four renders pending per worker, and 32 MiB of kept PDFs', () => {
    expect(loadConfig(base).statementPdf).toEqual({ workers: 1, maxPending: 4, cacheBytes: 32 * 1024 * 1024 });
    expect(loadConfig({ ...base, STATEMENT_PDF_WORKERS: '2' }).statementPdf).toMatchObject({
      workers: 2,
      maxPending: 8,
    });
    expect(
      loadConfig({ ...base, STATEMENT_PDF_MAX_PENDING: '3', STATEMENT_PDF_CACHE_BYTES: '0' }).statementPdf,
    ).toEqual({ workers: 1, maxPending: 3, cacheBytes: 0 });
    expect(loadConfig({ ...base, STATEMENT_PDF_CACHE_BYTES: '8mb' }).statementPdf.cacheBytes).toBe(8 * 1024 * 1024);
  });

  it('are checked at startup: whole numbers in range, and room for a render per worker', () => {
    expect(configProblems({ ...base, STATEMENT_PDF_WORKERS: '0' })).toEqual([
      'STATEMENT_PDF_WORKERS: STATEMENT_PDF_WORKERS must be between 1 and 16',
    ]);
    expect(configProblems({ ...base, STATEMENT_PDF_MAX_PENDING: 'many' })).toEqual([
      expect.stringContaining('STATEMENT_PDF_MAX_PENDING must be a whole number'),
    ]);
    expect(configProblems({ ...base, STATEMENT_PDF_CACHE_BYTES: '2gb' })).toEqual([
      expect.stringContaining('STATEMENT_PDF_CACHE_BYTES must look like'),
    ]);
    expect(configProblems({ ...base, STATEMENT_PDF_WORKERS: '4', STATEMENT_PDF_MAX_PENDING: '2' })).toEqual([
      expect.stringContaining('STATEMENT_PDF_MAX_PENDING must be at least STATEMENT_PDF_WORKERS'),
    ]);
  });
});
