import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { startTestService, type TestService } from '../support/service.js';
import { bearer } from '../support/http-auth.js';
import { type Receiver, startReceiver } from '../features/webhooks/receiver.js';
import { fastDeliverySettings } from '../features/webhooks/settings.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * The console's record-keeping tools in headless Chromium against a live service: deleting accounts and
 * customers behind a confirmation (and the API's refusals shown with their codes), editing metadata, a
 * customer's audit trail, the audit trail's filters, an endpoint's deliveries and a redelivery; a read-only
 * token is offered none of the writes. On every page: no script or CSP error, no request to another origin,
 * no serious or critical axe-core violation.
 */

let service: TestService;
let receiver: Receiver;
let browser: Browser | undefined;
let readOnlyToken: string;
let writer: { token: string; principalId: string };
const suffix = randomUUID().slice(0, 8);
const lastName = `Lamarr${suffix}`;
const tempLastName = `Noether${suffix}`;
const ssn = '219-09-9998';
let customerId: string;
let tempCustomerId: string;
let tempAccountId: string;
let fundedId: string;
let spareId: string;
let endpointUrl: string;

async function ok(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await service.call(method, path, { body, headers: { 'idempotency-key': randomUUID(), ...headers } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  receiver = await startReceiver();
  service = await startTestService(fastDeliverySettings([100, 200]));
  endpointUrl = receiver.url('/console-deliveries');
  await ok('POST', '/sandbox/webhook-endpoint', { url: endpointUrl, eventTypes: ['customer.created'] });
  customerId = (
    await ok(
      'POST',
      '/sandbox/customer',
      buildCustomerInput({ firstName: 'Hedy', middleName: '', lastName, socialSecurityNumber: ssn }),
    )
  ).customerId;
  fundedId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Funded Account' })))
    .accountId;
  await ok('POST', `/sandbox/account/${fundedId}/transaction`, {
    type: 'CREDIT',
    amount: 10,
    description: 'Opening deposit',
  });
  spareId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Spare Account' })))
    .accountId;
  writer = await issueApiToken(service.database.pool, {
    environments: ['sandbox'],
    scopes: ['customers:write', 'accounts:write'],
    name: 'writer',
  });
  tempCustomerId = (
    await ok(
      'POST',
      '/sandbox/customer',
      buildCustomerInput({ firstName: 'Emmy', middleName: '', lastName: tempLastName }),
      bearer(writer.token),
    )
  ).customerId;
  tempAccountId = (
    await ok(
      'POST',
      '/sandbox/account',
      buildAccountInput([tempCustomerId], { name: 'Temporary Account' }),
      bearer(writer.token),
    )
  ).accountId;
  readOnlyToken = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read', 'events:read', 'webhooks:read', 'audit:read'],
      name: 'read only',
    })
  ).token;
  await receiver.waitFor('/console-deliveries', 2);
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await receiver?.close();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s records and trails', () => {
  const { open, expectClean } = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt('deletes an account after a confirmation, and offers no deletion of one with money on it', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${fundedId}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: 'Funded Account' }).waitFor();
    // Money on it: the page says to move it out first and offers no deletion (the API would refuse it).
    const deletion = page.getByRole('region', { name: 'Delete' });
    await deletion
      .getByRole('note')
      .getByText(
        /^This account holds \$[\d,.]+ with \$[\d,.]+ on hold: it cannot be deleted\. To end it, use Close account…/,
      )
      .waitFor();
    expect(await page.getByRole('button', { name: 'Delete account' }).count()).toBe(0);
    await expectAccessible(page, 'account page with money, no deletion offered');
    expect((await service.call('GET', `/sandbox/account/${fundedId}`)).status).toBe(200);

    await page.goto(`${service.url}/console/accounts/${spareId}`);
    await page.getByRole('heading', { level: 1, name: 'Spare Account' }).waitFor();
    // The keyboard opens the confirmation, Escape dismisses it, and nothing was sent.
    await page.getByRole('button', { name: 'Delete account' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Delete Spare Account?' });
    await dialog.waitFor();
    await expectAccessible(page, 'account page, delete confirmation');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await service.call('GET', `/sandbox/account/${spareId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete Spare Account?' })
      .getByRole('button', { name: 'Delete for good' })
      .dblclick();
    await page.getByRole('heading', { level: 1, name: 'Account deleted' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Spare Account was deleted.' }).waitFor();
    expect((await service.call('GET', `/sandbox/account/${spareId}`, { validateResponse: false })).status).toBe(404);
    const deletions = await service.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'account.delete' AND resource_id = $1",
      [spareId],
    );
    expect(deletions.rows[0].n).toBe(1);
    await expectAccessible(page, 'account deleted');
    await page
      .getByRole('list', { name: 'Its holders' })
      .getByRole('link', { name: `Hedy ${lastName}` })
      .click();
    await page.getByRole('heading', { level: 1, name: `Hedy ${lastName}` }).waitFor();
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    expectClean();
  });

  browserIt(
    'deletes a customer once no account is linked; while one is, the refusal is shown with its code',
    async () => {
      const { page } = await open();
      await page.goto(`${service.url}/console/customers/${tempCustomerId}`);
      await signIn(page, service.token);
      await page.getByRole('heading', { level: 1, name: `Emmy ${tempLastName}` }).waitFor();
      await page.getByRole('link', { name: 'Temporary Account' }).waitFor();
      await page.getByRole('button', { name: 'Delete customer' }).click();
      const dialog = page.getByRole('alertdialog', { name: `Delete Emmy ${tempLastName}?` });
      await dialog.getByRole('button', { name: 'Delete for good' }).click();
      await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('CUSTOMER_HAS_ACCOUNTS');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await service.call('GET', `/sandbox/customer/${tempCustomerId}`)).status).toBe(200);

      await ok('DELETE', `/sandbox/account/${tempAccountId}`);
      await page.reload();
      await page.getByText('No accounts.').waitFor();
      await page.getByRole('button', { name: 'Delete customer' }).click();
      await dialog.getByRole('button', { name: 'Delete for good' }).click();
      await page.getByRole('heading', { level: 1, name: 'Customer deleted' }).waitFor();
      expect(
        (await service.call('GET', `/sandbox/customer/${tempCustomerId}`, { validateResponse: false })).status,
      ).toBe(404);
      await page.getByRole('link', { name: 'Back to customers' }).click();
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      expectClean();
    },
  );

  browserIt('edits the metadata of a customer and of an account', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/customers/${customerId}`);
    await signIn(page, service.token);
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await metadata.getByText('No metadata.').waitFor();
    await page.getByRole('button', { name: 'Edit metadata' }).click();
    await page.getByLabel('Metadata key 1').fill('crmId');
    await page.getByLabel('Metadata value 1').fill('C-1042');
    await page.getByRole('button', { name: 'Add a pair' }).click();
    await page.getByLabel('Metadata key 2').fill('tier');
    await page.getByLabel('Metadata value 2').fill('gold');
    await expectAccessible(page, 'customer page, editing metadata');
    await page.getByRole('button', { name: 'Save metadata' }).click();
    await metadata.getByRole('status').filter({ hasText: 'Metadata saved.' }).waitFor();
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data.metadata).toEqual({
      crmId: 'C-1042',
      tier: 'gold',
    });

    // A removed pair is removed, a changed value changed, in one merge.
    await page.getByRole('button', { name: 'Edit metadata' }).click();
    await page.getByRole('button', { name: 'Remove pair 1' }).click();
    await page.getByLabel('Metadata value 1').fill('silver');
    await page.getByRole('button', { name: 'Save metadata' }).click();
    await metadata.getByRole('status').waitFor();
    await expect.poll(() => metadata.getByRole('definition').allInnerTexts()).toEqual(['silver']);
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data.metadata).toEqual({
      tier: 'silver',
    });

    await page.goto(`${service.url}/console/accounts/${fundedId}`);
    await page.getByRole('heading', { level: 1, name: 'Funded Account' }).waitFor();
    await page.getByRole('button', { name: 'Edit metadata' }).click();
    await page.getByLabel('Metadata key 1').fill('costCentre');
    await page.getByLabel('Metadata value 1').fill('42');
    await page.getByRole('button', { name: 'Save metadata' }).click();
    await page.getByRole('region', { name: 'Metadata' }).getByRole('status').waitFor();
    const account = (await service.call('GET', `/sandbox/account/${fundedId}`)).json.data;
    expect([account.metadata, account.name, account.currency]).toEqual([{ costCentre: '42' }, 'Funded Account', 'USD']);
    expectClean();
  });

  browserIt('shows a customer’s audit trail, and filters the audit trail by actor, operation and time', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/customers/${customerId}`);
    await signIn(page, service.token);
    const trail = page.getByRole('table', { name: 'Audit events of this customer, oldest first' });
    await trail.getByRole('cell', { name: 'customer.create' }).waitFor();
    expect(await trail.getByRole('cell', { name: customerId }).count()).toBe(await trail.locator('tbody tr').count());
    await expectAccessible(page, 'customer page with its audit trail');
    expect(await page.content()).not.toContain(ssn);

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit' }).click();
    const table = page.getByRole('table', { name: 'Audit events, oldest first' });
    await table.getByRole('cell', { name: 'account.create' }).first().waitFor();
    const column = (n: number) => table.locator(`tbody tr td:nth-child(${n})`).allInnerTexts();
    await page.getByLabel('Actor').fill(writer.principalId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => column(3)).toEqual(['customer.create', 'account.create']);
    expect(new Set(await column(2))).toEqual(new Set([writer.principalId]));
    await page.getByLabel('Operation').selectOption('account.create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => column(4)).toEqual([tempAccountId]);
    await expectAccessible(page, 'audit page, filtered');

    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(`${tomorrow}T00:00`);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No audit events match.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await table.getByRole('cell', { name: 'webhook_endpoint.create' }).waitFor();
    expect(await page.getByLabel('Actor').inputValue()).toBe('');
    expectClean();
  });

  browserIt('shows an endpoint’s deliveries and sends an event again', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/webhooks`);
    await signIn(page, service.token);
    await page.getByRole('button', { name: `Show deliveries to ${endpointUrl}` }).click();
    const attempts = page.getByRole('table', { name: 'Latest delivery attempts, newest first' });
    await attempts.getByRole('cell', { name: 'delivered' }).first().waitFor();
    await expectAccessible(page, 'webhooks page with deliveries');
    const before = receiver.received.filter((request) => request.path === '/console-deliveries').length;
    const eventId = (await attempts.locator('tbody tr').last().locator('td:nth-child(2)').innerText()).trim();
    await page.getByRole('button', { name: `Redeliver event ${eventId}` }).click();
    await page.getByRole('status').filter({ hasText: 'will be delivered again' }).waitFor();
    const requests = await receiver.waitFor('/console-deliveries', before + 1);
    expect(requests.at(-1)!.headers['webhook-id']).toBe(eventId);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        return attempts.getByRole('cell', { name: eventId, exact: true }).count();
      })
      .toBe(2);
    expectClean();
  });

  browserIt('offers a read-only token no deletion, no metadata change and no redelivery', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/customers/${customerId}`);
    await signIn(page, readOnlyToken);
    await page.getByRole('heading', { level: 1, name: `Hedy ${lastName}` }).waitFor();
    await page.getByRole('table', { name: 'Audit events of this customer, oldest first' }).waitFor();
    await page.getByRole('region', { name: 'Metadata' }).waitFor();
    for (const name of ['Delete customer', 'Edit metadata', 'Edit contact details'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    await page.goto(`${service.url}/console/accounts/${fundedId}`);
    await page.getByRole('heading', { level: 1, name: 'Funded Account' }).waitFor();
    await page.getByRole('region', { name: 'Metadata' }).waitFor();
    for (const name of ['Delete account', 'Edit metadata'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    await page.goto(`${service.url}/console/webhooks`);
    await page.getByRole('button', { name: `Show deliveries to ${endpointUrl}` }).click();
    await page.getByRole('table', { name: 'Latest delivery attempts, newest first' }).waitFor();
    expect(await page.getByRole('button', { name: /^Redeliver/ }).count()).toBe(0);
    await expectAccessible(page, 'webhooks page, read only');
    expectClean();
  });
});
