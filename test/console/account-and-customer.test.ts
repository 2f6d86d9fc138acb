import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput, uniqueDocumentLocatorNumber, uniqueSsn } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * The console's account and customer tools in headless Chromium against a live service: flags with reasons,
 * the balance chart, statement downloads, transaction filters, finding customers by phone number and external
 * id, creating and editing a customer, adding and removing holders. On every page: no script or CSP error, no
 * request to another origin, no serious or critical axe-core violation.
 */

let service: TestService;
let browser: Browser | undefined;
const suffix = randomUUID().slice(0, 8);
const lastName = `Hopper${suffix}`;
let customerId: string;
let otherCustomerId: string;
let accountId: string;

const readDownload = (path: string) => readFile(path);

async function ok(method: string, path: string, body?: unknown) {
  const res = await service.call(method, path, { body, headers: { 'idempotency-key': randomUUID() } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  service = await startTestService();
  customerId = (
    await ok('POST', '/sandbox/customer', {
      ...buildCustomerInput({
        firstName: 'Grace',
        middleName: 'Brewster',
        lastName,
        phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 7788' }],
      }),
      externalId: `crm-${suffix}`,
    })
  ).customerId;
  otherCustomerId = (
    await ok(
      'POST',
      '/sandbox/customer',
      buildCustomerInput({ firstName: 'Alan', middleName: '', lastName: `Turing${suffix}` }),
    )
  ).customerId;
  accountId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Navy Checking' })))
    .accountId;
  await ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'CREDIT', amount: 500, description: 'Salary' });
  await ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'DEBIT', amount: 120.25, description: 'Rent' });
  await ok('POST', `/sandbox/account/${accountId}/transaction`, {
    type: 'DEBIT',
    amount: 7,
    description: 'Coffee hold',
    hold: true,
  });
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

describe('the console’s account and customer tools', () => {
  const { open, expectClean } = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt('freezes an account only with a reason, shows who set it, why and until when, and lifts it', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: 'Navy Checking' }).waitFor();
    // The form requires a reason: pressing without one sends nothing.
    await page.getByRole('button', { name: 'Set frozen' }).click();
    expect(
      await page
        .getByLabel('Reason')
        .evaluate((input) => (input as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing),
    ).toBe(true);
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.flags).toEqual([]);

    await page.getByLabel('Reason').fill('Suspicious login from a new device');
    await page.getByLabel(/Lifts itself at/).fill('2099-06-30T12:00');
    await page.getByRole('button', { name: 'Set frozen' }).click();
    const row = page
      .getByRole('table', { name: 'Flags set on the account' })
      .getByRole('row')
      .filter({ hasText: 'Frozen' });
    await row.filter({ hasText: 'Suspicious login from a new device' }).waitFor();
    const details = (
      await service.call('POST', '/sandbox/graphql', {
        body: { query: `{ account(accountId: "${accountId}") { flagDetails { flag reason setBy setAt until } } }` },
      })
    ).json.data.account.flagDetails;
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ flag: 'FROZEN', reason: 'Suspicious login from a new device' });
    expect(details[0].until).toMatch(/^2099-06-30T/);
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells).toEqual([
      'Frozen',
      'Suspicious login from a new device',
      'API_TOKENS entry 1', // by name, not the principal's keyed label
      `${details[0].setAt.slice(0, 16).replace('T', ' ')} UTC`,
      `${details[0].until.slice(0, 16).replace('T', ' ')} UTC`,
    ]);
    expect(details[0].setBy).toMatch(/^static:/); // the principal as the audit trail names it
    // The state at the top of the page, before anything else: what is stopped, why, by whom, when and until when.
    const banner = page.getByRole('region', { name: 'Frozen' });
    const bannerText = await banner.innerText();
    expect(bannerText).toContain('Frozen: Suspicious login from a new device. Set by API_TOKENS entry 1 on');
    expect(bannerText).toContain('lifts itself on 2099-06-30');
    expect(bannerText).toContain('No money moves in or out.');
    expect(bannerText).not.toContain('static:');
    const order = await page.evaluate(
      "[...document.querySelectorAll('main h1, main section')].map((element) => element.getAttribute('aria-labelledby') ?? element.tagName)",
    );
    expect((order as string[]).slice(0, 2)).toEqual(['H1', 'status-banner-heading']);
    await expectAccessible(page, 'account page with a flag');

    await page.getByRole('button', { name: 'Lift frozen' }).click();
    const lift = page.getByRole('alertdialog', { name: 'Lift frozen?' });
    // A lift needs its reason, as a freeze does: without one nothing is sent and the field says why.
    await lift.getByRole('button', { name: 'Lift frozen' }).click();
    await lift.getByText('Enter the reason the flag is lifted.').waitFor();
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.flags).toEqual(['FROZEN']);
    await lift.getByLabel('Reason for lifting').fill('Customer confirmed the login');
    await lift.getByRole('button', { name: 'Lift frozen' }).click();
    await page.getByText('No flags are set.').waitFor();
    const { rows: lifts } = await service.database.pool.query(
      'SELECT lift_reason FROM account_flag_lifts WHERE account_id = $1',
      [accountId],
    );
    expect(lifts).toEqual([{ lift_reason: 'Customer confirmed the login' }]);
    expect(await page.getByRole('region', { name: 'Frozen' }).count()).toBe(0);
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.flags).toEqual([]);
    expectClean();
  });

  browserIt('draws the balance of the last 30 days as a named image with the points in a table', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    const chart = page.getByRole('img', { name: 'Balance over the last 30 days' });
    await chart.waitFor();
    expect(await chart.locator('svg path').count()).toBe(2);
    const table = page.getByRole('table', { name: 'Posted balance at the end of each of the last 30 days (UTC)' });
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    // Each point is the end of a day; the last is the end of today, at today's posted balance.
    expect(rows.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00(\.000)?Z\$379\.75$/);
    expect(rows.at(-1)! > today).toBe(true);
    expect(rows[0]).toContain('$0.00');
    await expectAccessible(page, 'account page with the balance chart');
    expectClean();
  });

  browserIt('downloads the statement as PDF and CSV with the token in a header, never in a URL', async () => {
    const { page } = await open();
    const urls: string[] = [];
    const statementRequests: { url: string; authorization: string | undefined; accept: string | undefined }[] = [];
    page.on('request', (request) => {
      urls.push(request.url());
      if (request.url().includes('/statement?'))
        statementRequests.push({
          url: request.url(),
          authorization: request.headers().authorization,
          accept: request.headers().accept,
        });
    });
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    // Last month by default.
    const now = new Date();
    const firstOfLastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
      .toISOString()
      .slice(0, 10);
    await expect(page.getByLabel('From', { exact: true }).inputValue()).resolves.toBe(firstOfLastMonth);
    const today = now.toISOString().slice(0, 10);
    const yesterday = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(yesterday);
    await page.getByLabel('To (included)', { exact: true }).fill(today);

    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`statement-${accountId}-${yesterday}-to-${today}.pdf`);
    const pdfBytes = await readDownload(await pdf.path());
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const lines = (await readDownload(await csv.path())).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('kind,postedAt,transactionId,description,amount,balance,currency,sequence');
    expect(lines.some((line) => line.startsWith('CREDIT,') && line.includes('Salary'))).toBe(true);

    expect(statementRequests.map((request) => [request.authorization, request.accept])).toEqual([
      [`Bearer ${service.token}`, 'application/pdf'],
      [`Bearer ${service.token}`, 'text/csv'],
    ]);
    for (const url of urls) expect(url).not.toContain(service.token);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'account page after downloads');
    expectClean();
  });

  browserIt('shows a refused statement period with its code', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    await page.getByLabel('From', { exact: true }).fill('2026-03-10');
    await page.getByLabel('To (included)', { exact: true }).fill('2026-03-01');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('VALIDATION_FAILED');
    expectClean();
  });

  browserIt('filters the transactions by status, type and the days they were made', async () => {
    const { page } = await open();
    const filters: unknown[] = [];
    page.on('request', (request) => {
      const body = request.postData();
      if (body?.includes('AccountTransactions')) filters.push(JSON.parse(body).variables.filter);
    });
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    const table = page.getByRole('table', { name: 'Transactions, newest first' });
    const descriptions = () => table.locator('tbody tr td:nth-child(2)').allInnerTexts();
    await table.getByRole('cell', { name: 'Salary' }).waitFor();
    await expect(descriptions()).resolves.toEqual(['Coffee hold', 'Rent', 'Salary']);

    await page.getByLabel('Type').selectOption('DEBIT');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(descriptions).toEqual(['Coffee hold', 'Rent']);
    await page.getByLabel('Status').selectOption('POSTED');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(descriptions).toEqual(['Rent']);
    // The API filters (Account.transactions(filter:)), not the page.
    expect(filters.at(-1)).toEqual({ type: 'DEBIT', status: 'POSTED' });

    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('Made from').fill(tomorrow);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No transactions match.').waitFor();
    await expectAccessible(page, 'account page with transaction filters');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(descriptions).toEqual(['Coffee hold', 'Rent', 'Salary']);
    expect(await page.getByLabel('Type').inputValue()).toBe('');
    expectClean();
  });

  browserIt('finds a customer by phone number and by external id', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/customers`);
    await signIn(page, service.token);
    const search = page.getByRole('searchbox', { name: 'Search customers' });
    await page.getByLabel('Search by').selectOption('phoneNumber');
    await search.fill('(555) 010-7788');
    await search.press('Enter');
    await page
      .getByRole('list', { name: 'Matching customers' })
      .getByRole('link', { name: `Grace Brewster ${lastName}` })
      .waitFor();
    await page.getByLabel('Search by').selectOption('externalId');
    await search.fill(`crm-${suffix}`);
    await search.press('Enter');
    await expect
      .poll(() => page.getByRole('list', { name: 'Matching customers' }).getByRole('link').allInnerTexts())
      .toEqual([`Grace Brewster ${lastName}`]);
    await search.fill(`crm-${suffix}-nobody`);
    await search.press('Enter');
    await page.getByText('No customers match.').waitFor();
    await expectAccessible(page, 'customers page, by external id');
    expectClean();
  });

  browserIt(
    'creates a customer once, with the identifiers masked and never in a URL or browser storage, then opens it',
    async () => {
      const { page } = await open();
      const requests: { url: string; body: string | null }[] = [];
      page.on('request', (request) => requests.push({ url: request.url(), body: request.postData() }));
      await page.goto(`${service.url}/console/customers`);
      await signIn(page, service.token);
      await page.getByRole('link', { name: 'New customer' }).click();
      await page.getByRole('heading', { level: 1, name: 'New customer' }).waitFor();
      expect(page.url()).toBe(`${service.url}/console/customers/new`);
      await expectAccessible(page, 'new customer page');
      const ssn = uniqueSsn();
      const dln = String(uniqueDocumentLocatorNumber());
      const newLast = `Babbage${suffix}`;
      await page.getByLabel('First name').fill('Charles');
      await page.getByLabel('Last name').fill(newLast);
      await page.getByLabel('Date of birth').fill('1971-12-26');
      for (const [label, value] of [
        ['Social security number', ssn],
        ['Document locator number', dln],
      ] as const) {
        const input = page.getByLabel(label, { exact: true });
        expect([await input.getAttribute('type'), await input.getAttribute('autocomplete')]).toEqual(['text', 'off']);
        const id = JSON.stringify(await input.getAttribute('id'));
        expect(
          await page.evaluate(
            `getComputedStyle(document.getElementById(${id})).getPropertyValue('-webkit-text-security')`,
          ),
        ).toBe('disc');
        await input.fill(value);
      }
      await page.getByLabel('Preferred name').fill('Charlie');
      await page.getByLabel('Email 1').fill(`charles.${suffix}@example.com`);
      await page.getByRole('button', { name: 'Add a phone number' }).click();
      await page.getByLabel('Phone 1 number').fill('+1 555 010 2233');
      await page.getByRole('button', { name: 'Create customer' }).dblclick();
      await page.getByRole('heading', { level: 1, name: `Charles ${newLast}` }).waitFor();
      const created = await service.call('POST', '/sandbox/graphql', {
        body: { query: `{ customers(filter: { lastName: "${newLast}" }) { nodes { customerId preferredName } } }` },
      });
      const items = created.json.data.customers.nodes as { customerId: string; preferredName: string }[];
      expect(items.map((item) => item.preferredName)).toEqual(['Charlie']);
      expect(page.url()).toBe(`${service.url}/console/customers/${items[0]!.customerId}`);

      const creations = requests
        .filter((request) => request.body?.includes('CreateCustomer'))
        .map((request) => JSON.parse(request.body!));
      expect(creations.length).toBeGreaterThanOrEqual(1);
      expect(new Set(creations.map((body) => body.variables.idempotencyKey)).size).toBe(1);
      expect(creations[0].query).not.toContain(ssn); // variables, never the query's text
      for (const request of requests) {
        expect(request.url).not.toContain(ssn.replace(/-/g, '').slice(0, 5));
        expect(request.url).not.toContain(dln);
      }
      const storage = await page.evaluate<string>(
        'JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie',
      );
      for (const secret of [ssn, ssn.replace(/-/g, ''), dln]) expect(storage).not.toContain(secret);
      expect(await page.content()).not.toContain(dln);
      expectClean();
    },
  );

  browserIt('edits a customer’s contact details', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/customers/${customerId}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: `Grace Brewster ${lastName}` }).waitFor();
    await page.getByRole('button', { name: 'Edit contact details' }).click();
    await page.getByLabel('Preferred name').fill('Amazing Grace');
    await page.getByRole('button', { name: 'Add an email' }).click();
    const emails = await page.getByRole('group', { name: 'Emails' }).getByRole('textbox').count();
    await page.getByLabel(`Email ${emails}`).fill(`grace.${suffix}@navy.example`);
    await page.getByRole('button', { name: 'Remove phone 1' }).click();
    const before = (await service.call('GET', `/sandbox/customer/${customerId}`)).json.data.addresses as unknown[];
    await page.getByRole('button', { name: 'Add an address' }).click();
    const address = { type: 'WORK', street: '1 Navy Yard', city: 'Arlington', state: 'VA', zip: '22202' };
    for (const [part, value] of Object.entries(address))
      await page.getByLabel(`Address ${before.length + 1} ${part}`, { exact: true }).fill(value);
    await expectAccessible(page, 'customer page, editing');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).or(page.getByRole('alert')).waitFor();
    expect(await page.getByRole('alert').count(), await page.getByRole('alert').allInnerTexts().then(String)).toBe(0);
    await page.getByText('1 Navy Yard, Arlington, VA 22202 (WORK)').waitFor();
    const customer = (await service.call('GET', `/sandbox/customer/${customerId}`)).json.data;
    expect(customer.preferredName).toBe('Amazing Grace');
    expect(customer.emails).toContain(`grace.${suffix}@navy.example`);
    expect(customer.phoneNumbers).toEqual([]);
    expect(customer.addresses).toEqual([...before, address]);
    expectClean();
  });

  browserIt('adds and removes a holder of an account', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${accountId}`);
    await signIn(page, service.token);
    const holders = page.getByRole('region', { name: 'Holders' });
    await holders.getByRole('link', { name: `Grace Brewster ${lastName}` }).waitFor();
    await page.getByLabel('Customer id of a new holder').fill(otherCustomerId);
    await page.getByRole('button', { name: 'Add holder' }).click();
    await holders.getByRole('link', { name: `Alan Turing${suffix}` }).waitFor();
    expect(
      (
        await service.call('POST', '/sandbox/graphql', {
          body: { query: `{ account(accountId: "${accountId}") { customerIds } }` },
        })
      ).json.data.account.customerIds,
    ).toEqual([customerId, otherCustomerId]);
    await expectAccessible(page, 'account page with two holders');
    // Removing asks first, naming the customer; Cancel keeps it.
    await page.getByRole('button', { name: `Remove holder Alan Turing${suffix}` }).click();
    const removal = page.getByRole('alertdialog', { name: `Remove Alan Turing${suffix} from the account?` });
    await removal.getByText(/can no longer act on this account/).waitFor();
    await expectAccessible(page, 'removing a holder');
    await removal.getByRole('button', { name: 'Cancel' }).click();
    await holders.getByRole('link', { name: `Alan Turing${suffix}` }).waitFor();
    await page.getByRole('button', { name: `Remove holder Alan Turing${suffix}` }).click();
    await removal.getByRole('button', { name: 'Remove holder' }).click();
    await holders.getByRole('link', { name: `Alan Turing${suffix}` }).waitFor({ state: 'detached' });
    // The last holder cannot be removed: the API's refusal is shown with its code, in the dialog.
    await page.getByRole('button', { name: `Remove holder Grace Brewster ${lastName}` }).click();
    const last = page.getByRole('alertdialog', { name: `Remove Grace Brewster ${lastName} from the account?` });
    await last.getByRole('button', { name: 'Remove holder' }).click();
    await expect.poll(() => last.getByRole('alert').innerText()).toContain('ACCOUNT_NEEDS_A_CUSTOMER');
    await last.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (
        await service.call('POST', '/sandbox/graphql', {
          body: { query: `{ account(accountId: "${accountId}") { customerIds } }` },
        })
      ).json.data.account.customerIds,
    ).toEqual([customerId]);
    expectClean();
  });
});
