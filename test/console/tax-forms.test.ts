import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect } from 'vitest';
import { money } from '../../console/src/format.js';
import { issueApiToken } from '../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { buildBusinessInput } from '../features/businesses/support.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * A customer's 1099-INT in the console (docs/console.md#tax-forms): with `tax-forms:read`, the customer's page has a
 * "Tax forms" section whose year picker offers the years the sandbox's clock has reached (the last finished one by
 * default) and shows Box 1 as the API answers it, whether the year is final and reportable, the accounts' lines and
 * a PDF download with the token in a header. Only the TIN's last four is ever on the page or in the browser's storage
 * (a canary SSN); a refusal shows its code; without `tax-forms:read` nothing is shown and nothing is asked.
 */

const suite = consoleSuite();
/** The recipient's SSN: the canary the page, its storage and its URLs may never contain. */
const CANARY_SSN = '219-09-9988';
const CANARY_DIGITS = CANARY_SSN.replace(/-/g, '');
const DAY_MS = 86_400_000;

let customerId = '';
let accountId = '';
let corporationId = '';
let year = 0;
let noTaxFormsToken = '';

async function ok(method: string, path: string, body?: unknown) {
  const res = await suite.service.call(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  await ok('POST', '/sandbox/product', {
    code: 'CONSOLE_TAX_SAVER',
    name: 'Console Tax Saver',
    accountType: 'SAVINGS',
    currency: 'USD',
    interest: {
      tiers: [{ minimumBalance: '0', annualRate: '0.05' }],
      dayCount: 'ACTUAL_365',
      balanceBasis: 'END_OF_DAY',
      compounding: 'DAILY',
      posting: 'MONTHLY',
    },
  });
  customerId = (
    await ok(
      'POST',
      '/sandbox/customer',
      buildCustomerInput({ lastName: 'Taxpayer', socialSecurityNumber: CANARY_SSN }),
    )
  ).customerId;
  accountId = (
    await ok('POST', '/sandbox/account', {
      ...buildAccountInput([customerId], { name: 'Taxed Savings', type: 'SAVINGS' }),
      productCode: 'CONSOLE_TAX_SAVER',
    })
  ).accountId as string;
  await ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'CREDIT', amount: 50_000 });
  corporationId = (await ok('POST', '/sandbox/customer', buildBusinessInput({ entityType: 'CORPORATION' })))
    .customerId as string;
  // Through the year's end to January 10th: December 31 posts the year's last interest and its end of day closes it.
  const { businessDate } = (await ok('GET', '/sandbox/clock')) as { businessDate: string };
  year = Number(businessDate.slice(0, 4));
  const days = Math.ceil(
    (Date.parse(`${year + 1}-01-10T00:00:00Z`) - Date.parse(`${businessDate}T00:00:00Z`)) / DAY_MS,
  );
  await ok('POST', '/sandbox/clock/advance', { days });
  noTaxFormsToken = (
    await issueApiToken(suite.service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read'],
      name: 'no tax forms',
    })
  ).token;
}, 120_000);

const { browserIt } = suite;

const taxForms = (page: Page) => page.getByRole('region', { name: 'Tax forms', exact: true });
const fact = (page: Page, term: string) => taxForms(page).locator(`dt:text-is("${term}") + dd`).innerText();

/** Everything the browser keeps for the origin that a script can read: both storages and the cookies. */
const browserStorage = (page: Page) =>
  page.evaluate(
    'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie })',
  ) as Promise<string>;

describe('a customer’s 1099-INT in the console', () => {
  const { open, expectClean } = suite.watchedPages();

  browserIt('shows the last finished year’s Box 1 as the API answers it and downloads its PDF', async () => {
    expect(await ledgerViolations(suite.service.database.pool)).toEqual([]);
    const answer = await ok('GET', `/sandbox/customer/${customerId}/tax-form/1099-INT/${year}`);
    expect(Number(answer.box1InterestIncome)).toBeGreaterThan(10);
    const { page } = await open();
    const urls: string[] = [];
    const pdfRequests: { authorization: string | undefined; accept: string | undefined }[] = [];
    page.on('request', (request) => {
      urls.push(request.url());
      if (request.url().includes('/tax-form/'))
        pdfRequests.push({ authorization: request.headers().authorization, accept: request.headers().accept });
    });
    await suite.signInAt(page, `/console/customers/${customerId}`);
    const section = taxForms(page);
    await section.getByRole('heading', { level: 3, name: `1099-INT ${year}` }).waitFor();
    // The years the clock has reached, newest first, at most seven; the last finished one chosen.
    const picker = section.getByLabel('Tax year');
    expect(await picker.inputValue()).toBe(String(year));
    const options = await picker.locator('option').allInnerTexts();
    expect(options).toEqual([`${year + 1} (not finished)`, ...[0, 1, 2, 3, 4, 5].map((back) => String(year - back))]);

    expect(await fact(page, 'Box 1 (interest paid)')).toBe(money(answer.box1InterestIncome, 'USD'));
    expect(answer.final).toBe(true);
    expect(await fact(page, 'Final')).toMatch(/^Final:/);
    expect(answer.reportable).toBe(true);
    expect(await fact(page, 'Reportable')).toBe('Reportable: the threshold is Box 1 of at least $10.00.');
    expect(await fact(page, 'Recipient TIN')).toBe(`SSN ending ${CANARY_DIGITS.slice(-4)}`);
    const lines = section.getByRole('table', { name: `Interest paid in ${year}, by account` });
    const row = lines.getByRole('row').filter({ hasText: accountId });
    const cells = (await row.innerText()).split('\t').map((cell) => cell.trim());
    expect(answer.accounts).toHaveLength(1);
    expect(cells).toEqual([
      accountId,
      answer.accounts[0].accountNumberLast4 ?? 'none',
      money(answer.accounts[0].interestPaid, 'USD'),
    ]);
    await expectAccessible(page, 'the tax forms section');

    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`1099-INT-${year}-${customerId}.pdf`);
    const bytes = await readFile((await pdf.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfRequests).toEqual([{ authorization: `Bearer ${suite.service.token}`, accept: 'application/pdf' }]);

    // The year not finished: labelled so, its own figure.
    await picker.selectOption(String(year + 1));
    await section.getByRole('heading', { level: 3, name: `1099-INT ${year + 1}` }).waitFor();
    const current = await ok('GET', `/sandbox/customer/${customerId}/tax-form/1099-INT/${year + 1}`);
    expect(current.final).toBe(false);
    expect(await fact(page, 'Final')).toMatch(/^Not final/);
    expect(await fact(page, 'Box 1 (interest paid)')).toBe(money(current.box1InterestIncome, 'USD'));

    // The TIN's last four only: never the whole SSN on the page, in storage or in a URL; never the token in a URL.
    const text = await page.locator('body').innerText();
    const html = await page.content();
    const storage = await browserStorage(page);
    for (const where of [text, html, storage, ...urls]) {
      expect(where).not.toContain(CANARY_DIGITS);
      expect(where).not.toContain(CANARY_SSN);
    }
    for (const url of urls) expect(url).not.toContain(suite.service.token);
    expectClean();
  });

  browserIt('shows a refusal with its code: a corporation gets no 1099-INT', async () => {
    const { page } = await open();
    await suite.signInAt(page, `/console/customers/${corporationId}`);
    await taxForms(page).getByRole('alert').filter({ hasText: 'TAX_FORM_NOT_APPLICABLE' }).waitFor();
    expect(await taxForms(page).getByRole('button', { name: 'Download PDF' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'a refused tax form');
    expectClean();
  });

  browserIt('a token without tax-forms:read sees no section, and nothing is asked for', async () => {
    const { page, settled } = await open();
    const asked: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (request.url().includes('tax-form') || body.includes('taxForm1099Int')) asked.push(request.url());
    });
    await suite.signInAt(page, `/console/customers/${customerId}`, noTaxFormsToken);
    await page.getByRole('region', { name: 'Accounts', exact: true }).waitFor();
    await settled();
    expect(await taxForms(page).count()).toBe(0);
    expect(asked).toEqual([]);
    expectClean();
  });
});
