import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, openWatchedPage, signIn, type WatchedPage } from './helpers.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * A record's recent events on the console's customer and account pages (issue 33 item 3): type, time and
 * sequence, newest first, as the API numbers them, with a link to the Events page; not offered to a token
 * without events:read. No script or CSP error, no request to another origin, no serious axe-core violation.
 */

const METRICS_TOKEN = 'metrics-scraper-token-recent-events-0123';
let service: TestService;
let browser: Browser | undefined;
let noEventsToken: string;
let customerId: string;
let accountId: string;
const lastName = `Franklin${Date.now().toString(36)}`;

async function ok(method: string, path: string, body?: unknown) {
  const res = await service.call(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

/** The event feed's started followers on the service (its `quota_usage` gauge): the open subscriptions. */
async function followersOfTheFeed(): Promise<number> {
  const res = await service.call('GET', '/metrics', {
    auth: false,
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const line = /^quota_usage\{quota="event_feed_followers"\} (\d+)$/m.exec(res.text);
  return line ? Number(line[1]) : -1;
}

/** The record's events once numbered (REST), newest first. */
async function recentEvents(path: string, count: number): Promise<{ type: string; sequence: number }[]> {
  for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; ;) {
    const { events } = await ok('GET', `${path}/event`);
    if (events.length >= count || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20', METRICS_TOKEN });
  customerId = (
    await ok('POST', '/sandbox/customer', buildCustomerInput({ firstName: 'Rosalind', middleName: '', lastName }))
  ).customerId;
  await ok('PUT', `/sandbox/customer/${customerId}`, { preferredName: 'Ros' });
  accountId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Evented Account' })))
    .accountId;
  await ok('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, { reason: 'Review' });
  noEventsToken = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read', 'audit:read'],
      name: 'no events',
    })
  ).token;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s recent events of a record', () => {
  let watched: WatchedPage | undefined;
  afterEach(async () => {
    await watched?.close();
    watched = undefined;
  });

  browserIt(
    'shows a customer’s and an account’s newest events with their sequences, and links to the Events page',
    async () => {
      const customerEvents = await recentEvents(`/sandbox/customer/${customerId}`, 2);
      const accountEvents = await recentEvents(`/sandbox/account/${accountId}`, 2);
      watched = await openWatchedPage(browser!, service.url);
      const { page } = watched;
      await page.goto(`${service.url}/console/customers/${customerId}`);
      await signIn(page, service.token);
      await page.getByRole('heading', { level: 1, name: `Rosalind ${lastName}` }).waitFor();
      const table = page.getByRole('table', { name: 'Recent events of this customer, newest first' });
      await table.waitFor();
      const column = (n: number) => table.locator(`tbody tr td:nth-child(${n})`).allInnerTexts();
      expect(await column(1)).toEqual(['customer.updated', 'customer.created']);
      expect(await column(3)).toEqual(customerEvents.map((event) => String(event.sequence)));
      await expectAccessible(page, 'customer page with its recent events');

      await page.getByRole('link', { name: 'Evented Account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Evented Account' }).waitFor();
      const accountTable = page.getByRole('table', { name: 'Recent events of this account, newest first' });
      await accountTable.waitFor();
      expect(await accountTable.locator('tbody tr td:nth-child(1)').allInnerTexts()).toEqual([
        'account.updated',
        'account.created',
      ]);
      expect(await accountTable.locator('tbody tr td:nth-child(3)').allInnerTexts()).toEqual(
        accountEvents.map((event) => String(event.sequence)),
      );
      await expectAccessible(page, 'account page with its recent events');

      await page.getByRole('region', { name: 'Recent events' }).getByRole('link', { name: 'All events' }).click();
      await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
      expect(watched.problems).toEqual([]);
      expect(watched.offsite).toEqual([]);
    },
  );

  browserIt('is not offered to a token without events:read, and nothing asks for it', async () => {
    watched = await openWatchedPage(browser!, service.url);
    const { page } = watched;
    const asked: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (body.includes('recentEvents')) asked.push(body);
    });
    await page.goto(`${service.url}/console/customers/${customerId}`);
    await signIn(page, noEventsToken);
    await page.getByRole('heading', { level: 1, name: `Rosalind ${lastName}` }).waitFor();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Recent events' }).count()).toBe(0);
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await page.getByRole('heading', { level: 1, name: 'Evented Account' }).waitFor();
    await page.getByRole('heading', { name: 'Metadata' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Recent events' }).count()).toBe(0);
    expect(asked).toEqual([]);
    await expectAccessible(page, 'account page without events:read');
    expect(watched.problems).toEqual([]);
    expect(watched.offsite).toEqual([]);
  });

  browserIt('follows its own account live: a freeze and a deposit made elsewhere show without a reload', async () => {
    const live = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Live Account' })))
      .accountId;
    watched = await openWatchedPage(browser!, service.url);
    const { page } = watched;
    await page.goto(`${service.url}/console/accounts/${live}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: 'Live Account' }).waitFor();
    const events = page.getByRole('table', { name: 'Recent events of this account, newest first' });
    await events.waitFor();
    await page.getByRole('heading', { name: 'Balance' }).waitFor();
    expect(await page.getByRole('region', { name: 'Frozen' }).count()).toBe(0);
    // Both of the page's subscriptions have their start in the feed (events after it reach them); then another
    // client changes the account.
    await expect.poll(followersOfTheFeed, { timeout: HUNG_TEST_DEADLINE_MS }).toBe(2);

    await ok('PUT', `/sandbox/account/${live}/flags/FROZEN`, { reason: 'Frozen by another agent' });
    await page.getByRole('region', { name: 'Frozen' }).getByText('Frozen by another agent', { exact: false }).waitFor();
    await expect
      .poll(() => events.locator('tbody tr td:nth-child(1)').first().innerText(), { timeout: HUNG_TEST_DEADLINE_MS })
      .toBe('account.updated');

    await ok('DELETE', `/sandbox/account/${live}/flags/FROZEN`);
    await ok('POST', `/sandbox/account/${live}/transaction`, {
      type: 'CREDIT',
      amount: 42.5,
      description: 'Live deposit',
    });
    await page.getByRole('cell', { name: 'Live deposit' }).waitFor();
    const balance = page.getByRole('region', { name: 'Balance' });
    await expect
      .poll(() => balance.locator('dd').first().innerText(), { timeout: HUNG_TEST_DEADLINE_MS })
      .toBe('$42.50');
    expect(watched.problems).toEqual([]);
    expect(watched.offsite).toEqual([]);
  });
});
