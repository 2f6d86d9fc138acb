import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, openWatchedPage, signIn, type WatchedPage } from './helpers.js';

/**
 * The console's account and customer tools in headless Chromium against a live service: flags with reasons,
 * the balance chart, statement downloads, transaction filters, finding customers by phone number and external
 * id, creating and editing a customer, adding and removing holders. On every page: no script or CSP error, no
 * request to another origin, no serious or critical axe-core violation.
 */

let service: TestService;
let browser: Browser | undefined;
const suffix = randomUUID().slice(0, 8);
const lastName = `Hopper${suffix}`;
let customerId: string;
let otherCustomerId: string;
let accountId: string;

const readDownload = (path: string) => readFile(path);

async function ok(method: string, path: string, body?: unknown) {
  const res = await service.call(method, path, { body, headers: { 'idempotency-key': randomUUID() } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  service = await startTestService();
  customerId = (
    await ok('POST', '/sandbox/customer', buildCustomerInput({ firstName: 'Grace', middleName: 'Brewster', lastName, phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 7788' }], externalId: `crm-${suffix}` }))
  ).customerId;
  otherCustomerId = (await ok('POST', '/sandbox/customer', buildCustomerInput({ firstName: 'Alan', middleName: '', lastName: `Turing${suffix}` }))).customerId;
  accountId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Navy Checking' }))).accountId;
  await ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'CREDIT', amount: 500, description: 'Salary' });
  await ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'DEBIT', amount: 120.25, description: 'Rent' });
  await ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'DEBIT', amount: 7, description: 'Coffee hold', hold: true });
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s account and customer tools', () => {
  let watched: WatchedPage | undefined;
  const open = async () => {
    watched = await openWatchedPage(browser!, service.url);
    return watched;
  };
  const expectClean = () => {
    expect(watched!.problems).toEqual([]);
    expect(watched!.offsite).toEqual([]);
  };
  afterEach(async () => {
    await watched?.close();
    watched = undefined;
  });

  browserIt('freezes an account only with a reason, shows who set it, why and until when, and lifts it', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: 'Navy Checking' }).waitFor();
    // The form requires a reason: pressing without one sends nothing.
    await page.getByRole('button', { name: 'Set frozen' }).click();
    expect(await page.getByLabel('Reason').evaluate((input) => (input as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing)).toBe(true);
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.flags).toEqual([]);

    await page.getByLabel('Reason').fill('Suspicious login from a new device');
    await page.getByLabel(/Lifts itself at/).fill('2099-06-30T12:00');
    await page.getByRole('button', { name: 'Set frozen' }).click();
    const row = page.getByRole('table', { name: 'Flags set on the account' }).getByRole('row').filter({ hasText: 'Frozen' });
    await row.filter({ hasText: 'Suspicious login from a new device' }).waitFor();
    const details = (await service.call('POST', '/sandbox/graphql', { body: { query: `{ account(accountId: "${accountId}") { flagDetails { flag reason setBy setAt until } } }` } })).json.data.account.flagDetails;
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ flag: 'FROZEN', reason: 'Suspicious login from a new device' });
    expect(details[0].until).toMatch(/^2099-06-30T/);
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells).toEqual(['Frozen', 'Suspicious login from a new device', details[0].setBy, `${details[0].setAt.slice(0, 16).replace('T', ' ')} UTC`, `${details[0].until.slice(0, 16).replace('T', ' ')} UTC`]);
    expect(details[0].setBy).toMatch(/^static:/); // the principal as the audit trail names it
    await expectAccessible(page, 'account page with a flag');

    await page.getByRole('button', { name: 'Lift frozen' }).click();
    await page.getByText('No flags are set.').waitFor();
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.flags).toEqual([]);
    expectClean();
  });

  browserIt('draws the balance of the last 30 days as a named image with the points in a table', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    const chart = page.getByRole('img', { name: 'Balance over the last 30 days' });
    await chart.waitFor();
    expect(await chart.locator('svg path').count()).toBe(2);
    const table = page.getByRole('table', { name: 'Posted balance at the end of each of the last 30 days (UTC)' });
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    // Each point is the end of a day; the last is the end of today, at today's posted balance.
    expect(rows.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00(\.000)?Z\$379\.75$/);
    expect(rows.at(-1)! > today).toBe(true);
    expect(rows[0]).toContain('$0.00');
    await expectAccessible(page, 'account page with the balance chart');
    expectClean();
  });

  browserIt('downloads the statement as PDF and CSV with the token in a header, never in a URL', async () => {
    const { page } = await open();
    const urls: string[] = [];
    const statementRequests: { url: string; authorization: string | undefined; accept: string | undefined }[] = [];
    page.on('request', (request) => {
      urls.push(request.url());
      if (request.url().includes('/statement?')) statementRequests.push({ url: request.url(), authorization: request.headers().authorization, accept: request.headers().accept });
    });
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    // Last month by default.
    const now = new Date();
    const firstOfLastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    await expect(page.getByLabel('From', { exact: true }).inputValue()).resolves.toBe(firstOfLastMonth);
    const today = now.toISOString().slice(0, 10);
    const yesterday = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(yesterday);
    await page.getByLabel('To (included)').fill(today);

    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(pdf.suggestedFilename()).toBe(`statement-${accountId}-${yesterday}-to-${today}.pdf`);
    const pdfBytes = await readDownload(await pdf.path());
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const lines = (await readDownload(await csv.path())).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('kind,postedAt,transactionId,description,amount,balance,currency,sequence');
    expect(lines.some((line) => line.startsWith('CREDIT,') && line.includes('Salary'))).toBe(true);

    expect(statementRequests.map((request) => [request.authorization, request.accept])).toEqual([
      [`Bearer ${service.token}`, 'application/pdf'],
      [`Bearer ${service.token}`, 'text/csv'],
    ]);
    for (const url of urls) expect(url).not.toContain(service.token);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'account page after downloads');
    expectClean();
  });

  browserIt('shows a refused statement period with its code', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    await page.getByLabel('From', { exact: true }).fill('2026-03-10');
    await page.getByLabel('To (included)').fill('2026-03-01');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('VALIDATION_FAILED');
    expectClean();
  });

  browserIt('filters the transactions by status, type and the days they were made', async () => {
    const { page } = await open();
    const filters: unknown[] = [];
    page.on('request', (request) => {
      const body = request.postData();
      if (body?.includes('AccountTransactions')) filters.push(JSON.parse(body).variables.filter);
    });
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    const table = page.getByRole('table', { name: 'Transactions, newest first' });
    const descriptions = () => table.locator('tbody tr td:nth-child(2)').allInnerTexts();
    await table.getByRole('cell', { name: 'Salary' }).waitFor();
    await expect(descriptions()).resolves.toEqual(['Coffee hold', 'Rent', 'Salary']);

    await page.getByLabel('Type').selectOption('DEBIT');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(descriptions).toEqual(['Coffee hold', 'Rent']);
    await page.getByLabel('Status').selectOption('POSTED');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(descriptions).toEqual(['Rent']);
    // The API filters (Account.transactions(filter:)), not the page.
    expect(filters.at(-1)).toEqual({ type: 'DEBIT', status: 'POSTED' });

    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('Made from').fill(tomorrow);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No transactions match.').waitFor();
    await expectAccessible(page, 'account page with transaction filters');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(descriptions).toEqual(['Coffee hold', 'Rent', 'Salary']);
    expect(await page.getByLabel('Type').inputValue()).toBe('');
    expectClean();
  });
});

void ledgerViolations;
