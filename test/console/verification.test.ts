import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../rest/helpers.js';
import { issueApiToken } from '../support/api-tokens.js';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { startTestService, type TestService } from '../support/service.js';
import { documentHelpers, fileOf } from '../features/verification/documents-support.js';
import { expectAccessible, signIn, watchedPages } from './helpers.js';

/**
 * The console's verification pages (docs/console.md): the panel on a customer's page (status, requirements, checks,
 * documents, decision) by the token's scopes; a check run from it whose result shows once the sandbox answers; a
 * decision after a confirmation; a document review, refused to its uploader; the review queue.
 */

let service: TestService;
let browser: Browser | undefined;
let readerToken: string;
let reviewerToken: string;

beforeAll(async () => {
  // The sandbox answers at once and the job applies it within a fifth of a second: the page polls while a check runs.
  service = await startTestService({ VERIFICATION_SANDBOX_DELAY_MS: '0', VERIFICATION_JOB_INTERVAL_MS: '200' });
  readerToken = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'verification:read'],
      name: 'verification reader',
    })
  ).token;
  reviewerToken = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'verification:read', 'verification:decide'],
      name: 'reviewer',
    })
  ).token;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const browserIt = hasChromium() ? it : it.skip;

const panel = (page: Page) => page.getByRole('region', { name: 'Verification' });
const status = (page: Page) => panel(page).getByTestId('verification-status');

/** The badge once it reads `text` (the panel reads again every second while a check runs). */
const waitForStatus = (page: Page, text: string) =>
  status(page)
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();

async function openCustomer(page: Page, customerId: string, token: string) {
  await page.goto(`${service.url}/console/customers/${customerId}`);
  await signIn(page, token);
  await panel(page).waitFor();
}

describe('the console’s verification panel', () => {
  const pages = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt(
    'runs an identity check whose NEEDS_REVIEW result shows, then records a decision after a confirmation',
    async () => {
      const { customerId } = await createCustomer(service, { lastName: 'Review' });
      const { page } = await pages.open();
      await openCustomer(page, customerId, service.token);
      await waitForStatus(page, 'Unverified');
      const requirements = panel(page).getByRole('list', { name: 'Requirements' });
      expect(await requirements.innerText()).toMatch(/Due\s+identity_check/);
      await panel(page).getByText('No checks.').waitFor();
      await expectAccessible(page, 'verification panel, unverified');

      await panel(page).getByRole('button', { name: 'Run identity check' }).click();
      await waitForStatus(page, 'Needs review');
      const checks = panel(page).getByRole('table', { name: 'Checks, newest first' });
      await checks.waitFor();
      const row = await checks.locator('tbody tr').first().innerText();
      expect(row).toContain('IDENTITY');
      expect(row).toContain('COMPLETED');
      expect(row).toContain('NEEDS_REVIEW');
      expect(row).toContain('MANUAL_REVIEW');
      expect(await requirements.innerText()).toMatch(/Pending\s+identity_check/);

      const reason = panel(page).getByRole('textbox', { name: 'Reason' });
      const record = panel(page).getByRole('button', { name: 'Record decision…' });
      expect(await record.isDisabled()).toBe(true);
      await panel(page).getByRole('radio', { name: 'Rejected' }).check();
      await reason.fill('Documents do not match the application');
      await record.click();
      const dialog = page.getByRole('alertdialog', { name: 'Record Rejected?' });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain('Documents do not match the application');
      await expectAccessible(page, 'decision confirmation');
      await dialog.getByRole('button', { name: 'Record Rejected' }).click();
      await panel(page).getByRole('status').filter({ hasText: 'Recorded: Rejected.' }).waitFor();
      await waitForStatus(page, 'Rejected');
      const decision = panel(page).getByRole('definition');
      await decision.filter({ hasText: 'Documents do not match the application' }).waitFor();
      expect(await decision.allInnerTexts()).toContain('REJECTED');
      const answer = await service.call('GET', `/sandbox/customer/${customerId}/verification`);
      expect(answer.json.data.status).toBe('REJECTED');
      expect(answer.json.data.decision.reason).toBe('Documents do not match the application');
      await expectAccessible(page, 'verification panel, rejected');
      pages.expectClean();
    },
  );

  browserIt(
    'reviews a document: its uploader is refused (DOCUMENT_REVIEW_BY_UPLOADER), a reviewer rejects it',
    async () => {
      const { customerId } = await createCustomer(service, { lastName: 'Doe' });
      const uploaded = await documentHelpers(service).upload(
        customerId,
        'ID_DOCUMENT',
        fileOf('application/pdf', 5000),
      );
      expect(uploaded.status, uploaded.text).toBe(201);

      const first = await pages.open();
      await openCustomer(first.page, customerId, service.token);
      const documents = panel(first.page).getByRole('table', { name: 'Documents, newest first' });
      await documents.waitFor();
      const row = await documents.locator('tbody tr').first().innerText();
      expect(row).toContain('ID_DOCUMENT');
      expect(row).toContain('RECEIVED');
      expect(row).toContain('4.9 KiB');
      await documents.getByRole('button', { name: 'Approve', exact: true }).click();
      await panel(first.page).getByRole('alert').filter({ hasText: 'DOCUMENT_REVIEW_BY_UPLOADER' }).waitFor();
      await first.close();

      const second = await pages.open();
      const { page } = second;
      await openCustomer(page, customerId, reviewerToken);
      expect(await panel(page).getByRole('button', { name: 'Run identity check' }).count()).toBe(0);
      const table = panel(page).getByRole('table', { name: 'Documents, newest first' });
      await table.getByRole('button', { name: /Reason to reject/ }).click();
      await page.getByRole('option', { name: 'NAME_MISMATCH' }).click();
      await table.getByRole('button', { name: 'Reject', exact: true }).click();
      await table.locator('tbody tr').first().filter({ hasText: 'NAME_MISMATCH' }).waitFor();
      expect(await table.locator('tbody tr').first().innerText()).toContain('NAME_MISMATCH');
      expect(await table.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
      await expectAccessible(page, 'verification panel, document reviewed');
      pages.expectClean();
    },
  );

  browserIt('shows the panel read-only with verification:read and not at all without it', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' });
    const { page } = await pages.open();
    await openCustomer(page, customerId, readerToken);
    await waitForStatus(page, 'Unverified');
    expect(await panel(page).getByRole('button').count()).toBe(0);
    expect(await panel(page).getByRole('textbox').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();

    const customersOnly = (
      await issueApiToken(service.database.pool, {
        environments: ['sandbox'],
        scopes: ['customers:read'],
        name: 'customers reader',
      })
    ).token;
    await page.goto(`${service.url}/console/customers/${customerId}`);
    await signIn(page, customersOnly);
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Verification' }).count()).toBe(0);
    pages.expectClean();
  });
});
