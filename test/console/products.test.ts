import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { exactMoney, fractionOfPercent, money, percent } from '../../console/src/format.js';
import { issueApiToken } from '../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { compareDecimalText, TIER_NOT_ASCENDING } from '../../console/src/tier-order.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * Deposit products in the console (docs/console.md#deposit-products): the Products page lists the products made
 * through the API with their terms, a product's page shows each term and the rates scheduled; with `products:write`,
 * **New product** (a refusal at its field, nothing written) and **Change rate** after a confirmation naming the
 * product, the rate and the date. An account on a product shows its product, its interest and its monthly fee
 * assessments after a sandbox clock advance, with the API's figures; an account on no product shows none of them.
 * The nav link needs `products:read`, the forms `products:write`.
 */

const suite = consoleSuite();
const tokens = { reader: '', noProducts: '' };

async function ok(method: string, path: string, body?: unknown) {
  const res = await suite.service.call(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

const productCount = async (): Promise<number> =>
  (await suite.service.database.pool.query('SELECT count(*)::int AS n FROM products')).rows[0].n;

const businessDate = async (): Promise<string> => (await ok('GET', '/sandbox/clock')).businessDate as string;

const SAVER = {
  code: 'CONSOLE_SAVER',
  name: 'Console Saver',
  accountType: 'SAVINGS',
  currency: 'USD',
  interest: {
    annualRate: '0.0425',
    dayCount: 'ACTUAL_365',
    balanceBasis: 'END_OF_DAY',
    compounding: 'DAILY',
    posting: 'MONTHLY',
  },
  fees: { monthlyMaintenance: { amount: '5', waivedAtMinimumDailyBalance: '1000' } },
  minimumOpeningDeposit: '25',
  limits: { withdrawalsPerMonth: 6 },
};

const MONEY_MARKET = {
  code: 'CONSOLE_MM',
  name: 'Console Money Market',
  accountType: 'MONEY_MARKET',
  currency: 'USD',
  interest: {
    tiers: [
      { minimumBalance: '0', annualRate: '0.005' },
      { minimumBalance: '25000', annualRate: '0.0375' },
    ],
    dayCount: 'ACTUAL_ACTUAL',
    balanceBasis: 'AVERAGE_DAILY',
    compounding: 'MONTHLY',
    posting: 'QUARTERLY',
  },
  minimumBalance: '100',
};

beforeAll(async () => {
  await ok('POST', '/sandbox/product', SAVER);
  await ok('POST', '/sandbox/product', MONEY_MARKET);
  const { pool } = suite.service.database;
  tokens.reader = (
    await issueApiToken(pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read', 'products:read'],
      name: 'products reader',
    })
  ).token;
  tokens.noProducts = (
    await issueApiToken(pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read'],
      name: 'no products',
    })
  ).token;
});

const { browserIt } = suite;

const consoleNav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

/** The text of a definition list's value by its term, in `region`. */
const fact = (page: Page, region: string, term: string) =>
  page.getByRole('region', { name: region, exact: true }).locator(`dt:text-is("${term}") + dd`).innerText();

describe('deposit products in the console', () => {
  const { open, expectClean } = suite.watchedPages();

  browserIt('lists the products made through the API and opens a product’s own page', async () => {
    const { page } = await open();
    await suite.signInAt(page, '/console/customers');
    await consoleNav(page).getByRole('link', { name: 'Products' }).click();
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
    const table = page.getByRole('table', { name: 'Products, by code' });
    const saverRow = table.getByRole('row').filter({ hasText: 'CONSOLE_SAVER' });
    await saverRow.waitFor();
    const saver = await saverRow.innerText();
    expect(saver).toContain('Console Saver');
    expect(saver).toContain('Savings');
    expect(saver).toContain('4.25%');
    expect(saver).toContain('Actual/365, end-of-day balance, compounds daily, paid monthly');
    expect(saver).toContain('$5.00 a month, waived at a minimum daily balance of $1,000.00');
    expect(saver).toContain('$25.00');
    expect(saver).toContain('at most 6 withdrawals a month');
    const mm = await table.getByRole('row').filter({ hasText: 'CONSOLE_MM' }).innerText();
    expect(mm).toContain('0.5% from $0.00; 3.75% from $25,000.00');
    expect(mm).toContain('Actual/actual, average daily balance, compounds monthly, paid quarterly');
    expect(mm).toContain('$100.00');
    await expectAccessible(page, 'products page');

    await table.getByRole('link', { name: 'CONSOLE_MM' }).click();
    await page.getByRole('heading', { level: 1, name: 'Console Money Market' }).waitFor();
    expect(page.url()).toBe(`${suite.service.url}/console/products/CONSOLE_MM`);
    const today = await businessDate();
    expect(await fact(page, 'Terms', 'Rate in force')).toBe(`0.5% from $0.00; 3.75% from $25,000.00 (since ${today})`);
    expect(await fact(page, 'Terms', 'Monthly maintenance fee')).toBe('None');
    expect(await fact(page, 'Terms', 'Minimum balance')).toBe('$100.00');
    expect(await fact(page, 'Terms', 'Upcoming rates')).toBe('None scheduled');
    await expectAccessible(page, 'a product’s page');
    expectClean();
  });

  browserIt('fits a 390 px phone: neither page is wider than the screen, both pass axe', async () => {
    const { page } = await open();
    await page.setViewportSize({ width: 390, height: 844 });
    await suite.signInAt(page, '/console/products');
    for (const [path, heading] of [
      ['/console/products', 'New product'],
      ['/console/products/CONSOLE_MM', 'Change rate'],
    ] as const) {
      await page.goto(`${suite.service.url}${path}`);
      await page.getByRole('heading', { level: 2, name: heading }).waitFor();
      expect(
        await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
        path,
      ).toBe(0);
      await expectAccessible(page, `${path} at 390 px`);
    }
    expectClean();
  });

  browserIt(
    'creates a product through the form; a refused input is shown at its field and writes nothing',
    async () => {
      const { page } = await open();
      await suite.signInAt(page, '/console/products');
      const form = page.getByRole('form', { name: 'New product' });
      await form.getByRole('textbox', { name: 'Code', exact: true }).fill('CONSOLE_SAVER');
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Console Saver Two');
      await form.getByRole('textbox', { name: 'Account type' }).fill('SAVINGS');
      await form.getByRole('textbox', { name: 'Annual rate (%)' }).fill('150');
      await form.getByRole('button', { name: 'Create product' }).click();
      // The browser's own check first: nothing sent.
      await form.getByText('Enter less than 100%.').waitFor();
      expect(await productCount()).toBe(2);

      await form.getByRole('textbox', { name: 'Annual rate (%)' }).fill('3.5');
      await form.getByRole('textbox', { name: 'Monthly maintenance fee (optional)' }).fill('2.50');
      await form.getByRole('button', { name: 'Create product' }).click();
      // The API's refusal: the code is taken, said at the Code field and in the summary; nothing written.
      const code = form.getByRole('textbox', { name: 'Code', exact: true });
      await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
      await form.getByText('PRODUCT_CODE_TAKEN').first().waitFor();
      await form
        .getByRole('alert')
        .filter({ hasText: 'There is a problem' })
        .getByRole('link', { name: /Code/ })
        .waitFor();
      expect(await productCount()).toBe(2);
      await expectAccessible(page, 'new product refused');

      await code.fill('CONSOLE_SAVER_2');
      await form.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { level: 1, name: 'Console Saver Two' }).waitFor();
      expect(page.url()).toBe(`${suite.service.url}/console/products/CONSOLE_SAVER_2`);
      const created = await ok('GET', '/sandbox/product/CONSOLE_SAVER_2');
      expect(created).toMatchObject({
        code: 'CONSOLE_SAVER_2',
        name: 'Console Saver Two',
        accountType: 'SAVINGS',
        currency: 'USD',
        interest: { dayCount: 'ACTUAL_365', compounding: 'DAILY', rate: { annualRate: '0.035' } },
        fees: { monthlyMaintenance: { amount: '2.5' } },
      });
      expect(await productCount()).toBe(3);
      expect(await fact(page, 'Terms', 'Rate in force')).toContain('3.5%');
      expectClean();
    },
  );

  it('the console’s words for tiers out of order are the API’s own NOT_ASCENDING detail', async () => {
    const before = await productCount();
    const res = await suite.service.call('POST', '/sandbox/product', {
      body: {
        ...MONEY_MARKET,
        code: 'CONSOLE_OUT_OF_ORDER',
        interest: {
          ...MONEY_MARKET.interest,
          tiers: [
            { minimumBalance: '0', annualRate: '0.005' },
            { minimumBalance: '5000', annualRate: '0.01' },
            { minimumBalance: '5000', annualRate: '0.02' },
          ],
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toContainEqual({
      field: 'interest.tiers.2.minimumBalance',
      code: 'NOT_ASCENDING',
      message: TIER_NOT_ASCENDING,
    });
    expect(await productCount()).toBe(before);
  });

  browserIt(
    'refuses tiers not strictly increasing at their field, in the API’s words, before anything is sent',
    async () => {
      const { page } = await open();
      const creations: string[] = [];
      page.on('request', (request) => {
        if ((request.postData() ?? '').includes('createProduct')) creations.push(request.url());
      });
      await suite.signInAt(page, '/console/products');
      const form = page.getByRole('form', { name: 'New product' });
      await form.getByRole('textbox', { name: 'Code', exact: true }).fill('CONSOLE_TIERED');
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Console Tiered');
      await form.getByRole('textbox', { name: 'Account type' }).fill('MONEY_MARKET');
      await form.getByRole('radio', { name: 'Balance tiers' }).check();
      await form.getByRole('button', { name: 'Add a tier' }).click();
      await form.getByRole('button', { name: 'Add a tier' }).click();
      await form.getByRole('textbox', { name: 'Tier 1 annual rate (%)' }).fill('0.5');
      await form.getByRole('textbox', { name: 'Tier 2 from balance' }).fill('5000');
      await form.getByRole('textbox', { name: 'Tier 2 annual rate (%)' }).fill('1');
      // Equal to the tier before it, then below it (as text: 999.99 < 5000 although it has more characters).
      const third = form.getByRole('textbox', { name: 'Tier 3 from balance' });
      await form.getByRole('textbox', { name: 'Tier 3 annual rate (%)' }).fill('2');
      for (const minimumBalance of ['5000.00', '999.99']) {
        await third.fill(minimumBalance);
        await form.getByRole('button', { name: 'Create product' }).click();
        await form.getByRole('group', { name: 'Tier 3' }).getByText(TIER_NOT_ASCENDING).waitFor();
        await expect.poll(() => third.getAttribute('aria-invalid')).toBe('true');
      }
      await expectAccessible(page, 'tiers out of order');
      expect(creations).toEqual([]);
      expect(await productCount()).toBe(3);

      await third.fill('25000');
      await form.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { level: 1, name: 'Console Tiered' }).waitFor();
      expect(creations).toHaveLength(1);
      const created = await ok('GET', '/sandbox/product/CONSOLE_TIERED');
      expect(created.interest.rate.tiers).toEqual([
        { minimumBalance: '0', annualRate: '0.005' },
        { minimumBalance: '5000', annualRate: '0.01' },
        { minimumBalance: '25000', annualRate: '0.02' },
      ]);
      expectClean();
    },
  );

  browserIt('changes a rate from a forward date after a confirmation naming the product, rate and date', async () => {
    const { page } = await open();
    await suite.signInAt(page, '/console/products/CONSOLE_SAVER');
    const section = page.getByRole('region', { name: 'Change rate' });
    await section.getByRole('textbox', { name: 'Annual rate (%)' }).fill('4.5');
    const date = await section.getByLabel('From business date').inputValue();
    expect(date > (await businessDate())).toBe(true);
    await section.getByRole('button', { name: 'Change rate…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Change the rate of Console Saver?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`Console Saver (CONSOLE_SAVER) will pay 4.5% from ${date}`);
    await expectAccessible(page, 'rate change confirmation');
    await dialog.getByRole('button', { name: 'Change rate', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Console Saver pays 4.5% from ${date}.` })
      .waitFor();
    await expect.poll(() => fact(page, 'Terms', 'Upcoming rates')).toBe(`From ${date}: 4.5%`);
    // The rate in force is still today's.
    expect(await fact(page, 'Terms', 'Rate in force')).toContain('4.25%');
    const product = await ok('GET', '/sandbox/product/CONSOLE_SAVER');
    expect(product.interest.rateHistory[0]).toEqual({ effectiveFrom: date, annualRate: '0.045', tiers: null });
    await expectAccessible(page, 'a product with a scheduled rate');
    expectClean();
  });

  browserIt('offers no form without products:write and no Products link without products:read', async () => {
    const reader = await open();
    const { page } = reader;
    await suite.signInAt(page, '/console/products', tokens.reader);
    await page
      .getByRole('table', { name: 'Products, by code' })
      .getByRole('link', { name: 'CONSOLE_SAVER', exact: true })
      .waitFor();
    await consoleNav(page).getByRole('link', { name: 'Products' }).waitFor();
    expect(await page.getByRole('heading', { name: 'New product' }).count()).toBe(0);
    await page.getByRole('link', { name: 'CONSOLE_SAVER', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Console Saver' }).waitFor();
    await page.getByRole('region', { name: 'Terms' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Change rate' }).count()).toBe(0);
    await expectAccessible(page, 'a product read without products:write');
    expectClean();
    await reader.close();

    const other = await open();
    await suite.signInAt(other.page, '/console/customers', tokens.noProducts);
    await consoleNav(other.page).getByRole('link', { name: 'Accounts' }).waitFor();
    expect(await consoleNav(other.page).getByRole('link', { name: 'Products' }).count()).toBe(0);
    expectClean();
  });

  // Last: it moves the sandbox's clock, which the rate change above read.
  browserIt('an account on a product shows its product, interest and fees as the API answers them', async () => {
    const customerId = (await ok('POST', '/sandbox/customer', buildCustomerInput({ lastName: 'Saver' }))).customerId;
    const onProduct = (
      await ok('POST', '/sandbox/account', {
        ...buildAccountInput([customerId], { name: 'Console Savings', type: 'SAVINGS' }),
        productCode: 'CONSOLE_SAVER',
      })
    ).accountId as string;
    const plain = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Plain Checking' })))
      .accountId as string;
    await ok('POST', `/sandbox/account/${onProduct}/transaction`, { type: 'CREDIT', amount: 200 });
    // Past the end of next month: at least one month is assessed (under the waiver: charged) and interest posted.
    const [year, month] = (await businessDate()).split('-').map(Number) as [number, number];
    const target = new Date(Date.UTC(year, month + 1, 3)).toISOString().slice(0, 10);
    const days = Math.round(
      (Date.parse(`${target}T00:00:00Z`) - Date.parse(`${await businessDate()}T00:00:00Z`)) / 86_400_000,
    );
    await ok('POST', '/sandbox/clock/advance', { days });
    expect(await ledgerViolations(suite.service.database.pool)).toEqual([]);
    const interest = await ok('GET', `/sandbox/account/${onProduct}/interest`);
    const { fees } = await ok('GET', `/sandbox/account/${onProduct}/fees`);
    expect(fees.length).toBeGreaterThanOrEqual(1);
    expect(fees[0].outcome).toBe('CHARGED');
    expect(interest.lastPostingDate).not.toBeNull();

    const { page } = await open();
    await suite.signInAt(page, `/console/accounts/${onProduct}`);
    const sections = page.getByRole('navigation', { name: 'On this page' });
    for (const name of ['Product', 'Interest', 'Fees'])
      await sections.getByRole('link', { name, exact: true }).waitFor();
    await page
      .getByRole('region', { name: 'Product', exact: true })
      .getByRole('link', { name: 'Console Saver' })
      .waitFor();
    // After the account numbers, each link naming the heading it reaches (run in the page: no DOM types here).
    const targets = (await page.evaluate(
      `[...document.querySelectorAll('nav[aria-label="On this page"] a')].map((link) => ({
        label: link.textContent,
        heading: document.getElementById(link.hash.slice(1))?.textContent ?? null,
      }))`,
    )) as { label: string; heading: string | null }[];
    expect(targets.map(({ label }) => label).slice(0, 5)).toEqual([
      'Balance',
      'Account numbers',
      'Product',
      'Interest',
      'Fees',
    ]);
    for (const { label, heading } of targets) expect(heading, label).toBe(label);
    expect(await fact(page, 'Interest', 'Rate')).toBe(percent(interest.annualRate));
    expect(await fact(page, 'Interest', 'Annual percentage yield')).toBe(percent(interest.annualPercentageYield));
    expect(await fact(page, 'Interest', 'Accrued, not paid yet')).toBe(exactMoney(interest.accruedUnpaid, 'USD'));
    expect(await fact(page, 'Interest', 'Last accrual')).toBe(interest.lastAccrualDate);
    expect(await fact(page, 'Interest', 'Last posting')).toBe(interest.lastPostingDate);
    expect(await fact(page, 'Interest', 'Paid this year')).toBe(money(interest.paidYearToDate, 'USD'));
    const table = page.getByRole('table', { name: 'Monthly maintenance fee, newest month first' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(fees.length);
    const rows = await table.locator('tbody tr').allInnerTexts();
    fees.forEach((fee: Record<string, string>, index: number) => {
      const cells = rows[index]!.split('\t').map((cell) => cell.trim());
      expect(cells).toEqual([
        fee.month,
        money(fee.minimumDailyBalance!, 'USD'),
        fee.outcome === 'CHARGED' ? 'Charged' : fee.outcome === 'WAIVED' ? 'Waived' : 'Uncollected',
        money(fee.fee!, 'USD'),
        money(fee.charged!, 'USD'),
        money(fee.uncollected!, 'USD'),
      ]);
    });
    await table.locator('.badge').filter({ hasText: 'Charged' }).first().waitFor();
    await expectAccessible(page, 'an account on a product');

    await page
      .getByRole('region', { name: 'Product', exact: true })
      .getByRole('link', { name: 'Console Saver' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Console Saver' }).waitFor();

    await page.goto(`${suite.service.url}/console/accounts/${plain}`);
    await page.getByRole('heading', { level: 1, name: 'Plain Checking' }).waitFor();
    await page.getByRole('region', { name: 'Transactions' }).waitFor();
    expect(await page.getByRole('region', { name: 'Product', exact: true }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Interest', exact: true }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Fees', exact: true }).count()).toBe(0);
    expect(await sections.getByRole('link', { name: 'Product' }).count()).toBe(0);
    expectClean();
  });
});

describe('rates and amounts as the console shows and sends them', () => {
  it('moves the decimal point in the text, so nothing is rounded', () => {
    expect(['0.0425', '0.005', '0.000001', '0', '0.1', '0.999999'].map(percent)).toEqual([
      '4.25%',
      '0.5%',
      '0.0001%',
      '0%',
      '10%',
      '99.9999%',
    ]);
    expect(['4.25', '0.5', '0.0001', '0', '10', '99.9999', '3.50'].map(fractionOfPercent)).toEqual([
      '0.0425',
      '0.005',
      '0.000001',
      '0',
      '0.1',
      '0.999999',
      '0.035',
    ]);
    expect(['', '4,25', '-1', '1e2', '4.'].map(fractionOfPercent)).toEqual([null, null, null, null, null]);
    // Accrued interest keeps its 12 decimals; a float would have lost the last ones.
    expect(exactMoney('1234.123456789012', 'USD')).toBe('$1,234.123456789012');
    expect(exactMoney('0.7', 'USD')).toBe('$0.70');
  });

  it('compares tier balances as text: more characters is not more money, trailing zeros change nothing', () => {
    expect(
      [
        ['999.99', '5000'],
        ['5000.00', '5000'],
        ['05000', '5000'],
        ['5000.001', '5000'],
        ['10000', '9999.999999'],
      ].map(([left, right]) => Math.sign(compareDecimalText(left!, right!)!)),
    ).toEqual([-1, 0, 0, 1, 1]);
    expect(compareDecimalText('', '5000')).toBeNull();
    expect(compareDecimalText('5,000', '0')).toBeNull();
  });
});
