import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { seedPostings } from '../../../scripts/history/seed-ledger.js';
import { EXPORT_BATCH_SIZE } from '../../../src/features/history/history.service.js';
import { HISTORY_LIMITS } from '../../../src/features/history/history.schemas.js';
import { isoInstant } from '../../../src/db/sql/columns.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

async function newAccount(currency = 'USD', customerIds?: string[]) {
  const holders = customerIds ?? [(await createCustomer(service)).customerId];
  const res = await service.call('POST', '/sandbox/account', {
    body: { associatedCustomerIds: holders, name: 'Everyday Checking', currency, type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

async function post(accountId: string, body: Record<string, unknown>) {
  const res = await service.call('POST', `/sandbox/account/${accountId}/transaction`, { body });
  expectSuccess(res, 'account', 201);
  return res.json.data as { transactionId: string; postedAt: string | null; createdAt: string };
}

const get = (pathname: string, headers: Record<string, string> = {}) => service.call('GET', pathname, { headers });
/** The raw bytes of an answer (CSV, PDF), with the service's token. */
async function bytes(pathname: string, accept: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const response = await fetch(`${service.url}${pathname}`, {
    headers: { authorization: `Bearer ${service.token}`, accept },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}
const later = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

describe('balance as of a moment', () => {
  it('is 0 before the first posting, then the balances of each moment, holds counted while they were open', async () => {
    const accountId = await newAccount();
    const before = new Date(Date.now() - 60_000).toISOString();
    const first = await post(accountId, { type: 'CREDIT', amount: 100 });
    const hold = await post(accountId, { type: 'DEBIT', amount: 30, hold: true });
    const second = await post(accountId, { type: 'DEBIT', amount: 20.5 });
    const held = (await get(`/sandbox/account/${accountId}`)).json.data;
    const posted = await service.call('POST', `/sandbox/account/${accountId}/transaction/${hold.transactionId}/post`, {
      body: {},
    });
    expectSuccess(posted, 'account', 200);

    const at = async (asOf: string) => {
      const res = await get(`/sandbox/account/${accountId}/balance?asOf=${encodeURIComponent(asOf)}`);
      expectSuccess(res, 'account', 200);
      return res.json.data;
    };
    expect(await at(before)).toEqual({ accountId, currency: 'USD', asOf: before, posted: 0, pending: 0, available: 0 });
    expect(await at(first.postedAt!)).toMatchObject({ posted: 100, pending: 100, available: 100 });
    // After the second posting, while the hold was still open.
    expect(await at(second.postedAt!)).toMatchObject({ posted: 79.5, pending: 49.5, available: 49.5 });
    expect(held).toMatchObject({ amount: 79.5 });
    // Now: the hold posted.
    const now = await get(`/sandbox/account/${accountId}/balance`);
    expectSuccess(now, 'account', 200);
    expect(now.json.data).toMatchObject({ posted: 49.5, pending: 49.5, available: 49.5 });
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('refuses a malformed asOf and an unknown account, reading nothing else', async () => {
    const accountId = await newAccount();
    const bad = await expectNoChange(service.database.pool, () =>
      get(`/sandbox/account/${accountId}/balance?asOf=yesterday`),
    );
    expectFailure(bad, 'account', 400, 'VALIDATION_FAILED');
    expect(bad.json.error.details[0]).toMatchObject({ field: 'asOf', code: 'INVALID_FORMAT' });
    expectFailure(
      await get('/sandbox/account/0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e/balance'),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
  });
});

describe('balance history', () => {
  it('answers the closing posted balance of each interval, for backdated history too', async () => {
    const accountId = await newAccount('CHF');
    // 30 postings over three days of 2026-01 (the bulk path; CHF is this test's own currency).
    await seedPostings(service.database.pool, {
      environment: 'sandbox',
      accountId,
      count: 30,
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-01-04T00:00:00Z'),
    });
    const res = await get(
      `/sandbox/account/${accountId}/balance-history?from=2025-12-31T12:00:00Z&to=2026-01-05T00:00:00Z&interval=day`,
    );
    expectSuccess(res, 'account', 200);
    // Ten postings a day: 1..10, 11..20, 21..30; every third debits 5, the others credit 10.
    const closing = (n: number) =>
      Array.from({ length: n }, (_, i) => ((i + 1) % 3 === 0 ? -5 : 10)).reduce((a, b) => a + b, 0);
    expect(res.json.data.points).toEqual([
      { at: '2026-01-01T00:00:00.000Z', posted: 0 },
      { at: '2026-01-02T00:00:00.000Z', posted: closing(10) },
      { at: '2026-01-03T00:00:00.000Z', posted: closing(20) },
      { at: '2026-01-04T00:00:00.000Z', posted: closing(30) },
      { at: '2026-01-05T00:00:00.000Z', posted: closing(30) },
    ]);
    const hourly = await get(
      `/sandbox/account/${accountId}/balance-history?from=2026-01-01T00:00:00Z&to=2026-01-01T03:00:00Z&interval=hour`,
    );
    expect(hourly.json.data.points.map((point: { at: string }) => point.at)).toEqual([
      '2026-01-01T01:00:00.000Z',
      '2026-01-01T02:00:00.000Z',
      '2026-01-01T03:00:00.000Z',
    ]);
    const monthly = await get(
      `/sandbox/account/${accountId}/balance-history?from=2026-01-15T00:00:00Z&to=2026-03-01T00:00:00Z&interval=month`,
    );
    expect(monthly.json.data.points).toEqual([
      { at: '2026-02-01T00:00:00.000Z', posted: closing(30) },
      { at: '2026-03-01T00:00:00.000Z', posted: closing(30) },
    ]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('refuses a range of more than 1000 points (TOO_MANY_POINTS), a reversed range and an unknown interval', async () => {
    const accountId = await newAccount();
    const tooMany = await expectNoChange(service.database.pool, () =>
      get(
        `/sandbox/account/${accountId}/balance-history?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&interval=day`,
      ),
    );
    expectFailure(tooMany, 'account', 400, 'VALIDATION_FAILED');
    expect(tooMany.json.error.details).toEqual([expect.objectContaining({ field: 'to', code: 'TOO_MANY_POINTS' })]);
    const reversed = await get(
      `/sandbox/account/${accountId}/balance-history?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z&interval=day`,
    );
    expectFailure(reversed, 'account', 400, 'VALIDATION_FAILED');
    expect(reversed.json.error.details).toEqual([expect.objectContaining({ field: 'to', code: 'OUT_OF_RANGE' })]);
    const week = await get(
      `/sandbox/account/${accountId}/balance-history?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&interval=week`,
    );
    expectFailure(week, 'account', 400, 'VALIDATION_FAILED');
  });
});

describe('statements', () => {
  let accountId: string;
  let holder: {
    customerId: string;
    input: { firstName: string; lastName: string; socialSecurityNumber: string; documentLocatorNumber: number };
  };
  let from: string;
  let to: string;
  beforeAll(async () => {
    holder = (await createCustomer(service, { firstName: 'Ottilie', lastName: 'Quarrington' })) as typeof holder;
    accountId = await newAccount('USD', [holder.customerId]);
    const opening = await post(accountId, { type: 'CREDIT', amount: 500, description: 'Opening deposit' });
    from = later(opening.postedAt!, 1);
    await post(accountId, { type: 'DEBIT', amount: 120.25, description: 'Rent, "March"' });
    await post(accountId, { type: 'CREDIT', amount: 42, description: '=HYPERLINK("x")' });
    const last = await post(accountId, { type: 'DEBIT', amount: 0.75 });
    to = later(last.postedAt!, 1);
    await post(accountId, { type: 'CREDIT', amount: 1000, description: 'After the period' });
  });

  it('JSON: opening + credits − debits = closing, the posted entries of the period in order, and the sequence it reflects', async () => {
    const res = await get(`/sandbox/account/${accountId}/statement?from=${from}&to=${to}`);
    expectSuccess(res, 'account', 200);
    const statement = res.json.data;
    expect(statement).toMatchObject({
      accountId,
      currency: 'USD',
      from,
      to,
      openingBalance: 500,
      totalCredits: 42,
      totalDebits: 121,
      closingBalance: 421,
    });
    expect(statement.entries.map((entry: { amount: number; type: string }) => `${entry.type} ${entry.amount}`)).toEqual(
      ['DEBIT 120.25', 'CREDIT 42', 'DEBIT 0.75'],
    );
    expect(statement.entries.at(-1).balanceAfter).toBe(421);
    expect(statement.asOfSequence).toBe(statement.entries.at(-1).sequence);
    const again = await get(`/sandbox/account/${accountId}/statement?from=${from}&to=${to}`);
    expect(again.json.data).toEqual(statement);
  });

  it('CSV: RFC 4180 with a header row, opening and closing rows, quoted fields, formulas made inert; the same bytes twice', async () => {
    const first = await bytes(`/sandbox/account/${accountId}/statement?from=${from}&to=${to}`, 'text/csv');
    expect(first.status).toBe(200);
    expect(first.type).toMatch(/^text\/csv/);
    const lines = first.body.toString('utf8').split('\r\n');
    expect(lines[0]).toBe('kind,postedAt,transactionId,description,amount,balance,currency,sequence');
    expect(lines[1]).toBe(`OPENING_BALANCE,${from},,,,500,USD,`);
    expect(lines[2]).toMatch(/^DEBIT,.*,"Rent, ""March""",120.25,379.75,USD,\d+$/);
    expect(lines[3]).toContain(`,"'=HYPERLINK(""x"")",42,421.75,USD,`);
    expect(lines[5]).toMatch(new RegExp(`^CLOSING_BALANCE,${to.replace(/[.]/g, '\\.')},,,,421,USD,\\d+$`));
    expect(lines[6]).toBe('');
    expect(
      (await bytes(`/sandbox/account/${accountId}/statement?from=${from}&to=${to}`, 'text/csv')).body.equals(
        first.body,
      ),
    ).toBe(true);
  });

  it("PDF: the holders' names, the period, the balances, the entries and page numbers; never an SSN or document locator number; the same bytes twice", async () => {
    const first = await bytes(`/sandbox/account/${accountId}/statement?from=${from}&to=${to}`, 'application/pdf');
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/pdf');
    expect(first.body.subarray(0, 5).toString()).toBe('%PDF-');
    const second = await bytes(`/sandbox/account/${accountId}/statement?from=${from}&to=${to}`, 'application/pdf');
    expect(second.body.equals(first.body)).toBe(true);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-statement-'));
    try {
      writeFileSync(path.join(dir, 'statement.pdf'), first.body);
      execFileSync('pdftotext', ['-layout', path.join(dir, 'statement.pdf'), path.join(dir, 'statement.txt')]);
      const text = readFileSync(path.join(dir, 'statement.txt'), 'utf8');
      expect(text).toContain('Account statement');
      expect(text).toContain('Ottilie');
      expect(text).toContain('Quarrington');
      expect(text).toContain(
        `${from.slice(0, 10)} ${from.slice(11, 16)} UTC to ${to.slice(0, 10)} ${to.slice(11, 16)} UTC`,
      );
      expect(text).toMatch(/Opening balance\s+500\.00 USD/);
      expect(text).toMatch(/Closing balance\s+421\.00 USD/);
      expect(text).toContain('120.25');
      expect(text).toContain('Page 1 of 1');
      const digits = holder.input.socialSecurityNumber.replace(/\D/g, '');
      for (const haystack of [text, text.replace(/\D/g, ''), first.body.toString('latin1')]) {
        expect(haystack).not.toContain(holder.input.socialSecurityNumber);
        expect(haystack).not.toContain(digits);
        expect(haystack).not.toContain(String(holder.input.documentLocatorNumber));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PDF: many entries take several numbered pages', async () => {
    const busy = await newAccount('SEK');
    await seedPostings(service.database.pool, {
      environment: 'sandbox',
      accountId: busy,
      count: 150,
      from: new Date('2026-02-01T00:00:00Z'),
      to: new Date('2026-03-01T00:00:00Z'),
    });
    const pdf = await bytes(
      `/sandbox/account/${busy}/statement?from=2026-02-01T00:00:00Z&to=2026-03-01T00:00:00Z`,
      'application/pdf',
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-statement-'));
    try {
      writeFileSync(path.join(dir, 'statement.pdf'), pdf.body);
      const text = execFileSync('pdftotext', [path.join(dir, 'statement.pdf'), '-']).toString('utf8');
      const pages = [...text.matchAll(/Page (\d+) of (\d+)/g)];
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.map((match) => match[1])).toEqual(pages.map((_, i) => String(i + 1)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a period of more than 10,000 posted entries with STATEMENT_TOO_LARGE in every format, and serves one of exactly 10,000', async () => {
    const busy = await newAccount('NOK');
    const [start, end] = ['2026-04-01T00:00:00.000Z', '2026-04-11T00:00:00.000Z'];
    await seedPostings(service.database.pool, {
      environment: 'sandbox',
      accountId: busy,
      count: HISTORY_LIMITS.maxStatementEntries + 1,
      from: new Date(start),
      to: new Date(end),
    });
    const over = await get(`/sandbox/account/${busy}/statement?from=${start}&to=${end}`);
    expectFailure(over, 'account', 400, 'STATEMENT_TOO_LARGE');
    expect(over.json.error.message).toContain('10000');
    for (const accept of ['text/csv', 'application/pdf'])
      expect((await bytes(`/sandbox/account/${busy}/statement?from=${start}&to=${end}`, accept)).status, accept).toBe(
        400,
      );
    // Up to the last posting, not including it: exactly the limit.
    const { rows } = await service.database.pool.query<{ last: string }>(
      `SELECT ${isoInstant('max(posted_at)')} AS last FROM ledger_entries WHERE account_id = $1`,
      [busy],
    );
    const atLimit = await get(`/sandbox/account/${busy}/statement?from=${start}&to=${rows[0]!.last}`);
    expectSuccess(atLimit, 'account', 200);
    expect(atLimit.json.data.entries).toHaveLength(HISTORY_LIMITS.maxStatementEntries);
    // Read and written in pieces of a few hundred entries: joined in posting order, each balance the one before plus its amount.
    const entries = atLimit.json.data.entries as {
      type: string;
      amount: number;
      balanceAfter: number;
      sequence: string;
    }[];
    const cents = (value: number) => Math.round(value * 100);
    let balance = cents(atLimit.json.data.openingBalance);
    entries.forEach((entry, i) => {
      if (i > 0) expect(BigInt(entry.sequence) > BigInt(entries[i - 1]!.sequence), `entry ${i}`).toBe(true);
      balance += entry.type === 'CREDIT' ? cents(entry.amount) : -cents(entry.amount);
      expect(cents(entry.balanceAfter), `entry ${i}`).toBe(balance);
    });
    expect(balance).toBe(cents(atLimit.json.data.closingBalance));
    const raw = await fetch(`${service.url}/sandbox/account/${busy}/statement?from=${start}&to=${rows[0]!.last}`, {
      headers: { authorization: `Bearer ${service.token}` },
    });
    expect(Number(raw.headers.get('content-length'))).toBe(Buffer.from(await raw.arrayBuffer()).length);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('answers 406 NOT_ACCEPTABLE for an Accept it cannot serve, and refuses a reversed period', async () => {
    const res = await get(`/sandbox/account/${accountId}/statement?from=${from}&to=${to}`, {
      accept: 'application/xml',
    });
    expectFailure(res, 'account', 406, 'NOT_ACCEPTABLE');
    expect(res.json.error.message).toContain('text/csv');
    expectFailure(
      await get(`/sandbox/account/${accountId}/statement?from=${to}&to=${from}`),
      'account',
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('ledger export', () => {
  const exportOf = async (query: string, accept: string, token = service.token) => {
    const response = await fetch(`${service.url}/sandbox/ledger-entries${query}`, {
      headers: { authorization: `Bearer ${token}`, accept },
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
      to: response.headers.get('ledger-export-to'),
    };
  };

  it('streams every posted entry with its kind as NDJSON; per currency debits equal credits', async () => {
    const a = await newAccount();
    const b = await newAccount();
    await post(a, { type: 'CREDIT', amount: 80 });
    await service.call('POST', '/sandbox/transfer', { body: { fromAccountId: a, toAccountId: b, amount: 30.5 } });
    await post(b, { type: 'DEBIT', amount: 10, hold: true });
    const res = await exportOf('', 'application/x-ndjson');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/x-ndjson/);
    const entries = res.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(Object.keys(entries[0]).sort()).toEqual([
      'accountId',
      'accountKind',
      'amount',
      'currency',
      'direction',
      'postedAt',
      'postingId',
      'sequence',
      'transactionId',
    ]);
    expect(entries.some((entry) => entry.accountKind === 'SETTLEMENT')).toBe(true);
    expect(
      entries.filter((entry) => entry.accountId === b).map((entry) => `${entry.direction} ${entry.amount}`),
    ).toEqual(['CREDIT 30.5']);
    const cents = new Map<string, bigint>();
    for (const entry of entries) {
      const [whole, fraction = ''] = entry.amount.split('.');
      const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
      cents.set(entry.currency, (cents.get(entry.currency) ?? 0n) + (entry.direction === 'CREDIT' ? value : -value));
    }
    for (const [currency, sum] of cents) expect(sum, currency).toBe(0n);
    // In posting order.
    const keys = entries.map((entry) => [entry.postedAt, BigInt(entry.sequence)] as const);
    expect(
      keys.every(
        (key, i) => i === 0 || key[0] > keys[i - 1]![0] || (key[0] === keys[i - 1]![0] && key[1] > keys[i - 1]![1]),
      ),
    ).toBe(true);
  });

  it('as CSV with a header row, and for one account', async () => {
    const a = await newAccount();
    await post(a, { type: 'CREDIT', amount: 12 });
    await post(a, { type: 'DEBIT', amount: 2 });
    const res = await exportOf(`?accountId=${a}`, 'text/csv');
    expect(res.status).toBe(200);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('sequence,postedAt,currency,direction,amount,accountId,accountKind,transactionId,postingId');
    expect(lines.slice(1, -1).map((line) => line.split(',').slice(2, 7).join(' '))).toEqual([
      `USD CREDIT 12 ${a} CUSTOMER`,
      `USD DEBIT 2 ${a} CUSTOMER`,
    ]);
  });

  it('needs ledger:export, which an auditor holds without any write scope; accounts:read is not enough', async () => {
    const { token: auditor } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['ledger:export'],
    });
    expect((await exportOf('', 'application/x-ndjson', auditor)).status).toBe(200);
    const { token: reader } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['accounts:read'],
    });
    const refused = await exportOf('', 'application/x-ndjson', reader);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).error.code).toBe('FORBIDDEN');
    expect((await exportOf('', 'application/pdf')).status).toBe(406);
    const bad = await exportOf('?from=yesterday', 'text/csv');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({
      error: { code: 'VALIDATION_FAILED' },
      log_ref_id: expect.any(String),
    });
  });

  it('stops reading when the client goes away', async () => {
    const busy = await newAccount('NOK');
    await seedPostings(service.database.pool, {
      environment: 'sandbox',
      accountId: busy,
      count: 20_000,
      from: new Date('2025-01-01T00:00:00Z'),
      to: new Date('2025-06-01T00:00:00Z'),
    });
    service.statements.names.length = 0;
    const controller = new AbortController();
    const response = await fetch(`${service.url}/sandbox/ledger-entries?accountId=${busy}`, {
      headers: { authorization: `Bearer ${service.token}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    // The export's snapshot ends with the stream: no transaction of the service stays open behind it.
    let open = 1;
    for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; open > 0 && Date.now() < deadline;) {
      const { rows } = await service.database.pool.query<{ open: number }>(
        "SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
      );
      open = rows[0]!.open;
      if (open > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(open).toBe(0);
    // The account's entries fill 20,000 / EXPORT_BATCH_SIZE batches; the export read only those the client's buffers took.
    const batches = service.statements.names.filter(
      (name) => name === 'cas_history_export_account_batch_ndjson',
    ).length;
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(20_000 / EXPORT_BATCH_SIZE);
    const after = await exportOf(`?accountId=${busy}&from=2025-05-31T00:00:00Z`, 'application/x-ndjson');
    expect(after.status).toBe(200);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});
