/**
 * The console's screenshots in the docs: a service started on a throw-away embedded PostgreSQL holding the demo
 * data of `npm run seed` (what a newcomer sees after the README's first commands), a freeze and two webhook
 * endpoints made through the API with a local receiver, in Debian's Chromium.
 * `npx tsx scripts/console-screenshots.ts` writes docs/images/console-{customers,customer,account,events,webhooks,audit}.png.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
const serviceDefaults = {
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  ENVIRONMENTS: 'sandbox,production',
  LOG_LEVEL: 'warn',
};
// The seed first, on the same data directory and keys: the embedded database is one process's at a time.
execFileSync('node', ['dist/cli/seed.js'], {
  env: { ...process.env, ...serviceDefaults, ...secrets, DATA_DIR: path.join(dataDir, 'data') },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const seeded = JSON.parse(readFileSync(path.join(dataDir, 'data', 'seed.json'), 'utf8')) as {
  customers: { customerId: string; name: string }[];
  accounts: { accountId: string; name: string }[];
};
const householdChecking = seeded.accounts.find((account) => account.name === 'Rivera Household Checking')!.accountId;
const service = await startServiceProcess({
  name: 'console-screenshot',
  defaults: serviceDefaults,
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
  // After the endpoints exist: a deposit and the freeze reach the ledger system, a customer's change the old CRM.
  const checking = householdChecking;
  const savings = seeded.accounts.find((account) => account.name === 'Rainy Day Savings')!.accountId;
  await post(`/sandbox/account/${savings}/transaction`, { type: 'CREDIT', amount: 1200, description: 'Tax refund' });
  await post('/sandbox/graphql', {
    query: `mutation { setAccountFlag(accountId: "${checking}", flag: FROZEN, reason: "Card reported stolen; customer called support", until: "${new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString()}") { id } }`,
  });
  const alex = seeded.customers.find((customer) => customer.name === 'Alexandra Rivera')!.customerId;
  await fetch(`${service.url}/sandbox/customer/${alex}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ preferredName: 'Alex' }),
  });
  // Every ledger event delivered (one after a retry), and the CRM endpoint disabled by its 410.
  await deliveries('/hooks/ledger', 3);
  await deliveries('/hooks/old-crm', 1);
  await deliveries('/hooks/ledger', 2, received.find((request) => request.path === '/hooks/ledger')!.webhookId);

  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const nav = page.getByRole('navigation', { name: 'Console' });
  await page.goto(`${service.url}/console`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('searchbox', { name: 'Search customers' }).fill('riv');
  await page.getByRole('searchbox', { name: 'Search customers' }).press('Enter');
  await page.getByRole('link', { name: /Jordan.*Rivera/ }).waitFor();
  await page.screenshot({ path: 'docs/images/console-customers.png' });
  await page.getByRole('link', { name: /Alexandra.*Rivera/ }).click();
  await page.getByRole('heading', { level: 1, name: /Alexandra.*Rivera/ }).waitFor();
  // The whole page once its sections have loaded: the verification status and the timeline's entries.
  await page.getByTestId('verification-status').waitFor();
  await page.getByRole('table', { name: "The customer's timeline, newest first" }).getByRole('row').nth(1).waitFor();
  await page.screenshot({ path: 'docs/images/console-customer.png', fullPage: true });
  await page.getByRole('link', { name: 'Rivera Household Checking' }).click();
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
  await page.getByLabel('Operation').selectOption('account.flag.set');
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
