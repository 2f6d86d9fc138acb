import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, openWatchedPage, signIn, type WatchedPage } from './helpers.js';

/**
 * Tabs share one sign-in (console/src/session-sharing.ts): a tab opened from a signed-in one (a Ctrl-click, a
 * pasted address) is signed in without the token being written to localStorage or a cookie; signing out in any
 * tab signs them all out; with no signed-in tab open, a new tab shows the sign-in form.
 */

let service: TestService;
let browser: Browser | undefined;
let customerId: string;
let accountId: string;
const lastName = `Tabs${Date.now().toString(36)}`;

beforeAll(async () => {
  service = await startTestService();
  const customer = await service.call('POST', '/sandbox/customer', {
    body: buildCustomerInput({ firstName: 'Tabitha', middleName: '', lastName }),
  });
  customerId = customer.json.data.customerId;
  const account = await service.call('POST', '/sandbox/account', {
    body: buildAccountInput([customerId], { name: 'Shared Tab Account' }),
  });
  accountId = account.json.data.accountId;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console in several tabs', () => {
  let watched: WatchedPage | undefined;
  afterEach(async () => {
    await watched?.close();
    watched = undefined;
  });

  browserIt(
    'a Ctrl-clicked link and a pasted address open signed in; signing out in one tab signs out all',
    async () => {
      watched = await openWatchedPage(browser!, service.url);
      const { page, context } = watched;
      await page.goto(`${service.url}/console/customers/${customerId}`);
      await signIn(page, service.token);
      await page.getByRole('heading', { level: 1, name: `Tabitha ${lastName}` }).waitFor();

      // Ctrl-click: a new tab of the same browser, its own sessionStorage, signed in through the open tab.
      const [opened] = await Promise.all([
        context.waitForEvent('page'),
        page.getByRole('link', { name: 'Shared Tab Account' }).click({ modifiers: ['Control'] }),
      ]);
      await opened.getByRole('heading', { level: 1, name: 'Shared Tab Account' }).waitFor();
      await opened.getByRole('button', { name: 'Sign out' }).waitFor();
      await expectAccessible(opened, 'a tab opened signed in');

      // A pasted address in yet another tab.
      const pasted = await context.newPage();
      await pasted.goto(`${service.url}/console/accounts/${accountId}`);
      await pasted.getByRole('heading', { level: 1, name: 'Shared Tab Account' }).waitFor();

      // The token was never written anywhere lasting: no localStorage, no cookie.
      for (const tab of [page, opened, pasted]) {
        expect(await tab.evaluate('localStorage.length')).toBe(0);
      }
      expect(await context.cookies()).toEqual([]);

      // Signing out in one tab signs every tab out.
      await pasted.getByRole('button', { name: 'Sign out' }).click();
      for (const tab of [page, opened, pasted]) await tab.getByLabel('API token').waitFor();
      for (const tab of [page, opened, pasted]) {
        expect(await tab.evaluate('sessionStorage.length')).toBe(0);
      }

      // With no signed-in tab left, a new tab shows the sign-in form.
      const lonely = await context.newPage();
      await lonely.goto(`${service.url}/console/accounts/${accountId}`);
      await lonely.getByLabel('API token').waitFor();
      expect(await lonely.getByRole('heading', { level: 1, name: 'Shared Tab Account' }).count()).toBe(0);
      expect(watched.problems).toEqual([]);
      expect(watched.offsite).toEqual([]);
    },
  );

  browserIt('another browser (another context) shares nothing', async () => {
    watched = await openWatchedPage(browser!, service.url);
    await watched.page.goto(`${service.url}/console/customers`);
    await signIn(watched.page, service.token);
    const other = await openWatchedPage(browser!, service.url);
    try {
      await other.page.goto(`${service.url}/console/customers`);
      await other.page.getByLabel('API token').waitFor();
      expect(await other.page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
