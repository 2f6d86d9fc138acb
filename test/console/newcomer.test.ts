import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedReport } from '../../src/cli/demo-data.js';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { runProcess } from '../support/processes.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../support/service.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * Issue 33's "done when", as a newcomer walks it: the demo data of `npm run seed`, the console signed in with
 * the service's token, a seeded customer found by name, one of their accounts opened (its chart and
 * transactions), frozen with a reason, and its statement downloaded. The other console tests go deeper into
 * each step; this one proves they chain on the data a newcomer actually has.
 */

let service: TestService;
let browser: Browser | undefined;
let dataDir: string;
let seed: SeedReport;

beforeAll(async () => {
  service = await startTestService();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-newcomer-'));
  // The seed command as `npm run seed` runs it (minus the build), against the service's database.
  const seeded = await runProcess('npx', ['tsx', 'src/cli/seed.ts'], {
    ...process.env,
    DATABASE_URL: service.database.url,
    DATA_DIR: dataDir,
    ENVIRONMENTS: 'sandbox,production-like',
    ...TEST_PII_ENV,
  });
  expect(seeded.code, seeded.stderr).toBe(0);
  seed = JSON.parse(readFileSync(path.join(dataDir, 'seed.json'), 'utf8')) as SeedReport;
  if (hasChromium()) browser = await launchHeadlessChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const browserIt = hasChromium() ? it : it.skip;

describe('a newcomer in the console, on the demo data', () => {
  const { open, expectClean } = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt(
    'finds a seeded customer, opens their joint account, sees its chart and transactions, freezes it with a reason and downloads its statement',
    async () => {
      const accountId = seed.accounts.find((account) => account.key === 'riveraJointChecking')!.accountId;
      const { page } = await open();
      await page.goto(`${service.url}/console`);
      await signIn(page, service.token);

      await page.getByRole('searchbox', { name: 'Search customers' }).fill('rivera');
      await page.getByRole('searchbox', { name: 'Search customers' }).press('Enter');
      await page.getByRole('link', { name: 'Alexandra Jane Rivera' }).click();
      await page.getByRole('heading', { level: 1, name: 'Alexandra Jane Rivera' }).waitFor();

      await page.getByRole('link', { name: 'Rivera Household Checking' }).click();
      await page.getByRole('heading', { level: 1, name: 'Rivera Household Checking' }).waitFor();
      expect(page.url()).toBe(`${service.url}/console/accounts/${accountId}`);
      await page.getByRole('img', { name: 'Balance over the last 30 days' }).waitFor();
      const transactions = page.getByRole('table', { name: 'Transactions, newest first' });
      for (const description of [
        'Payroll, Springfield Unified',
        'Groceries, Maple Market',
        'Card authorisation, Fuel Stop',
        'Monthly saving',
      ]) {
        await transactions.getByRole('cell', { name: description, exact: true }).waitFor();
      }
      await expectAccessible(page, "the demo data's joint account");

      await page.getByLabel('Reason').fill('Card reported stolen; customer called support');
      await page.getByRole('button', { name: 'Set frozen' }).click();
      await page
        .getByRole('table', { name: 'Flags set on the account' })
        .getByRole('row')
        .filter({ hasText: 'Card reported stolen; customer called support' })
        .waitFor();
      expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.flags).toEqual(['FROZEN']);

      // Today's statement, so that it holds the demo postings.
      const today = new Date().toISOString().slice(0, 10);
      await page.getByLabel('From', { exact: true }).fill(today);
      await page.getByLabel('To (included)', { exact: true }).fill(today);
      const [pdf] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download PDF' }).click(),
      ]);
      expect(pdf.suggestedFilename()).toBe(`statement-${accountId}-${today}-to-${today}.pdf`);
      expect((await readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      const lines = (await readFile(await csv.path())).toString('utf8').split('\r\n');
      expect(
        lines.filter((line) => /Payroll, Springfield Unified|Groceries, Maple Market|Monthly saving/.test(line)),
      ).toHaveLength(3);
      // The hold is not posted: a statement holds posted entries only.
      expect(lines.some((line) => line.includes('Card authorisation'))).toBe(false);

      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await ledgerViolations(service.database.pool)).toEqual([]);
      expectClean();
    },
  );
});
