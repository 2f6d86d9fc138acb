import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * The console's accounts list (`/console/accounts`): the environment's accounts a page at a time, filtered by
 * type, currency, a flag set and an external id as the API's `accounts(filter)` filters them; each row links to
 * its account. A currency that is not three letters is said at its field before anything is sent.
 */

let service: TestService;
let browser: Browser | undefined;
const suffix = Date.now().toString(36);
let checkingId: string;
let holderId: string;
let holderOfListed: string;

async function ok(method: string, path: string, body?: unknown) {
  const res = await service.call(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  service = await startTestService();
  const customerId = (await ok('POST', '/sandbox/customer', buildCustomerInput({ lastName: `Listed${suffix}` })))
    .customerId as string;
  holderOfListed = customerId;
  checkingId = (
    await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: `Listed Checking ${suffix}` }))
  ).accountId as string;
  holderId = (
    await ok('POST', '/sandbox/customer', buildCustomerInput({ firstName: 'Picked', lastName: `Holder${suffix}` }))
  ).customerId as string;
  const savings = await ok(
    'POST',
    '/sandbox/account',
    buildAccountInput([customerId], { name: `Listed Euro Savings ${suffix}`, type: 'SAVINGS', currency: 'EUR' }),
  );
  await ok('PUT', `/sandbox/account/${savings.accountId}/flags/FROZEN`, { reason: 'Card reported stolen' });
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s accounts list', () => {
  const { open, expectClean } = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt('lists accounts, filters them by type, currency, flag and last four, and opens one', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/customers`);
    await signIn(page, service.token);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Accounts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    const table = page.getByRole('table', { name: 'Accounts, oldest first' });
    await table.getByRole('link', { name: `Listed Checking ${suffix}` }).waitFor();
    await expectAccessible(page, 'accounts list');

    const filters = page.getByRole('form', { name: 'Account filters' });
    await filters.getByRole('textbox', { name: 'Currency (e.g. USD)' }).fill('US');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await filters.getByText('A currency is three letters.').waitFor();

    await filters.getByRole('textbox', { name: 'Currency (e.g. USD)' }).fill('eur');
    await filters.getByLabel('Flag set').selectOption('FROZEN');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    // Until the filtered page arrives the unfiltered one stays shown, and it lists the euro account too: wait for both.
    await expect
      .poll(async () => {
        const names = await table.getByRole('link').allInnerTexts();
        return names.includes(`Listed Euro Savings ${suffix}`) && !names.includes(`Listed Checking ${suffix}`);
      })
      .toBe(true);
    const row = table.getByRole('row').filter({ hasText: `Listed Euro Savings ${suffix}` });
    expect(await row.innerText()).toMatch(/SAVINGS[\s\S]*Frozen/);

    await filters.getByRole('textbox', { name: 'Type (e.g. CHECKING)' }).fill('checking');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No account matches.').waitFor();

    // By the account number's last four: a bad value is refused at the field, a good one finds the account, which
    // shows its last four.
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    const lastFour = filters.getByRole('textbox', { name: 'Account number ends in' });
    await lastFour.fill('12a');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await filters.getByText('The last four digits, e.g. 1234.').waitFor();
    const { rows } = await service.database.pool.query('SELECT last4 FROM account_numbers WHERE account_id = $1', [
      checkingId,
    ]);
    await lastFour.fill(rows[0].last4);
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(async () => {
        const listed = await table.getByRole('link').allInnerTexts();
        return listed.includes(`Listed Checking ${suffix}`) && !listed.includes(`Listed Euro Savings ${suffix}`);
      })
      .toBe(true);
    const found = table.getByRole('row').filter({ hasText: `Listed Checking ${suffix}` });
    expect(await found.innerText()).toContain(`…${rows[0].last4}`);

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await table.getByRole('link', { name: `Listed Euro Savings ${suffix}` }).click();
    await page.getByRole('heading', { level: 1, name: `Listed Euro Savings ${suffix}` }).waitFor();
    expectClean();
  });

  browserIt('finds a new holder by name as one types, fills in the id and adds the holder', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${checkingId}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: `Listed Checking ${suffix}` }).waitFor();
    const picker = page.getByRole('combobox', { name: 'Find a new holder' });
    // As a person does: into the box, then type (the list opens on typing in a focused box).
    await picker.click();
    await picker.fill(`Holder${suffix}`);
    await page.getByRole('option', { name: new RegExp(`Holder${suffix}`) }).click();
    const id = page.getByRole('textbox', { name: 'Customer id of a new holder' });
    await expect.poll(() => id.inputValue()).toBe(holderId);
    await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
    await expectAccessible(page, 'a holder picked by name');
    await page.getByRole('button', { name: 'Add holder' }).click();
    await expect
      .poll(async () => ((await ok('GET', `/sandbox/account/${checkingId}`)).customers as string[]).includes(holderId))
      .toBe(true);
    expectClean();
  });

  browserIt("lists the account page's sections at its top, each link reaching its section", async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${checkingId}`);
    await signIn(page, service.token);
    const nav = page.getByRole('navigation', { name: 'On this page' });
    await nav.waitFor();
    await page.getByRole('heading', { level: 2, name: 'Notes' }).waitFor();
    // Run in the page (the tests' TypeScript has no DOM types): each link's text and the text of what it points at.
    const targets = (await page.evaluate(
      `[...document.querySelectorAll('nav[aria-label="On this page"] a')].map((link) => ({
        label: link.textContent,
        heading: document.getElementById(link.hash.slice(1))?.textContent ?? null,
      }))`,
    )) as { label: string; heading: string | null }[];
    expect(targets.map(({ label }) => label)).toEqual([
      'Balance',
      'Account numbers',
      'Holders',
      'Flags',
      'Statement',
      'Transactions',
      'Transfer',
      'Metadata',
      'Notes',
      'Recent events',
      'Close',
      'Delete',
    ]);
    // Every link names the heading it reaches (none points at a section the page does not show).
    for (const { label, heading } of targets) expect(heading, label).toBe(label);
    await nav.getByRole('link', { name: 'Transactions' }).click();
    await expect
      .poll(() =>
        page.evaluate("Math.round(document.getElementById('transactions-heading').getBoundingClientRect().top)"),
      )
      .toBeLessThan(100);
    await expectAccessible(page, 'the account page reached by its sections');
    expectClean();
  });

  browserIt("finds a transfer's receiving account by its holder's name and fills in its id", async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${checkingId}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: `Listed Checking ${suffix}` }).waitFor();
    const picker = page.getByRole('combobox', { name: 'Find the receiving account' });
    await picker.click();
    await picker.fill(`Listed${suffix}`);
    // The holder's accounts, each named with its holder; no customer is offered (the picker chooses an account).
    const savings = page.getByRole('option', { name: `Listed Euro Savings ${suffix}` });
    await savings.waitFor();
    expect(await savings.innerText()).toMatch(new RegExp(`held by .*Listed${suffix}`));
    expect(await page.getByRole('group', { name: 'Customers' }).count()).toBe(0);
    const savingsId = (
      (await ok('GET', `/sandbox/account?customerId=${holderOfListed}`)).accounts as {
        accountId: string;
        name: string;
      }[]
    ).find((account) => account.name === `Listed Euro Savings ${suffix}`)!.accountId;
    await savings.click();
    const id = page.getByRole('textbox', { name: 'To account id' });
    await expect.poll(() => id.inputValue()).toBe(savingsId);
    await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
    await expectAccessible(page, 'a transfer target picked by its holder');
    expectClean();
  });
});
