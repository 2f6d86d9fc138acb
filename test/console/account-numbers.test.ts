import type { Page } from 'playwright-core';
import { beforeAll, describe, expect } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * Account and routing numbers in the console (docs/adr/0107): the last four digits under `accounts:read`; with
 * `accounts:numbers:read` a reveal that reads them in full (never cached, audited) and a hide that takes them off the
 * page, never in storage or the address; with `accounts:controls` adding a number and disabling, enabling or
 * canceling one. A token without `accounts:numbers:read` is offered no reveal and never asks for the digits.
 */

const suite = consoleSuite();
let customerId: string;
let accountId: string;
let noNumbersToken: string;

interface RestNumber {
  accountNumberId: string;
  accountNumber: string;
  last4: string;
  routingNumber: string;
  status: string;
  inboundAchDebits: string;
}

async function ok(method: string, path: string, body?: unknown) {
  const res = await suite.service.call(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

/** REST's list: the numbers in full (itself an audited read). */
const restNumbers = async (id: string): Promise<{ routingNumber: string; accountNumbers: RestNumber[] }> =>
  ok('GET', `/sandbox/account/${id}/account-numbers`);

/** The list's `index`th number (oldest first), which the test expects to be there. */
const nth = (numbers: readonly RestNumber[], index: number): RestNumber => {
  const number = numbers[index];
  if (!number) throw new Error(`no account number ${index} in a list of ${numbers.length}`);
  return number;
};

const auditedReads = async (id: string): Promise<number> =>
  (
    await suite.service.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'account.account_number.read' AND resource_id = $1",
      [id],
    )
  ).rows[0].n;

/** What the page keeps where it would outlive the view: both storages and the address. */
const keptByPage = async (page: Page): Promise<string> =>
  `${page.url()}\n${String(await page.evaluate('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })'))}`;

/** The GraphQL requests that ask for the numbers in full. */
function watchReveals(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const body = request.postData() ?? '';
    if (body.includes('AccountNumbers') || /accountNumbers\b/.test(body)) asked.push(body);
  });
  return asked;
}

beforeAll(async () => {
  customerId = (await ok('POST', '/sandbox/customer', buildCustomerInput({ lastName: 'Numbered' }))).customerId;
  accountId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Numbered Checking' })))
    .accountId;
  noNumbersToken = (
    await issueApiToken(suite.service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read', 'accounts:controls'],
      name: 'no numbers',
    })
  ).token;
});

const { browserIt } = suite;

describe('account numbers in the console', () => {
  const { open, expectClean } = suite.watchedPages();

  browserIt(
    'shows the last four, reveals the numbers in full (audited, never kept), and hides them on Hide and on leaving',
    async () => {
      const { page } = await open();
      const asked = watchReveals(page);
      const { routingNumber, accountNumbers } = await restNumbers(accountId);
      expect(accountNumbers).toHaveLength(1);
      const number = nth(accountNumbers, 0);
      expect(number.accountNumber).toMatch(/^\d{12}$/);
      expect(routingNumber).toMatch(/^\d{9}$/);

      await suite.signInAt(page, `/console/accounts/${accountId}`);
      const panel = page.getByRole('region', { name: 'Account numbers' });
      await panel.getByText(`•••• ${number.last4}`).waitFor();
      await page
        .getByRole('navigation', { name: 'On this page' })
        .getByRole('link', { name: 'Account numbers' })
        .waitFor();
      await panel.getByText('recorded in the audit trail', { exact: false }).waitFor();
      expect(await page.content()).not.toContain(number.accountNumber);
      expect(asked).toEqual([]);

      const readsBefore = await auditedReads(accountId);
      await panel.getByRole('button', { name: 'Show account numbers' }).dblclick();
      const list = panel.getByRole('list', { name: 'Account numbers, oldest first' });
      await list.getByText(number.accountNumber, { exact: true }).waitFor();
      const item = await list.getByRole('listitem').first().innerText();
      expect(item).toContain(routingNumber);
      expect(item).toContain('Active');
      expect(item).toContain('Allowed');
      // One press, one read: a double press sends one query, and the audit trail has one row for it.
      expect(asked).toHaveLength(1);
      expect(JSON.parse(asked[0]!).operationName).toBe('AccountNumbers');
      await expect.poll(() => auditedReads(accountId)).toBe(readsBefore + 1);
      expect(await keptByPage(page)).not.toContain(number.accountNumber);
      await expectAccessible(page, 'an account with its numbers shown');

      await panel.getByRole('button', { name: 'Hide' }).click();
      await panel.getByRole('button', { name: 'Show account numbers' }).waitFor();
      expect(await page.content()).not.toContain(number.accountNumber);
      expect(await keptByPage(page)).not.toContain(number.accountNumber);

      // Shown again, then the agent leaves for a holder's page and comes back: the numbers are hidden again.
      await panel.getByRole('button', { name: 'Show account numbers' }).click();
      await list.getByText(number.accountNumber, { exact: true }).waitFor();
      await page.getByRole('region', { name: 'Holders' }).getByRole('link').first().click();
      await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Numbered' }).waitFor();
      expect(await page.content()).not.toContain(number.accountNumber);
      await page.goBack();
      await panel.getByRole('button', { name: 'Show account numbers' }).waitFor();
      await panel.getByText(`•••• ${number.last4}`).waitFor();
      expect(await page.content()).not.toContain(number.accountNumber);
      expect(await keptByPage(page)).not.toContain(number.accountNumber);
      expect(asked).toHaveLength(2);
      await expect.poll(() => auditedReads(accountId)).toBe(readsBefore + 2);
      expectClean();
    },
  );

  browserIt('adds, disables, enables and cancels numbers; the list follows and a refusal is shown', async () => {
    const other = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Numbered Savings' })))
      .accountId;
    const first = nth((await restNumbers(other)).accountNumbers, 0);
    const { page } = await open();
    await suite.signInAt(page, `/console/accounts/${other}`);
    const panel = page.getByRole('region', { name: 'Account numbers' });
    await panel.getByRole('button', { name: 'Show account numbers' }).click();
    const list = panel.getByRole('list', { name: 'Account numbers, oldest first' });
    await list.getByText(first.accountNumber, { exact: true }).waitFor();

    // Add one with inbound ACH debits blocked; a double press adds one.
    const form = panel.getByRole('form', { name: 'Add an account number' });
    await form.getByLabel('Inbound ACH debits').selectOption('BLOCKED');
    await form.getByRole('button', { name: 'Add account number' }).dblclick();
    await form.getByRole('status').filter({ hasText: 'Added the account number ending' }).waitFor();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    const afterAdd = (await restNumbers(other)).accountNumbers;
    expect(afterAdd).toHaveLength(2);
    const added = nth(afterAdd, 1);
    expect(added.inboundAchDebits).toBe('BLOCKED');
    await list.getByText(added.accountNumber, { exact: true }).waitFor();
    expect(await list.getByRole('listitem').nth(1).innerText()).toContain('Blocked');

    // Disable the first (a double press disables it once: it does not flip back), then enable it again.
    await list.getByRole('button', { name: `Disable number ending ${first.last4}` }).dblclick();
    await list.getByRole('button', { name: `Enable number ending ${first.last4}` }).waitFor();
    expect(await list.getByRole('listitem').first().innerText()).toContain('Disabled');
    expect(nth((await restNumbers(other)).accountNumbers, 0).status).toBe('DISABLED');
    await list.getByRole('button', { name: `Enable number ending ${first.last4}` }).click();
    await list.getByRole('button', { name: `Disable number ending ${first.last4}` }).waitFor();
    expect(nth((await restNumbers(other)).accountNumbers, 0).status).toBe('ACTIVE');

    // Allow inbound ACH debits on the added one.
    await list.getByRole('button', { name: `Allow inbound ACH debits on number ending ${added.last4}` }).click();
    await list.getByRole('button', { name: `Block inbound ACH debits on number ending ${added.last4}` }).waitFor();
    expect(nth((await restNumbers(other)).accountNumbers, 1).inboundAchDebits).toBe('ALLOWED');

    // Cancel the added one: asked first (kept when the agent keeps it), then final: no controls remain.
    await list.getByRole('button', { name: `Cancel number ending ${added.last4}…` }).click();
    let dialog = page.getByRole('alertdialog');
    await dialog.getByText('cannot be enabled again', { exact: false }).waitFor();
    await expectAccessible(page, 'the confirmation of a cancellation');
    await dialog.getByRole('button', { name: 'Keep the number' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(nth((await restNumbers(other)).accountNumbers, 1).status).toBe('ACTIVE');
    await list.getByRole('button', { name: `Cancel number ending ${added.last4}…` }).click();
    dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Cancel the number' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => list.getByRole('listitem').nth(1).innerText()).toContain('Canceled');
    expect(await list.getByRole('listitem').nth(1).getByRole('button').count()).toBe(0);
    expect(nth((await restNumbers(other)).accountNumbers, 1).status).toBe('CANCELED');

    // Canceled elsewhere while shown here: the page's Disable is refused with the API's code, nothing changes.
    await ok('PUT', `/sandbox/account/${other}/account-numbers/${first.accountNumberId}`, { status: 'CANCELED' });
    await list.getByRole('button', { name: `Disable number ending ${first.last4}` }).click();
    await panel.getByRole('alert').filter({ hasText: 'ACCOUNT_NUMBER_CANCELED' }).waitFor();
    expect((await restNumbers(other)).accountNumbers.map((each) => each.status)).toEqual(['CANCELED', 'CANCELED']);
    await expectAccessible(page, 'account numbers after changes and a refusal');
    expectClean();
  });

  browserIt(
    'offers a token without accounts:numbers:read no reveal (adding a number still), and never asks for the digits',
    async () => {
      const { page, settled } = await open();
      const asked = watchReveals(page);
      const number = nth((await restNumbers(accountId)).accountNumbers, 0);
      await suite.signInAt(page, `/console/accounts/${accountId}`, noNumbersToken);
      const panel = page.getByRole('region', { name: 'Account numbers' });
      await panel.getByText(`•••• ${number.last4}`).waitFor();
      await settled();
      expect(await panel.getByRole('button', { name: 'Show account numbers' }).count()).toBe(0);
      expect(await page.content()).not.toContain(number.accountNumber);
      expect(await page.content()).not.toContain((await restNumbers(accountId)).routingNumber);
      expect(asked).toEqual([]);
      await expectAccessible(page, 'an account without its numbers');

      // With accounts:controls it may still add a number, named by its last four; the digits are still not asked for.
      await panel.getByRole('button', { name: 'Add account number' }).click();
      const status = panel.getByRole('status').filter({ hasText: 'Added the account number ending' });
      await status.waitFor();
      const numbers = (await restNumbers(accountId)).accountNumbers;
      expect(numbers).toHaveLength(2);
      expect(await status.innerText()).toContain(nth(numbers, 1).last4);
      await settled();
      expect(await page.content()).not.toContain(nth(numbers, 1).accountNumber);
      expect(asked).toEqual([]);
      expectClean();
    },
  );
});
