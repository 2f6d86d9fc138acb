import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { planSearch } from '../../console/src/search/search-plan.js';
import { issueApiToken } from '../support/api-tokens.js';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import {
  expectAccessible,
  openWatchedPage,
  seriousAccessibilityViolations,
  signIn,
  type WatchedPage,
} from './helpers.js';

/**
 * The console's one search (console/src/search): a single box in the header, `/` to focus it, results as you
 * type grouped by kind, arrow keys and Enter; it finds a customer by a first name, a last name, a full name, an
 * email, a phone number, an external id or a pasted id, and an account by a pasted id, an external id or its account
 * number's last four.
 */

let service: TestService;
let browser: Browser | undefined;
let customersOnly: string;
const suffix = Date.now().toString(36);
const last = `Rivera${suffix}`;
let alexandra: string;
let jordan: string;
let accountId: string;
let accountLast4: string;

async function created(path: string, body: unknown): Promise<Record<string, string>> {
  const res = await service.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  service = await startTestService();
  alexandra = (
    await created(
      '/sandbox/customer',
      buildCustomerInput({
        firstName: `Alexandra${suffix}`,
        middleName: '',
        lastName: last,
        emails: [`alex.${suffix}@example.com`],
        phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 7788' }],
      }),
    )
  ).customerId!;
  jordan = (
    await created(
      '/sandbox/customer',
      buildCustomerInput({
        firstName: `Jordan${suffix}`,
        middleName: '',
        lastName: last,
        emails: [],
        phoneNumbers: [],
      }),
    )
  ).customerId!;
  accountId = (await created('/sandbox/account', buildAccountInput([alexandra], { name: 'Searchable Savings' })))
    .accountId!;
  accountLast4 = (
    await service.database.pool.query('SELECT last4 FROM account_numbers WHERE account_id = $1', [accountId])
  ).rows[0].last4;
  customersOnly = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read'],
      name: 'customers only',
    })
  ).token;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('what the search asks for what was typed', () => {
  it('reads the shape of the text', () => {
    expect(planSearch('a')).toBeNull();
    expect(planSearch('  Riv ')).toEqual({ word: 'Riv' });
    expect(planSearch('Alexandra   Rivera')).toEqual({
      fullName: { firstName: 'Alexandra', lastName: 'Rivera', legalName: 'Alexandra Rivera' },
    });
    expect(planSearch('maria de la Cruz')).toMatchObject({ fullName: { firstName: 'maria', lastName: 'de la Cruz' } });
    expect(planSearch('alex@example.com')).toEqual({ email: 'alex@example.com' });
    expect(planSearch('(555) 010-7788')).toEqual({ phoneNumber: '(555) 010-7788' });
    expect(planSearch('0193A5C2-7F3E-7C41-9D2A-5B8E4F1C2A10')).toEqual({ id: '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10' });
    // Digits too few for a phone number are a word (an external id, say).
    expect(planSearch('12345')).toEqual({ word: '12345' });
    // Four digits: an account number's last four, and an external id too; after a mask, only the last four.
    expect(planSearch('1234')).toEqual({ word: '1234', accountNumberLast4: '1234' });
    expect(planSearch('*1234')).toEqual({ accountNumberLast4: '1234' });
    expect(planSearch('…1234')).toEqual({ accountNumberLast4: '1234' });
    expect(planSearch('x 1234')).toEqual({ accountNumberLast4: '1234' });
  });
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s one search', () => {
  let watched: WatchedPage | undefined;
  afterEach(async () => {
    await watched?.close();
    watched = undefined;
  });

  const box = (page: Page) => page.getByRole('combobox', { name: 'Search customers and accounts' });
  /** The options offered under a group's heading, as their names read. */
  async function offered(page: Page, typed: string, group: 'Customers' | 'Accounts'): Promise<string[]> {
    await box(page).fill(typed);
    const list = page.getByRole('listbox');
    const section = list.getByRole('group', { name: group });
    await section.waitFor();
    return section.getByRole('option').allInnerTexts();
  }

  browserIt(
    'finds by first, last and full name, email, phone and pasted ids; keyboard picks; `/` focuses',
    async () => {
      watched = await openWatchedPage(browser!, service.url);
      const { page } = watched;
      await page.goto(`${service.url}/console/events`);
      await signIn(page, service.token);
      await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();

      await page.locator('main h1').click();
      await page.keyboard.press('/');
      await expect
        .poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id"))
        .not.toBe(undefined);
      expect(await page.evaluate("document.activeElement?.getAttribute('role')")).toBe('combobox');

      expect((await offered(page, `Alexandra${suffix}`, 'Customers')).join('\n')).toContain(
        `Alexandra${suffix} ${last}`,
      );
      const byLast = await offered(page, last.slice(0, -1), 'Customers');
      expect(byLast.some((text) => text.includes(`Alexandra${suffix} ${last}`))).toBe(true);
      expect(byLast.some((text) => text.includes(`Jordan${suffix} ${last}`))).toBe(true);
      const byFull = await offered(page, `Jordan${suffix} ${last}`, 'Customers');
      expect(byFull).toHaveLength(1);
      expect(byFull[0]).toContain(`Jordan${suffix} ${last}`);
      expect((await offered(page, `ALEX.${suffix}@example.com`, 'Customers'))[0]).toContain(`Alexandra${suffix}`);
      expect((await offered(page, '(555) 010-7788', 'Customers'))[0]).toContain(`Alexandra${suffix}`);
      expect((await offered(page, jordan, 'Customers'))[0]).toContain(`Jordan${suffix}`);
      const byLast4 = await offered(page, `*${accountLast4}`, 'Accounts');
      expect(
        byLast4.some((text) => text.includes('Searchable Savings') && text.includes(`ending ${accountLast4}`)),
      ).toBe(true);
      const account = await offered(page, accountId.toUpperCase(), 'Accounts');
      expect(account[0]).toContain('Searchable Savings');
      // While the list is open, React Aria hides the rest of the page from assistive technology (ariaHideOutside, as
      // for a modal listbox); focus cannot reach it without closing the list (Tab and Escape close it), so axe's
      // aria-hidden-focus is expected then. The page is checked whole once the list is closed, below.
      expect(
        (await seriousAccessibilityViolations(page)).filter(
          (violation) => !violation.startsWith('serious aria-hidden-focus:'),
        ),
      ).toEqual([]);

      // Arrow down to the result and Enter: the account's page.
      await box(page).press('ArrowDown');
      await box(page).press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Searchable Savings' }).waitFor();
      // The pick closed the list, so the page is not left hidden behind it.
      await expect.poll(() => page.getByRole('listbox').count()).toBe(0);

      // Nothing found says so; Escape closes the list.
      await box(page).fill(`Nobody${suffix}`);
      await page.getByText('Nothing found.').waitFor();
      await box(page).press('Escape');
      await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
      await expectAccessible(page, 'the search closed');

      // A click on a customer found by its first name opens its page.
      await box(page).fill(`Jordan${suffix}`);
      await page.getByRole('option', { name: new RegExp(`Jordan${suffix} ${last}`) }).click();
      await page.getByRole('heading', { level: 1, name: `Jordan${suffix} ${last}` }).waitFor();
      await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
      await expectAccessible(page, 'the customer picked with a click');
      expect(watched.problems).toEqual([]);
      expect(watched.offsite).toEqual([]);
    },
  );

  browserIt('a token that reads customers only is offered customers only, and asks for nothing else', async () => {
    watched = await openWatchedPage(browser!, service.url);
    const { page } = watched;
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql')) asked.push(request.postData() ?? '');
    });
    await page.goto(`${service.url}/console/customers`);
    await signIn(page, customersOnly);
    expect((await offered(page, `Alexandra${suffix}`, 'Customers'))[0]).toContain(`Alexandra${suffix}`);
    expect(await page.getByRole('listbox').getByRole('group', { name: 'Accounts' }).count()).toBe(0);
    const searches = asked.filter((body) => body.includes('RecordSearch'));
    expect(searches.length).toBeGreaterThan(0);
    for (const body of searches) expect(JSON.parse(body).variables.byWordInAccounts).toBe(false);
    expect(watched.problems).toEqual([]);
  });
});
