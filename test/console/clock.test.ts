import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, openWatchedPage, signIn, type WatchedPage } from './helpers.js';

/**
 * The console's clock page (docs/clock.md): the environment's time, business date and time zone as the API
 * answers them; in a sandbox, with `clock:write`, an advance that refuses a bad number of days at its field,
 * confirms how far it moves, and lists each ended business date's run afterwards. A token without `clock:write`
 * reads the clock and is offered no advance.
 */

let service: TestService;
let browser: Browser | undefined;
let readOnlyToken: string;
const DAY_MS = 24 * 60 * 60 * 1000;

async function clock(environment = 'sandbox') {
  const res = await service.call('GET', `/${environment}/clock`);
  if (res.status !== 200) throw new Error(`GET clock: ${res.status} ${res.text}`);
  return res.json.data as { now: string; businessDate: string; timeZone: string; adjustable: boolean };
}

beforeAll(async () => {
  service = await startTestService();
  readOnlyToken = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read'],
      name: 'clock reader',
    })
  ).token;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s clock page', () => {
  let watched: WatchedPage | undefined;
  afterEach(async () => {
    await watched?.close();
    watched = undefined;
  });

  browserIt(
    'shows the sandbox’s clock, refuses a bad number of days at its field, and advances after a confirmation',
    async () => {
      const before = await clock();
      watched = await openWatchedPage(browser!, service.url);
      const { page } = watched;
      await page.goto(`${service.url}/console/customers`);
      await signIn(page, service.token);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Clock' }).click();
      await page.getByRole('heading', { level: 1, name: 'Clock and end of day' }).waitFor();
      const facts = page.getByRole('region', { name: "sandbox's clock" });
      await expect.poll(() => facts.locator('dd').nth(1).innerText()).toBe(before.businessDate);
      expect(await facts.locator('dd').nth(2).innerText()).toBe(before.timeZone);
      await expectAccessible(page, 'clock page');

      const days = page.getByRole('textbox', { name: 'Days to move forward' });
      await days.fill('2.5');
      await page.getByText('Enter a whole number of days, e.g. 30.').waitFor();
      expect(await days.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('button', { name: 'Advance…' }).isDisabled()).toBe(true);
      await days.fill('2000');
      await page.getByText('Enter between 1 and 1096 days (at most three years a move).').waitFor();
      await days.fill('3');
      await page.getByRole('button', { name: 'Advance…' }).click();
      const dialog = page.getByRole('alertdialog', { name: "Move sandbox's clock forward?" });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain('This cannot be undone.');
      await expectAccessible(page, 'clock advance confirmation');
      await dialog.getByRole('button', { name: 'Advance 3 days' }).click();
      await page.getByRole('status').filter({ hasText: '3 business days ended' }).waitFor();

      const after = await clock();
      expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3 * DAY_MS);
      const table = page.getByRole('table', { name: 'End of day, the last 30 business dates, newest first' });
      await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
      const dates = await table.locator('tbody tr td:nth-child(1)').allInnerTexts();
      expect(dates).toEqual([...dates].sort().reverse());
      expect(dates.filter((date) => date >= before.businessDate && date < after.businessDate)).toHaveLength(3);
      expect(await table.locator('tbody tr td:nth-child(2)').allInnerTexts()).toContain('COMPLETED');
      await expectAccessible(page, 'clock page after an advance');
      expect(watched.problems).toEqual([]);
      expect(watched.offsite).toEqual([]);
    },
  );

  browserIt('reads the clock with accounts:read and offers no advance without clock:write', async () => {
    watched = await openWatchedPage(browser!, service.url);
    const { page } = watched;
    await page.goto(`${service.url}/console/time`);
    await signIn(page, readOnlyToken);
    await page.getByRole('heading', { level: 1, name: 'Clock and end of day' }).waitFor();
    await page.getByRole('heading', { name: "sandbox's clock" }).waitFor();
    expect(await page.getByRole('heading', { name: 'Advance the clock' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Advance…' }).count()).toBe(0);
    expect(watched.problems).toEqual([]);
  });
});
