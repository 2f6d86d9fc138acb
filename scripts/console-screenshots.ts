/**
 * The console's screenshots in the docs: a service started on a throw-away embedded PostgreSQL with a few
 * records made through the REST API and a local webhook receiver, in Debian's Chromium.
 * `npx tsx scripts/console-screenshots.ts` writes docs/images/console-{customers,customer,account,events,webhooks,audit}.png.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchHeadlessChromium } from '../test/support/browser.js';
import { buildOnce, runSecrets, startServiceProcess } from './reliability/lib/service-process.js';

const log = (line: string) => process.stdout.write(`${line}\n`);
buildOnce(log);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-console-screenshot-'));
const secrets = runSecrets();
const token = secrets.API_TOKENS!;
// The webhook endpoints' side, on this machine: the ledger system fails its first attempt once (then takes the
// retry); the retired CRM answers 410 Gone, so the service disables that endpoint by itself.
const received: { path: string; webhookId: string }[] = [];
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const webhookId = String(req.headers['webhook-id']);
    received.push({ path: req.url ?? '/', webhookId });
    const firstToLedger =
      req.url === '/hooks/ledger' && received.filter((request) => request.path === '/hooks/ledger').length === 1;
    const status = req.url === '/hooks/old-crm' ? 410 : firstToLedger ? 503 : 200;
    res
      .writeHead(status, { 'content-type': 'text/plain' })
      .end(status === 503 ? 'maintenance' : status === 410 ? 'gone' : 'ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = (pathname: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${pathname}`;
async function deliveries(pathname: string, count: number, webhookId?: string): Promise<void> {
  const matching = () =>
    received.filter(
      (request) => request.path === pathname && (webhookId === undefined || request.webhookId === webhookId),
    );
  for (const deadline = Date.now() + 30_000; matching().length < count; await sleep(50)) {
    if (Date.now() > deadline) throw new Error(`${pathname}: ${matching().length} of ${count} deliveries arrived`);
  }
}
const service = await startServiceProcess({
  name: 'console-screenshot',
  defaults: { NODE_ENV: 'development', HOST: '127.0.0.1', ENVIRONMENTS: 'sandbox,production', LOG_LEVEL: 'warn' },
  env: {
    ...secrets,
    DATA_DIR: path.join(dataDir, 'data'),
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_RETRY_SCHEDULE: '1s,5m',
    WEBHOOKS_POLL_INTERVAL_MS: '100',
  },
});

async function post(pathname: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${service.url}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, string> };
  if (!res.ok) throw new Error(`POST ${pathname}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const customer = (firstName: string, lastName: string, ssn: string, email: string) =>
  post('/sandbox/customer', {
    socialSecurityNumber: ssn,
    dateOfBirth: '1985-04-12',
    documentLocatorNumber: Number(ssn.replace(/-/g, '')),
    preferredName: firstName,
    firstName,
    middleName: '',
    lastName,
    emails: [email],
    phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 1234' }],
    addresses: [{ type: 'HOME', street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }],
  });

const browser = await launchHeadlessChromium();
try {
  await post('/sandbox/webhook-endpoint', {
    url: hookUrl('/hooks/ledger'),
    eventTypes: ['transaction.pending', 'transaction.posted', 'transaction.voided', 'account.updated'],
  });
  await post('/sandbox/webhook-endpoint', {
    url: hookUrl('/hooks/old-crm'),
    eventTypes: ['customer.created', 'customer.updated'],
  });
  const alex = (await customer('Alexandra', 'Doe', '123-45-6789', 'alex.doe@example.com')).customerId!;
  const sam = (await customer('Sam', 'Doe', '123-45-6790', 'sam.doe@example.com')).customerId!;
  await customer('Dana', 'Dorsey', '123-45-6791', 'dana@example.com');
  const checking = (
    await post('/sandbox/account', {
      associatedCustomerIds: [alex, sam],
      name: 'Household Checking',
      currency: 'USD',
      type: 'CHECKING',
      metadata: { branch: 'Springfield', segment: 'retail' },
    })
  ).accountId!;
  const savings = (
    await post('/sandbox/account', {
      associatedCustomerIds: [alex],
      name: 'Rainy Day Savings',
      currency: 'USD',
      type: 'SAVINGS',
    })
  ).accountId!;
  await post(`/sandbox/account/${checking}/transaction`, { type: 'CREDIT', amount: 2450, description: 'Payroll' });
  await post(`/sandbox/account/${checking}/transaction`, { type: 'DEBIT', amount: 86.4, description: 'Groceries' });
  await post(`/sandbox/account/${checking}/transaction`, {
    type: 'DEBIT',
    amount: 120,
    description: 'Card authorisation',
    hold: true,
  });
  await post('/sandbox/transfer', {
    fromAccountId: checking,
    toAccountId: savings,
    amount: 500,
    description: 'Monthly saving',
  });
  await post(`/sandbox/account/${savings}/transaction`, { type: 'CREDIT', amount: 1200, description: 'Tax refund' });
  await post('/sandbox/graphql', {
    query: `mutation { setOverdraftLimit(accountId: "${checking}", overdraftLimit: "250") { id } }`,
  });
  await post('/sandbox/graphql', {
    query: `mutation { setAccountFlag(accountId: "${checking}", flag: FROZEN, reason: "Card reported stolen; customer called support", until: "${new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString()}") { id } }`,
  });
  // Every ledger event delivered (one after a retry), and the CRM endpoint disabled by its 410.
  await deliveries('/hooks/ledger', 6);
  await deliveries('/hooks/old-crm', 1);
  await deliveries('/hooks/ledger', 2, received.find((request) => request.path === '/hooks/ledger')!.webhookId);

  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const nav = page.getByRole('navigation', { name: 'Console' });
  await page.goto(`${service.url}/console`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('searchbox', { name: 'Search customers' }).fill('do');
  await page.getByRole('searchbox', { name: 'Search customers' }).press('Enter');
  await page.getByRole('link', { name: 'Dana Dorsey' }).waitFor();
  await page.screenshot({ path: 'docs/images/console-customers.png' });
  await page.getByRole('link', { name: 'Alexandra Doe' }).click();
  await page.getByRole('heading', { level: 1, name: 'Alexandra Doe' }).waitFor();
  await page.screenshot({ path: 'docs/images/console-customer.png' });
  await page.getByRole('link', { name: 'Household Checking' }).click();
  await page.getByRole('cell', { name: 'Monthly saving' }).waitFor();
  await page.getByRole('img', { name: 'Balance over the last 30 days' }).waitFor();
  await page.getByRole('cell', { name: 'Card reported stolen; customer called support' }).waitFor();
  await page.getByRole('button', { name: 'Download PDF' }).waitFor();
  await page.screenshot({ path: 'docs/images/console-account.png', fullPage: true });
  await nav.getByRole('link', { name: 'Events' }).click();
  await page.getByRole('cell', { name: 'transaction.posted' }).first().waitFor();
  await page.screenshot({ path: 'docs/images/console-events.png' });
  await nav.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: `Show deliveries to ${hookUrl('/hooks/ledger')}` }).click();
  const attempts = page.getByRole('table', { name: 'Latest delivery attempts, newest first' });
  await attempts.getByRole('cell', { name: 'failed' }).waitFor();
  await attempts.getByRole('cell', { name: 'delivered' }).first().waitFor();
  await page.screenshot({ path: 'docs/images/console-webhooks.png', fullPage: true });
  await nav.getByRole('link', { name: 'Audit' }).click();
  await page.getByLabel('From').fill(`${new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10)}T00:00`);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page
    .getByRole('table', { name: 'Audit events, oldest first' })
    .getByRole('cell', { name: 'account.flag.set' })
    .waitFor();
  await page.screenshot({ path: 'docs/images/console-audit.png', fullPage: true });
  log('docs/images/console-{customers,customer,account,events,webhooks,audit}.png written');
} finally {
  await browser.close();
  await service.stop();
  receiver.closeAllConnections();
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
