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
      const uploadedBytes = fileOf('application/pdf', 5000);
      const uploaded = await documentHelpers(service).upload(customerId, 'ID_DOCUMENT', uploadedBytes);
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
      // documents:read: a PDF is shown in the page, in a frame from a blob: URL made of the document's content
      // (fetched with the token in a header, never in the address), and can be downloaded.
      const fetched = first.page.waitForResponse((response) => response.url().endsWith('/content'));
      await documents.getByRole('button', { name: /^Show ID_DOCUMENT/ }).click();
      const content = await fetched;
      expect(content.url()).not.toContain(service.token);
      expect((await content.request().allHeaders()).authorization).toBe(`Bearer ${service.token}`);
      expect(content.status()).toBe(200);
      expect(content.headers()['content-type']).toBe('application/pdf');
      const frame = documents.locator('iframe[title^="Content of ID_DOCUMENT"]');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toMatch(/^blob:/);
      await expectAccessible(first.page, 'a PDF document shown in the page');
      const download = first.page.waitForEvent('download');
      await documents.getByRole('button', { name: /^Download ID_DOCUMENT/ }).click();
      expect((await download).suggestedFilename()).toBe('id_document.pdf');
      await first.close();

      const second = await pages.open();
      const { page } = second;
      await openCustomer(page, customerId, reviewerToken);
      expect(await panel(page).getByRole('button', { name: 'Run identity check' }).count()).toBe(0);
      const table = panel(page).getByRole('table', { name: 'Documents, newest first' });
      await table.getByRole('button', { name: /Reason to reject/ }).click();
      await page.getByRole('option', { name: 'NAME_MISMATCH' }).click();
      await table.getByRole('button', { name: 'Reject', exact: true }).click();
      // Reviewed: its buttons go (the reason select shows NAME_MISMATCH before that).
      await table.getByRole('button', { name: 'Approve', exact: true }).waitFor({ state: 'detached' });
      expect(await table.locator('tbody tr').first().innerText()).toContain('REJECTED');
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

describe('the console’s document upload', () => {
  const pages = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt('refuses a wrong type or a file over 10 MiB before sending, uploads a PNG and shows it', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' });
    const { page } = await pages.open();
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/document')) uploads.push(request.url());
    });
    await openCustomer(page, customerId, service.token);
    const form = panel(page).getByRole('region', { name: 'Upload a document' });
    const file = form.getByLabel('File (PDF, PNG or JPEG, at most 10 MiB)');
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByText('Choose a PDF, PNG or JPEG file.').waitFor();
    expect(await file.getAttribute('aria-invalid')).toBe('true');
    await file.setInputFiles({
      name: 'big.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024)]),
    });
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByText('Choose a file of at most 10 MiB.').waitFor();
    expect(uploads).toEqual([]);
    await expectAccessible(page, 'upload form with a field error');

    await form.getByLabel('Document type').selectOption('PROOF_OF_ADDRESS');
    await file.setInputFiles({ name: 'bill.png', mimeType: 'image/png', buffer: fileOf('image/png', 3000) });
    // The service's answer held back a moment, so the upload's progress can be seen while it lasts.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/document\?type=/, async (route) => {
      await held;
      await route.continue();
    });
    await form.getByRole('button', { name: 'Upload' }).click();
    const progress = form.getByRole('progressbar', { name: 'Upload progress' });
    await progress.waitFor();
    await form.getByText(/Uploading bill\.png: \d+ %/).waitFor();
    release();
    await form.getByRole('status').filter({ hasText: 'Uploaded: PROOF_OF_ADDRESS, 2.9 KiB.' }).waitFor();
    await expect.poll(() => progress.count()).toBe(0);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).not.toContain(service.token);
    const table = panel(page).getByRole('table', { name: 'Documents, newest first' });
    await table.locator('tbody tr').first().filter({ hasText: 'PROOF_OF_ADDRESS' }).waitFor();
    await table.getByRole('button', { name: /^Show PROOF_OF_ADDRESS/ }).click();
    const image = table.getByRole('img', { name: /^Content of PROOF_OF_ADDRESS/ });
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await waitForStatus(page, 'Needs review');
    pages.expectClean();
  });
});

describe('the console’s review queue', () => {
  const pages = watchedPages(
    () => browser!,
    () => service.url,
  );

  browserIt(
    'lists the NEEDS_REVIEW customers a page at a time, each linking to its page, behind “Reviews”',
    async () => {
      const inReview: string[] = [];
      for (let index = 0; index < 21; index += 1)
        inReview.push((await createCustomer(service, { lastName: 'Review' })).customerId);
      const verified = (await createCustomer(service, { lastName: 'Doe' })).customerId;
      // As a fixture: the statuses a check's result would have set.
      for (const [customerId, state] of [...inReview.map((id) => [id, 'NEEDS_REVIEW']), [verified, 'VERIFIED']])
        await service.database.pool.query(
          `INSERT INTO customer_verifications (customer_id, environment, status) VALUES ($1, 'sandbox', $2)
         ON CONFLICT (customer_id, environment) DO UPDATE SET status = EXCLUDED.status`,
          [customerId, state],
        );

      const { page } = await pages.open();
      await page.goto(`${service.url}/console/customers`);
      await signIn(page, readerToken);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reviews' }).click();
      await page.getByRole('heading', { level: 1, name: 'Verification reviews' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/verification');
      const list = page.getByRole('list', { name: 'Customers awaiting review' });
      await list.waitFor();
      expect(await list.getByRole('listitem').count()).toBe(20);
      await expectAccessible(page, 'review queue');
      const listed = async () => (await list.locator('code').allInnerTexts()).map((text) => text.trim());
      const seen = await listed();
      // Each page's answer comes late, as under CI load, so every turn goes through the loading state.
      await page.route('**/graphql', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.continue();
      });
      const pager = page.getByRole('navigation', { name: 'Review queue pages' });
      const next = pager.getByRole('button', { name: 'Next page' });
      // 21 in review (and any other file's in this database), 20 a page: page on until all 21 were seen. While the
      // next page loads the list is gone (no data for the new cursor yet) and Next is disabled, so each turn waits for
      // a list whose first customer is a new one: an empty list read mid-load is no page (CI once took one for the
      // second page, then waited for a Next the last page never enables).
      const nextPage = async (before: string) => {
        const now = await listed();
        return now.length > 0 && now[0] !== before ? now : undefined;
      };
      for (let turn = 0; !inReview.every((id) => seen.includes(id)); turn += 1) {
        expect(turn, 'pages turned without showing every customer in review').toBeLessThan(10);
        await expect.poll(() => next.isEnabled()).toBe(true);
        const before = (await listed())[0]!;
        await next.click();
        await expect.poll(() => nextPage(before)).toBeDefined();
        seen.push(...(await nextPage(before))!);
      }
      expect(seen).toEqual(expect.arrayContaining(inReview));
      expect(seen).not.toContain(verified);
      expect(new Set(seen).size).toBe(seen.length);

      await pager.getByRole('button', { name: 'Previous page' }).click();
      await expect.poll(async () => await list.getByRole('listitem').count()).toBe(20);
      await list.getByRole('link').first().click();
      await panel(page).waitFor();
      await waitForStatus(page, 'Needs review');
      pages.expectClean();
    },
  );

  browserIt('is not offered without verification:read', async () => {
    const { page } = await pages.open();
    await page.goto(`${service.url}/console/customers`);
    const customersOnly = (
      await issueApiToken(service.database.pool, {
        environments: ['sandbox'],
        scopes: ['customers:read'],
        name: 'customers only',
      })
    ).token;
    await signIn(page, customersOnly);
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Customers' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Reviews' }).count()).toBe(0);
  });
});
