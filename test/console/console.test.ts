import { randomUUID } from 'node:crypto';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { CHROMIUM, hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { startTestService, type TestService } from '../support/service.js';
import { followers } from '../support/subscription-client.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * The back-office console in headless Chromium against a live service: deep links, sign-in, finding and
 * opening a customer and an account, a flag, a confirmed transfer that a double click posts once, a
 * read-only token that is offered no write (nor the search by SSN, which needs customers:ssn_search), the keyboard alone, and on every page no script or CSP error,
 * no request to another origin and no serious or critical axe-core violation.
 */

let service: TestService;
let browser: Browser | undefined;
let readOnlyToken: string;
const suffix = randomUUID().slice(0, 8);
const lastName = `Lovelace${suffix}`;
let customerId: string;
let checkingId: string;
let savingsId: string;
let holdsId: string;
const hookUrl = 'http://127.0.0.1:9/console-hook';
const ssn = '219-09-9999';

async function ok(method: string, path: string, body?: unknown) {
  const res = await service.call(method, path, { body, headers: { 'idempotency-key': randomUUID() } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  // Nothing listens on the discard port: the endpoint's deliveries fail and are retried, which no case here looks at.
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20', WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' });
  customerId = (
    await ok(
      'POST',
      '/sandbox/customer',
      buildCustomerInput({ firstName: 'Ada', middleName: 'King', lastName, socialSecurityNumber: ssn }),
    )
  ).customerId;
  checkingId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Everyday Checking' })))
    .accountId;
  savingsId = (
    await ok(
      'POST',
      '/sandbox/account',
      buildAccountInput([customerId], { name: 'Rainy Day Savings', type: 'SAVINGS' }),
    )
  ).accountId;
  await ok('POST', `/sandbox/account/${checkingId}/transaction`, {
    type: 'CREDIT',
    amount: 100,
    description: 'Payroll',
  });
  holdsId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Card Account' }))).accountId;
  await ok('POST', `/sandbox/account/${holdsId}/transaction`, { type: 'CREDIT', amount: 50, description: 'Top-up' });
  for (const [amount, description] of [
    [20, 'Hotel'],
    [5, 'Parking'],
    [1, 'Left pending'],
  ] as const) {
    await ok('POST', `/sandbox/account/${holdsId}/transaction`, { type: 'DEBIT', amount, description, hold: true });
  }
  await ok('POST', '/sandbox/webhook-endpoint', { url: hookUrl, eventTypes: ['account.updated'] });
  readOnlyToken = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read', 'events:read', 'webhooks:read', 'audit:read'],
      name: 'read only',
    })
  ).token;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('the console is served at /console', () => {
  it('answers its page for every deep link, with a CSP that allows no inline script, and its assets from this origin', async () => {
    for (const path of [
      '/console',
      '/console/',
      '/console/customers',
      `/console/customers/${customerId}`,
      `/console/accounts/${checkingId}`,
      '/console/events',
      '/console/webhooks',
      '/console/audit',
    ]) {
      const res = await service.call('GET', path, { auth: false });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      const policy = res.headers.get('content-security-policy')!;
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toContain('unsafe-inline');
      const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
      expect(res.text).toContain(`<meta name="csp-nonce" content="${nonce}">`);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.text).toContain('<meta name="cas-environments" content="sandbox,production-like">');
      expect(res.text).not.toMatch(/<script(?![^>]*\ssrc=)/); // no inline script
      expect(res.text).not.toMatch(/(src|href)="https?:/); // nothing from another origin
    }
    const page = (await service.call('GET', '/console', { auth: false })).text;
    const assets = [...page.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await fetch(`${service.url}${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
      await res.arrayBuffer();
    }
    expect(
      (await service.call('GET', '/console/assets/missing.js', { auth: false, validateResponse: false })).status,
    ).toBe(404);
  });
});

const browserIt = hasChromium() ? it : it.skip;
if (!hasChromium())
  process.stderr.write(`Skipping the console's browser tests: ${CHROMIUM} is absent (apt-get install -y chromium).\n`);

describe('the console in a browser', () => {
  const { open, expectClean } = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt(
    'refuses a wrong token with its code and message, and keeps the token out of the URL and of localStorage',
    async () => {
      const { page } = await open();
      await page.goto(`${service.url}/console`);
      await expectAccessible(page, 'sign-in page');
      await page.getByLabel('API token').fill('not-a-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toContain('UNAUTHENTICATED');
      await expect(page.getByLabel('API token').isVisible()).resolves.toBe(true);
      await signIn(page, service.token);
      expect(page.url()).not.toContain(service.token);
      expect(await page.evaluate('JSON.stringify(localStorage)')).toBe('{}');
      expectClean();
    },
  );

  browserIt(
    'signs in, finds a customer by last name, opens the customer and an account; every page passes axe-core',
    async () => {
      const { page } = await open();
      await page.goto(`${service.url}/console`);
      await signIn(page, service.token);
      await expectAccessible(page, 'customers page');
      await page.getByRole('searchbox', { name: 'Search customers' }).fill(lastName.slice(0, 10));
      await page.getByRole('searchbox', { name: 'Search customers' }).press('Enter');
      await page.getByRole('link', { name: `Ada King ${lastName}` }).click();
      await page.getByRole('heading', { level: 1, name: `Ada King ${lastName}` }).waitFor();
      expect(page.url()).toBe(`${service.url}/console/customers/${customerId}`);
      await expectAccessible(page, 'customer page');
      await page.getByRole('link', { name: 'Everyday Checking' }).click();
      await page.getByRole('heading', { level: 1, name: 'Everyday Checking' }).waitFor();
      expect(page.url()).toBe(`${service.url}/console/accounts/${checkingId}`);
      await page
        .getByRole('table', { name: 'Transactions, newest first' })
        .getByRole('cell', { name: 'Payroll' })
        .waitFor();
      await expectAccessible(page, 'account page');
      for (const [name, heading] of [
        ['Events', 'Events'],
        ['Webhooks', 'Webhooks'],
        ['Audit', 'Audit trail'],
      ] as const) {
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await expectAccessible(page, `${name} page`);
      }
      await page
        .getByRole('table', { name: 'Audit events, oldest first' })
        .getByRole('cell', { name: 'account.create' })
        .first()
        .waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API token').waitFor();
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
      expectClean();
    },
  );

  browserIt('loads every deep link directly once signed in', async () => {
    const { page, settled } = await open();
    await page.goto(`${service.url}/console/accounts/${savingsId}`);
    await signIn(page, service.token);
    await page.getByRole('heading', { level: 1, name: 'Rainy Day Savings' }).waitFor();
    await settled();
    for (const [path, heading] of [
      [`/console/customers/${customerId}`, `Ada King ${lastName}`],
      [`/console/accounts/${checkingId}`, 'Everyday Checking'],
      ['/console/events', 'Events'],
      ['/console/webhooks', 'Webhooks'],
      ['/console/audit', 'Audit trail'],
      ['/console/customers', 'Customers'],
    ] as const) {
      await page.goto(`${service.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await settled();
    }
    expectClean();
  });

  browserIt(
    'finds a customer by social security number without the number reaching a URL or browser storage',
    async () => {
      const { page } = await open();
      const requests: Request[] = [];
      page.on('request', (request) => requests.push(request));
      await page.goto(`${service.url}/console`);
      await signIn(page, service.token);
      const ssnField = page.getByLabel('Social security number', { exact: true });
      // Masked on screen, and not a password field a browser's password manager would offer to keep.
      expect([await ssnField.getAttribute('type'), await ssnField.getAttribute('autocomplete')]).toEqual([
        'text',
        'off',
      ]);
      const id = await ssnField.getAttribute('id');
      expect(
        await page.evaluate(
          `getComputedStyle(document.getElementById(${JSON.stringify(id)})).getPropertyValue('-webkit-text-security')`,
        ),
      ).toBe('disc');
      await ssnField.fill(ssn);
      await page.getByRole('button', { name: 'Find by number' }).click();
      await page
        .getByRole('list', { name: 'Customers with this number' })
        .getByRole('link', { name: `Ada King ${lastName}` })
        .waitFor();
      await expect(page.getByLabel('Social security number', { exact: true }).inputValue()).resolves.toBe('');
      const digits = ssn.replace(/-/g, '');
      for (const request of requests) expect(request.url()).not.toContain(digits.slice(0, 5));
      const search = requests.find((request) => request.postData()?.includes('SearchCustomersBySsn'));
      expect(JSON.parse(search!.postData()!).query).not.toContain(ssn); // a variable, never the query's text
      const storage = await page.evaluate<string>(
        'JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie',
      );
      expect(storage).not.toContain(ssn);
      expect(storage).not.toContain(digits);
      expectClean();
    },
  );

  browserIt(
    'freezes and lifts an account, and a transfer confirmed with a double click moves the money once',
    async () => {
      const { page } = await open();
      const transferBodies: string[] = [];
      page.on('request', (request) => {
        if (request.postData()?.includes('TransferMoney')) transferBodies.push(request.postData()!);
      });
      await page.goto(`${service.url}/console/accounts/${checkingId}`);
      await signIn(page, service.token);
      await page.getByLabel('Reason').fill('Card reported stolen');
      await page.getByRole('button', { name: 'Set frozen' }).click();
      await page.getByText('Set: FROZEN.').waitFor();
      expect((await service.call('GET', `/sandbox/account/${checkingId}`)).json.data.flags).toEqual(['FROZEN']);

      // Amounts the API would refuse are refused before the review, at the field, in the API's words.
      await page.getByLabel('To account id').fill(savingsId);
      const amount = page.getByLabel('Amount (USD)');
      for (const [typed, code] of [
        ['abc', 'INVALID_FORMAT'],
        ['-5', 'INVALID_FORMAT'],
        ['12.345', 'TOO_PRECISE'],
        ['0.00', 'TOO_SMALL'],
      ] as const) {
        await amount.fill(typed);
        await page.getByRole('button', { name: 'Review transfer' }).click();
        await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
        const describedBy = (await amount.getAttribute('aria-describedby'))!.split(' ');
        const said = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).innerText()));
        expect(said.join(' ')).toContain(code);
        expect(await page.getByRole('button', { name: 'Confirm transfer' }).count()).toBe(0);
      }
      expect(await page.getByText('NaN').count()).toBe(0);
      await expectAccessible(page, 'transfer form with a refused amount');

      // Frozen: the API refuses the transfer, and the console says so with the code.
      await amount.fill('12.50');
      await page.getByLabel('Description').fill('To savings');
      await page.getByRole('button', { name: 'Review transfer' }).click();
      // The review names the target account and its holders, not a bare id.
      const review = page.locator('#confirm-text');
      await review.getByText('Rainy Day Savings').waitFor();
      expect(await review.innerText()).toMatch(/to Rainy Day Savings \(held by [^)]+\), account /);
      await page.getByRole('button', { name: 'Confirm transfer' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toContain('ACCOUNT_FROZEN');

      await page.getByRole('button', { name: 'Back' }).click();
      // Lifting asks first, saying what it lets happen and why the flag was set.
      await page.getByRole('button', { name: 'Lift frozen' }).click();
      const lift = page.getByRole('alertdialog', { name: 'Lift frozen?' });
      await lift
        .getByText(/Money can move in and out of the account again\. It was set for "Card reported stolen"/)
        .waitFor();
      await expectAccessible(page, 'lifting a flag');
      await lift.getByLabel('Reason for lifting').fill('Card found');
      await lift.getByRole('button', { name: 'Lift frozen' }).click();
      await page.getByText('No flags are set.').waitFor();
      await page.getByRole('button', { name: 'Review transfer' }).click();
      // The review renders after the click's state update; wait for it rather than sample it once.
      await page.getByText(/Transfer \$12\.50 from this account/).waitFor();
      const before = transferBodies.length;
      await page.getByRole('button', { name: 'Confirm transfer' }).dblclick();
      await page.getByRole('status').filter({ hasText: 'Transferred $12.50' }).waitFor();
      await page
        .getByRole('table', { name: 'Transactions, newest first' })
        .getByRole('cell', { name: 'To savings' })
        .waitFor();

      const sent = transferBodies.slice(before).map((body) => JSON.parse(body).variables.idempotencyKey as string);
      expect(sent.length).toBeGreaterThanOrEqual(1);
      expect(new Set(sent).size).toBe(1);
      const checking = (await service.call('GET', `/sandbox/account/${checkingId}`)).json.data;
      const savings = (await service.call('GET', `/sandbox/account/${savingsId}`)).json.data;
      expect(checking.amount).toBe(87.5);
      expect(savings.amount).toBe(12.5);
      const transfers = await service.database.pool.query(
        "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'transfer.create'",
      );
      expect(transfers.rows[0].n).toBe(1);
      expect(await ledgerViolations(service.database.pool)).toEqual([]);
      await expectAccessible(page, 'account page after a transfer');
      expectClean();
    },
  );

  browserIt('follows new events live over a WebSocket to the same origin', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/events`);
    await signIn(page, readOnlyToken);
    await page.getByRole('table', { name: 'Events, oldest first' }).waitFor();
    const follow = page.getByRole('switch', { name: 'Follow new events live' });
    await page.getByText('Follow new events live').click(); // the switch's label: its input is visually hidden
    await expect(follow.isChecked()).resolves.toBe(true);
    await followers(service, 1);
    const created = (await ok('POST', '/sandbox/customer', buildCustomerInput({ lastName: `Live${suffix}` })))
      .customerId;
    const live = page.getByRole('table', { name: 'Live events, newest first' });
    await live.getByRole('row').filter({ hasText: 'customer.created' }).filter({ hasText: created }).waitFor();
    await expectAccessible(page, 'events page, live');
    await page.getByText('Follow new events live').click();
    await expect(follow.isChecked()).resolves.toBe(false);
    await followers(service, 0);
    expectClean();
  });

  browserIt('posts and voids holds and sets the overdraft limit, each once', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${holdsId}`);
    await signIn(page, service.token);
    const table = page.getByRole('table', { name: 'Transactions, newest first' });
    // Each asks first, naming the amount; Cancel changes nothing.
    await page.getByRole('button', { name: 'Post hold: Hotel' }).click();
    const post = page.getByRole('alertdialog', { name: 'Post the hold "Hotel"?' });
    await post.getByText(/leaves the account for good/).waitFor();
    await expectAccessible(page, 'posting a hold');
    await post.getByRole('button', { name: 'Cancel' }).click();
    await table.getByRole('row').filter({ hasText: 'Hotel' }).filter({ hasText: 'PENDING' }).waitFor();
    await page.getByRole('button', { name: 'Post hold: Hotel' }).click();
    await post.getByRole('button', { name: /^Post \$/ }).dblclick();
    await table.getByRole('row').filter({ hasText: 'Hotel' }).filter({ hasText: 'POSTED' }).waitFor();
    await page.getByRole('button', { name: 'Void hold: Parking' }).click();
    await page
      .getByRole('alertdialog', { name: 'Void the hold "Parking"?' })
      .getByRole('button', { name: 'Void hold' })
      .click();
    await table.getByRole('row').filter({ hasText: 'Parking' }).filter({ hasText: 'VOIDED' }).waitFor();
    await page.getByLabel('New overdraft limit (USD)').fill('250');
    await page.getByRole('button', { name: 'Set overdraft limit' }).click();
    await page.getByText('$250.00').waitFor();
    const account = await service.call('POST', '/sandbox/graphql', {
      body: { query: `{ account(accountId: "${holdsId}") { amount overdraftLimit balance { available } } }` },
    });
    expect(account.json.data.account).toEqual({ amount: '30', overdraftLimit: '250', balance: { available: '29' } });
    const posts = await service.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'transaction.post' AND resource_id IN (SELECT id FROM ledger_entries WHERE description = 'Hotel')",
    );
    expect(posts.rows[0].n).toBe(1);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    await expectAccessible(page, 'account page with holds');
    expectClean();
  });

  browserIt('disables, enables and rotates a webhook endpoint, showing the new secret once', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/webhooks`);
    await signIn(page, service.token);
    const row = page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row').filter({ hasText: hookUrl });
    await page.getByRole('button', { name: `Disable ${hookUrl}` }).click();
    await row.getByRole('cell', { name: /^disabled/ }).waitFor();
    await page.getByRole('button', { name: `Enable ${hookUrl}` }).click();
    await row.getByRole('cell', { name: 'enabled', exact: true }).waitFor();
    await page.getByRole('button', { name: `Rotate secret of ${hookUrl}` }).click();
    const shown = page.getByRole('status').filter({ hasText: 'shown this once' });
    const secret = (await shown.locator('code').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page, 'webhooks page with a new secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(
      await page.evaluate<string>('JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })'),
    ).not.toContain(secret);
    expectClean();
  });

  browserIt('offers a read-only token no write action', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console/accounts/${holdsId}`);
    await signIn(page, readOnlyToken);
    await page.getByRole('heading', { level: 1, name: 'Card Account' }).waitFor();
    await page
      .getByRole('table', { name: 'Transactions, newest first' })
      .getByRole('row')
      .filter({ hasText: 'Left pending' })
      .filter({ hasText: 'PENDING' })
      .waitFor();
    expect(await page.getByRole('button', { name: /hold/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Set overdraft limit' }).count()).toBe(0);
    await page.getByRole('heading', { level: 2, name: 'Flags' }).waitFor();
    expect(await page.getByRole('button', { name: /^(Set|Lift) / }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Transfer' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Review transfer' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /holder/ }).count()).toBe(0);
    expect(await page.getByLabel('Reason').count()).toBe(0);
    await page
      .getByRole('region', { name: 'Holders' })
      .getByRole('link', { name: `Ada King ${lastName}` })
      .click();
    await page.getByRole('heading', { level: 1, name: `Ada King ${lastName}` }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit contact details' }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('searchbox', { name: 'Search customers' }).waitFor();
    expect(await page.getByRole('link', { name: 'New customer' }).count()).toBe(0);
    // customers:read finds customers by name, not by social security number (customers:ssn_search).
    expect(await page.getByRole('heading', { name: 'Find by social security number' }).count()).toBe(0);
    expect(await page.getByLabel('Social security number', { exact: true }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('cell', { name: hookUrl, exact: true })
      .waitFor();
    expect(await page.getByRole('button', { name: /Disable|Enable|Rotate/ }).count()).toBe(0);
    // Only the environment the token may use is offered.
    expect(await page.getByLabel('Environment').count()).toBe(0);
    await page.getByText('Environment: sandbox').waitFor();
    expectClean();
  });

  browserIt('signs in, searches and opens a customer with the keyboard alone', async () => {
    const { page } = await open();
    await page.goto(`${service.url}/console`);
    // The form is rendered by the page's script, which may run after the load event on a busy machine.
    await page.getByLabel('API token').waitFor();
    // Tab from the top of the page to the token field (past the environment picker, when there is one).
    let toToken = 0;
    const tokenField = page.getByLabel('API token');
    // Evaluated in the page (this file is compiled without the DOM's types).
    const focused = () =>
      tokenField.evaluate(
        (element) =>
          element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      );
    while (!(await focused()) && toToken++ < 6) await page.keyboard.press('Tab');
    expect(await focused()).toBe(true);
    await page.keyboard.type(service.token);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search customers' }).waitFor();
    // From the top of the page: the navigation's links, the environment, sign out, then the search field.
    let guard = 0;
    while (!(await page.evaluate("document.activeElement?.getAttribute('type') === 'search'")) && guard++ < 24)
      await page.keyboard.press('Tab');
    await page.keyboard.type(lastName);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: `Ada King ${lastName}` }).waitFor();
    guard = 0;
    while ((await page.evaluate('document.activeElement?.textContent')) !== `Ada King ${lastName}` && guard++ < 12)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: `Ada King ${lastName}` }).waitFor();
    // The skip link is the page's first tab stop, shows itself when focused, and Enter moves the focus into the page.
    const firstTabStop = `[...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
      .find((element) => element.tabIndex >= 0)?.textContent`;
    expect(await page.evaluate(firstTabStop)).toBe('Skip to main content');
    const skipLink = page.getByRole('link', { name: 'Skip to main content' });
    await skipLink.focus();
    expect((await skipLink.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await page.waitForFunction("document.activeElement?.id === 'main'");
    expectClean();
  });
});
