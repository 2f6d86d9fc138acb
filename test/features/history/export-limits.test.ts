import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { seedPostings } from '../../../scripts/history/seed-ledger.js';
import { configProblems } from '../../support/config.js';
import { metricSample } from '../../support/metrics.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../../support/service.js';
import { createCustomer, expectSuccess } from '../../rest/helpers.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

/**
 * The ledger export holds a snapshot and a connection for its whole run: an instance runs at most
 * LEDGER_EXPORT_MAX_CONCURRENT at once (one more: 503 LEDGER_EXPORTS_FULL), and a client that goes away gives
 * both back at once (docs/adr/0069-ledger-export-memory-and-concurrency.md).
 */
const METRICS_TOKEN = 'metrics-scraper-token-for-ledger-exports-01';
const ENTRIES = 20_000;

let service: TestService;
let busy: string;
beforeAll(async () => {
  service = await startTestService({ LEDGER_EXPORT_MAX_CONCURRENT: '1', METRICS_TOKEN });
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
    from: new Date('2025-01-01T00:00:00Z'),
    to: new Date('2025-06-01T00:00:00Z'),
  });
});
afterAll(async () => service?.stop());

const exportUrl = () => `${service.url}/sandbox/ledger-entries?accountId=${busy}`;
const scrape = async () =>
  (await service.call('GET', '/metrics', { auth: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text;
const exportsRunning = async () => metricSample(await scrape(), 'quota_usage', { quota: 'ledger_exports' });
const openTransactions = async () =>
  (
    await service.database.pool.query<{ open: number }>(
      "SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    )
  ).rows[0]!.open;

/** Polls until `done` holds, for at most a hung test's deadline; answers whether it did. */
async function eventually(done: () => Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; Date.now() < deadline;) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** An export whose client reads its first bytes and then stops reading: the service waits on it, holding its slot. */
async function stalledExport() {
  const controller = new AbortController();
  const response = await fetch(exportUrl(), {
    headers: { authorization: `Bearer ${service.token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  await response.body!.getReader().read();
  return { abort: () => controller.abort() };
}

describe('ledger export limits', () => {
  it('refuses an export beyond LEDGER_EXPORT_MAX_CONCURRENT with 503 LEDGER_EXPORTS_FULL; an export whose client went away frees its slot and its connection', async () => {
    const stalled = await stalledExport();
    expect(await exportsRunning()).toBe(1);

    const refused = await service.call('GET', `/sandbox/ledger-entries?accountId=${busy}`, {
      headers: { accept: 'text/csv' },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json).toMatchObject({ error: { code: 'LEDGER_EXPORTS_FULL' }, log_ref_id: expect.any(String) });
    // A bad request is told what is wrong with it, whether or not the instance has room.
    const invalid = await service.call('GET', '/sandbox/ledger-entries?from=yesterday');
    expect(invalid.status).toBe(400);
    const metrics = await scrape();
    expect(metricSample(metrics, 'quota_refusals_total', { quota: 'ledger_exports' })).toBe(1);
    expect(metricSample(metrics, 'quota_limit', { quota: 'ledger_exports' })).toBe(1);

    stalled.abort();
    // Released without waiting for any time-out: no transaction stays open, the slot is free.
    expect(await eventually(async () => (await exportsRunning()) === 0 && (await openTransactions()) === 0)).toBe(true);

    const response = await fetch(exportUrl(), {
      headers: { authorization: `Bearer ${service.token}`, accept: 'application/x-ndjson' },
    });
    expect(response.status).toBe(200);
    expect((await response.text()).trimEnd().split('\n')).toHaveLength(ENTRIES);
    expect(await exportsRunning()).toBe(0);
  });

  it('releases the slot of an export that fails before it starts reading, and of one that ends normally', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${exportUrl()}&from=2025-05-31T00:00:00Z`, {
        headers: { authorization: `Bearer ${service.token}`, accept: 'text/csv' },
      });
      expect(response.status).toBe(200);
      await response.text();
    }
    // A client that goes away right after the status line, before any entry was read.
    const controller = new AbortController();
    const response = await fetch(exportUrl(), {
      headers: { authorization: `Bearer ${service.token}`, accept: 'text/csv' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    controller.abort();
    expect(await eventually(async () => (await exportsRunning()) === 0 && (await openTransactions()) === 0)).toBe(true);
  });
});

describe('LEDGER_EXPORT_MAX_CONCURRENT', () => {
  const base = { API_TOKENS: 'a-5jqRnzXE31tXt_Kvy-Uk8HSQEXu-kraXoCUQUmJHcJfjSya0CPS29invA', ...TEST_PII_ENV };

  it('defaults to two, always fewer than the pool has connections (one with a pool of one or two)', () => {
    expect(loadConfig(base).ledgerExportMaxConcurrent).toBe(2);
    expect(loadConfig({ ...base, DATABASE_POOL_SIZE: '2' }).ledgerExportMaxConcurrent).toBe(1);
    expect(loadConfig({ ...base, DATABASE_POOL_SIZE: '1' }).ledgerExportMaxConcurrent).toBe(1);
    expect(loadConfig({ ...base, LEDGER_EXPORT_MAX_CONCURRENT: '5' }).ledgerExportMaxConcurrent).toBe(5);
  });

  it('must be a whole number from 1, and leave the pool a connection for every other request', () => {
    expect(configProblems({ ...base, LEDGER_EXPORT_MAX_CONCURRENT: '0' })).toEqual([
      'LEDGER_EXPORT_MAX_CONCURRENT: LEDGER_EXPORT_MAX_CONCURRENT must be between 1 and 1000',
    ]);
    expect(configProblems({ ...base, LEDGER_EXPORT_MAX_CONCURRENT: 'two' })).toEqual([
      expect.stringContaining('LEDGER_EXPORT_MAX_CONCURRENT must be a whole number'),
    ]);
    expect(configProblems({ ...base, DATABASE_POOL_SIZE: '4', LEDGER_EXPORT_MAX_CONCURRENT: '4' })).toEqual([
      expect.stringContaining('LEDGER_EXPORT_MAX_CONCURRENT must be less than DATABASE_POOL_SIZE'),
    ]);
  });
});
