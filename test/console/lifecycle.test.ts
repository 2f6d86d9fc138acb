import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * The console's account and customer lifecycle (docs/account-lifecycle.md) in headless Chromium against a live
 * service: "Closed" and "Archived" badges and banners, closing an account with its balance moved to another one,
 * reopening it, and archiving a customer, each refusal shown with its code. On every page: no script or CSP
 * error, no request to another origin, no serious or critical axe-core violation.
 */

let service: TestService;
let browser: Browser | undefined;
const suffix = randomUUID().slice(0, 8);

async function ok(method: string, path: string, body?: unknown) {
  const res = await service.call(method, path, { body, headers: { 'idempotency-key': randomUUID() } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}
const newCustomer = async (lastName: string) =>
  (await ok('POST', '/sandbox/customer', buildCustomerInput({ firstName: 'Ada', middleName: '', lastName })))
    .customerId as string;
const newAccount = async (customerId: string, name: string) =>
  (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name }))).accountId as string;
beforeAll(async () => {
  service = await startTestService();
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s account and customer lifecycle', () => {
  const pages = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt('shows Closed and Archived badges and banners, on the pages and in the lists', async () => {
    const customerId = await newCustomer(`Lovelace${suffix}`);
    const accountId = await newAccount(customerId, `Closed Savings ${suffix}`);
    await ok('POST', `/sandbox/account/${accountId}/close`, { reason: 'CUSTOMER_REQUEST' });
    await ok('POST', `/sandbox/customer/${customerId}/archive`, { reason: 'DECEASED' });

    const { page } = await pages.open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    const title = page.getByRole('heading', { level: 1 });
    await expect.poll(() => title.innerText()).toContain('Closed');
    const banner = page.getByRole('region', { name: 'Closed' });
    await expect.poll(() => banner.innerText()).toContain('Customer request');
    expect(await banner.innerText()).toMatch(/on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await expectAccessible(page, 'closed account');

    await page.goto(`${service.url}/console/customers/${customerId}`);
    await page.getByRole('heading', { level: 1, name: `Ada Lovelace${suffix} Archived` }).waitFor();
    const archived = page.getByRole('region', { name: 'Archived' });
    await expect.poll(() => archived.innerText()).toContain('Deceased');
    const accounts = page.getByRole('region', { name: 'Accounts' });
    await expect.poll(() => accounts.getByRole('listitem').innerText()).toContain('Closed');
    await expectAccessible(page, 'archived customer');

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Accounts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    await page.getByLabel('External id').waitFor();
    // A fresh database: the account is on the first page.
    const row = page.getByRole('row').filter({ hasText: `Closed Savings ${suffix}` });
    await expect.poll(() => row.innerText()).toContain('Closed');
    pages.expectClean();
  });
});
