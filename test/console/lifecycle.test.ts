import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * The console's account and customer lifecycle (docs/account-lifecycle.md) in headless Chromium against a live
 * service: "Closed" and "Archived" badges and banners, closing an account with its balance moved to another one,
 * reopening it, and archiving a customer, each refusal shown with its code. On every page: no script or CSP
 * error, no request to another origin, no serious or critical axe-core violation.
 */

const suite = consoleSuite();
const suffix = randomUUID().slice(0, 8);

async function ok(method: string, path: string, body?: unknown) {
  const res = await suite.service.call(method, path, { body, headers: { 'idempotency-key': randomUUID() } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}
const newCustomer = async (lastName: string) =>
  (await ok('POST', '/sandbox/customer', buildCustomerInput({ firstName: 'Ada', middleName: '', lastName })))
    .customerId as string;
const newAccount = async (customerId: string, name: string) =>
  (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name }))).accountId as string;
const deposit = (accountId: string, amount: number, extra: Record<string, unknown> = {}) =>
  ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'CREDIT', amount, description: 'Deposit', ...extra });
const balanceOf = async (accountId: string) => Number((await ok('GET', `/sandbox/account/${accountId}`)).amount);

const { browserIt } = suite;

describe('the console’s account and customer lifecycle', () => {
  const pages = suite.watchedPages();

  browserIt('shows Closed and Archived badges and banners, on the pages and in the lists', async () => {
    const customerId = await newCustomer(`Lovelace${suffix}`);
    const accountId = await newAccount(customerId, `Closed Savings ${suffix}`);
    await ok('POST', `/sandbox/account/${accountId}/close`, { reason: 'CUSTOMER_REQUEST' });
    await ok('POST', `/sandbox/customer/${customerId}/archive`, { reason: 'DECEASED' });

    const { page } = await pages.open();
    await suite.signInAt(page, `/console/accounts/${accountId}`);
    const title = page.getByRole('heading', { level: 1 });
    await expect.poll(() => title.innerText()).toContain('Closed');
    const banner = page.getByRole('region', { name: 'Closed' });
    await expect.poll(() => banner.innerText()).toContain('Customer request');
    expect(await banner.innerText()).toMatch(/on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await expectAccessible(page, 'closed account');

    await page.goto(`${suite.service.url}/console/customers/${customerId}`);
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

  browserIt(
    'closes an account after a confirmation naming its balance and where it moves, refuses with codes, and reopens it',
    async () => {
      const customerId = await newCustomer(`Hamilton${suffix}`);
      const closing = await newAccount(customerId, `Closing Checking ${suffix}`);
      const receiving = await newAccount(customerId, `Receiving Savings ${suffix}`);
      const held = await newAccount(customerId, `Held Checking ${suffix}`);
      await deposit(closing, 250.75);
      await deposit(receiving, 10);
      await deposit(held, 20);
      await ok('POST', `/sandbox/account/${held}/transaction`, {
        type: 'DEBIT',
        amount: 5,
        description: 'Card hold',
        hold: true,
      });

      const { page } = await pages.open();
      // A pending hold: the API's refusal, with its code, in the dialog.
      await suite.signInAt(page, `/console/accounts/${held}`);
      await page.getByRole('heading', { level: 1, name: `Held Checking ${suffix}` }).waitFor();
      const deleteNote = page.getByRole('region', { name: 'Delete' }).getByRole('note');
      await expect.poll(() => deleteNote.innerText()).toContain('Close account…');
      await page.getByRole('button', { name: 'Close account…' }).click();
      let dialog = page.getByRole('alertdialog', { name: `Close Held Checking ${suffix}?` });
      await dialog.getByLabel('Account id that receives the balance').fill(receiving);
      await dialog.getByText(`$20.00 will move to Receiving Savings ${suffix}`).waitFor();
      await dialog.getByLabel('Reason').selectOption('CUSTOMER_REQUEST');
      await dialog.getByRole('button', { name: 'Close account' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'ACCOUNT_HAS_PENDING_HOLDS' }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await balanceOf(held)).toBe(20);

      await page.goto(`${suite.service.url}/console/accounts/${closing}`);
      await page.getByRole('heading', { level: 1, name: `Closing Checking ${suffix}` }).waitFor();
      await page.getByRole('heading', { name: 'Transfer', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Close account…' }).click();
      dialog = page.getByRole('alertdialog', { name: `Close Closing Checking ${suffix}?` });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain('Balance now: $250.75');
      const target = dialog.getByLabel('Account id that receives the balance');
      // Checked before the API is asked: a missing reason, a malformed id, the account itself, an unknown one.
      await dialog.getByRole('button', { name: 'Close account' }).click();
      await dialog.getByText('Choose why the account closes.').waitFor();
      await dialog.getByText('Enter the id of the account that receives the balance.').waitFor();
      await target.fill('not-an-id');
      await dialog.getByRole('button', { name: 'Close account' }).click();
      await dialog.getByText('INVALID_FORMAT').waitFor();
      expect(await target.getAttribute('aria-invalid')).toBe('true');
      await target.fill(closing);
      await dialog.getByText('The balance cannot move to the account being closed.').waitFor();
      await target.fill(randomUUID());
      await dialog.getByText('ACCOUNT_NOT_FOUND').waitFor();
      await target.fill(receiving);
      await dialog.getByText(`$250.75 will move to Receiving Savings ${suffix}`).waitFor();
      await dialog.getByLabel('Reason').selectOption('CUSTOMER_REQUEST');
      await expectAccessible(page, 'close account dialog');
      const before = (await balanceOf(closing)) + (await balanceOf(receiving));
      await dialog.getByRole('button', { name: 'Close account' }).click();
      await dialog.waitFor({ state: 'detached' });
      const banner = page.getByRole('region', { name: 'Closed' });
      await expect.poll(() => banner.innerText()).toContain('Customer request');
      expect(await page.getByRole('heading', { name: 'Transfer', exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Post hold/ }).count()).toBe(0);
      expect(await page.getByLabel(/New overdraft limit/).count()).toBe(0);
      await expectAccessible(page, 'closed account page');
      // The money moved, all of it, and the ledger still sums to zero.
      expect(await balanceOf(closing)).toBe(0);
      expect(await balanceOf(receiving)).toBe(260.75);
      expect((await balanceOf(closing)) + (await balanceOf(receiving))).toBe(before);
      expect(await ledgerViolations(suite.service.database.pool)).toEqual([]);

      // Reopened after a confirmation; closed again at a zero balance, which asks for no other account.
      await page.getByRole('button', { name: 'Reopen account…' }).click();
      dialog = page.getByRole('alertdialog', { name: `Reopen Closing Checking ${suffix}?` });
      await dialog.getByRole('button', { name: 'Reopen account' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: 'Transfer', exact: true }).waitFor();
      expect(await page.getByRole('region', { name: 'Closed' }).count()).toBe(0);
      expect((await ok('GET', `/sandbox/account/${closing}`)).status).toBeUndefined();
      await page.getByRole('button', { name: 'Close account…' }).click();
      dialog = page.getByRole('alertdialog', { name: `Close Closing Checking ${suffix}?` });
      expect(await dialog.innerText()).toContain('Balance now: $0.00');
      expect(await dialog.getByLabel('Account id that receives the balance').count()).toBe(0);
      await dialog.getByLabel('Reason').selectOption('BANK_DECISION');
      await dialog.getByRole('button', { name: 'Close account' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByRole('region', { name: 'Closed' }).innerText()).toContain('Bank decision');
      expect((await ok('GET', `/sandbox/account/${closing}`)).closeReason).toBe('BANK_DECISION');
      pages.expectClean();
    },
  );

  browserIt('archives a customer after a confirmation with a reason, refused while an account is open', async () => {
    const customerId = await newCustomer(`Babbage${suffix}`);
    const accountId = await newAccount(customerId, `Last Checking ${suffix}`);
    const { page } = await pages.open();
    await suite.signInAt(page, `/console/customers/${customerId}`);
    await page.getByRole('heading', { level: 1, name: `Ada Babbage${suffix}` }).waitFor();
    await page.getByRole('link', { name: `Last Checking ${suffix}` }).waitFor();
    await page.getByRole('button', { name: 'Archive customer…' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Archive Ada Babbage${suffix}?` });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('One account is still open');
    await dialog.getByRole('button', { name: 'Archive customer' }).click();
    await dialog.getByText('Choose why the customer is archived.').waitFor();
    await dialog.getByLabel('Reason').selectOption('DUPLICATE');
    await dialog.getByRole('button', { name: 'Archive customer' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'CUSTOMER_HAS_OPEN_ACCOUNTS' }).waitFor();
    await expectAccessible(page, 'archive dialog with a refusal');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await ok('GET', `/sandbox/customer/${customerId}`)).status).toBeUndefined();

    await ok('POST', `/sandbox/account/${accountId}/close`, { reason: 'CUSTOMER_REQUEST' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Ada Babbage${suffix}` }).waitFor();
    await page.getByRole('button', { name: 'Archive customer…' }).click();
    await dialog.waitFor();
    expect(await dialog.innerText()).not.toContain('still open');
    await dialog.getByLabel('Reason').selectOption('DUPLICATE');
    await dialog.getByRole('button', { name: 'Archive customer' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('region', { name: 'Archived' }).innerText()).toContain('Duplicate');
    expect(await page.getByRole('button', { name: 'Archive customer…' }).count()).toBe(0);
    await expectAccessible(page, 'archived customer page');
    const archived = await ok('GET', `/sandbox/customer/${customerId}`);
    expect([archived.status, archived.archiveReason]).toEqual(['ARCHIVED', 'DUPLICATE']);
    pages.expectClean();
  });

  browserIt('shows the API’s ACCOUNT_BALANCE_NOT_ZERO for a negative balance, and nothing changes', async () => {
    const customerId = await newCustomer(`Hopper${suffix}`);
    const overdrawn = await newAccount(customerId, `Overdrawn Checking ${suffix}`);
    const set = await suite.service.call('POST', '/sandbox/graphql', {
      body: { query: `mutation { setOverdraftLimit(accountId: "${overdrawn}", overdraftLimit: "100") { id } }` },
    });
    expect(set.json.errors).toBeUndefined();
    await ok('POST', `/sandbox/account/${overdrawn}/transaction`, { type: 'DEBIT', amount: 30, description: 'Fee' });
    const { page } = await pages.open();
    await suite.signInAt(page, `/console/accounts/${overdrawn}`);
    await page.getByRole('heading', { level: 1, name: `Overdrawn Checking ${suffix}` }).waitFor();
    await page.getByRole('button', { name: 'Close account…' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Close Overdrawn Checking ${suffix}?` });
    await dialog.getByText('The balance is negative: credit it to zero first.').waitFor();
    expect(await dialog.getByLabel('Account id that receives the balance').count()).toBe(0);
    await dialog.getByLabel('Reason').selectOption('OTHER');
    await dialog.getByRole('button', { name: 'Close account' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'ACCOUNT_BALANCE_NOT_ZERO' }).waitFor();
    const account = await ok('GET', `/sandbox/account/${overdrawn}`);
    expect([account.status, Number(account.amount)]).toEqual([undefined, -30]);
    expect(await ledgerViolations(suite.service.database.pool)).toEqual([]);
    pages.expectClean();
  });
});
