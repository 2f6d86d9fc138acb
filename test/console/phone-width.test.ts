import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * Every page of the console at a 390 × 844 phone: no horizontal scroll of the page (tables scroll inside their
 * frame, which says so), a 100-character name wraps, and axe passes at that width too.
 */

let service: TestService;
let browser: Browser | undefined;
let customerId: string;
let accountId: string;
const LONG_NAME = `${'Longname'.repeat(12)}Ends`.slice(0, 100);

async function ok(method: string, path: string, body?: unknown) {
  const res = await service.call(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  service = await startTestService();
  customerId = (await ok('POST', '/sandbox/customer', buildCustomerInput({ lastName: LONG_NAME }))).customerId;
  accountId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: LONG_NAME }))).accountId;
  await ok('POST', `/sandbox/account/${accountId}/transaction`, {
    type: 'CREDIT',
    amount: 2916,
    description: 'Payroll deposit from a long employer name',
  });
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

/** How far the page itself scrolls sideways (0 when nothing is wider than the screen). */
const sidewaysScroll = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

describe('the console on a 390 px wide phone', () => {
  const { open, expectClean } = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt('has no page wider than the screen, and every page passes axe', async () => {
    const { page } = await open();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${service.url}/console/customers`);
    await signIn(page, service.token);
    const pages: [string, string][] = [
      ['customers', '/console/customers'],
      ['new customer', '/console/customers/new'],
      ['customer', `/console/customers/${customerId}`],
      ['accounts', '/console/accounts'],
      ['account', `/console/accounts/${accountId}`],
      ['events', '/console/events'],
      ['webhooks', '/console/webhooks'],
      ['audit', '/console/audit'],
      ['clock', '/console/time'],
    ];
    const wide: string[] = [];
    for (const [name, path] of pages) {
      await page.goto(`${service.url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.getByRole('main').getByText(/./).first().waitFor();
      if (name === 'account' || name === 'customer')
        await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Ends' }).waitFor();
      const overflow = await sidewaysScroll(page);
      if (overflow > 0) {
        const culprits = await page.evaluate(
          `[...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.closest('.table-scroll')).slice(0, 4).map((el) => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().width)).join(' | ')`,
        );
        wide.push(`${name}: ${overflow} px too wide (${culprits})`);
      }
      if (name === 'account') {
        // The transactions table is wider than a phone: it scrolls in its frame, which says so and takes focus.
        const frame = page.getByRole('region', { name: 'Transactions, newest first' });
        await frame.getByText('Scroll sideways for more columns').waitFor();
        expect(await frame.getAttribute('tabindex')).toBe('0');
        // The 100-character name wraps onto more than one line.
        const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
        expect(heading!.height).toBeGreaterThan(60);
      }
      await expectAccessible(page, `${name} at 390 px`);
    }
    expect(wide).toEqual([]);
    expectClean();
  });
});
