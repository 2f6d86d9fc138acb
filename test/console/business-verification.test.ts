import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect } from 'vitest';
import { createCustomer } from '../rest/helpers.js';
import { issueApiToken } from '../support/api-tokens.js';
import { buildBusinessInput } from '../features/businesses/support.js';
import { documentHelpers, fileOf } from '../features/verification/documents-support.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * A business's verification panel (docs/console.md, docs/verification.md): its checklist lists what a business
 * needs (its business check, its formation document, its beneficial owners under the CDD rule, each owner VERIFIED),
 * each owner with its own status and a link to its page, and each item turns Met when its evidence arrives: an owner
 * below 25 % removed, the certificate of formation approved, the owner's check passed, the business's check passed.
 */

// The sandbox answers at once and the job applies it within a fifth of a second: the panel polls while a check runs.
const suite = consoleSuite({ VERIFICATION_SANDBOX_DELAY_MS: '0', VERIFICATION_JOB_INTERVAL_MS: '200' });
const { browserIt } = suite;
let agentToken: string;
const suffix = randomUUID().slice(0, 8);
let businessId: string;
let ceoId: string;
let investorId: string;

beforeAll(async () => {
  const service = suite.service;
  const business = await service.call('POST', '/sandbox/customer', {
    body: buildBusinessInput({ legalName: `Checklist ${suffix} LLC` }),
  });
  expect(business.status, business.text).toBe(201);
  businessId = business.json.data.customerId;
  ceoId = (await createCustomer(service, { firstName: 'Olivia', middleName: '', lastName: `Ceo${suffix}` })).customerId;
  investorId = (await createCustomer(service, { firstName: 'Ivan', middleName: '', lastName: `Investor${suffix}` }))
    .customerId;
  for (const body of [
    { customerId: ceoId, prongs: ['OWNERSHIP', 'CONTROL'], ownershipPercentage: '60', title: 'CEO' },
    { customerId: investorId, prongs: ['OWNERSHIP'], ownershipPercentage: '10' },
  ]) {
    const res = await service.call('POST', `/sandbox/customer/${businessId}/beneficial-owner`, { body });
    expect(res.status, res.text).toBe(201);
  }
  // Uploaded by the service's own token: the agent below is another principal, so it may review it.
  const uploaded = await documentHelpers(service).upload(
    businessId,
    'CERTIFICATE_OF_FORMATION',
    fileOf('application/pdf', 3000),
  );
  expect(uploaded.status, uploaded.text).toBe(201);
  agentToken = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'customers:write', 'verification:read', 'verification:write', 'verification:decide'],
      name: 'kyb agent',
    })
  ).token;
});

const panel = (page: Page) => page.getByRole('region', { name: 'Verification' });
const checklist = (page: Page) => panel(page).getByRole('list', { name: 'Requirements' });
const item = (page: Page, requirement: string) =>
  checklist(page)
    .getByRole('listitem')
    .filter({ has: page.locator('code', { hasText: new RegExp(`^${requirement}$`) }) });
/** The item's state as its badge says it: Due, Pending or Met. */
const stateOf = async (requirement: Locator) => (await requirement.locator('.badge').innerText()).trim();
/** The item once its badge reads `state` (the panel reads again after each change, and while a check runs). */
const waitForState = (page: Page, requirement: string, state: string) =>
  item(page, requirement)
    .locator('.badge', { hasText: new RegExp(`^${state}$`) })
    .waitFor();
const waitForStatus = (page: Page, text: string) =>
  panel(page)
    .getByTestId('verification-status')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();

describe('a business’s verification panel', () => {
  const pages = suite.watchedPages();

  browserIt(
    'lists a business’s requirements with its owners’ states, each turning Met as its evidence arrives',
    async () => {
      const { page } = await pages.open();
      await suite.signInAt(page, `/console/customers/${businessId}`, agentToken);
      await panel(page).waitFor();
      // The certificate's upload put the business in review.
      await waitForStatus(page, 'Needs review');
      const ceo = `owner_verification:${ceoId}`;
      const investor = `owner_verification:${investorId}`;
      await item(page, investor).waitFor();
      expect((await checklist(page).locator(':scope > li > code').allInnerTexts()).map((text) => text.trim())).toEqual([
        'business_check',
        'formation_document',
        'beneficial_owners',
        ceo,
        investor,
      ]);
      expect(await stateOf(item(page, 'business_check'))).toBe('Due');
      expect(await stateOf(item(page, 'formation_document'))).toBe('Pending');
      expect(await item(page, 'formation_document').innerText()).toContain('An approved certificate of formation.');
      const owners = item(page, 'beneficial_owners');
      expect(await stateOf(owners)).toBe('Due');
      expect(await owners.innerText()).toContain('at least one control person');
      expect(await owners.innerText()).toContain('OWNERSHIP_BELOW_THRESHOLD');
      expect(await stateOf(item(page, ceo))).toBe('Due');
      expect(await item(page, ceo).innerText()).toContain(
        `Beneficial owner Olivia Ceo${suffix} (Ownership and Control, 60.00 %) is verified. Its status: Unverified.`,
      );
      expect(await stateOf(item(page, investor))).toBe('Due');
      expect(await panel(page).getByRole('button', { name: 'Run business check' }).count()).toBe(1);
      expect(await panel(page).getByRole('button', { name: 'Run identity check' }).count()).toBe(0);
      await expectAccessible(page, 'a business’s verification panel');

      // The owner below 25 % without a control prong is not a beneficial owner: removed, the CDD item is met.
      const ownersTable = page.getByRole('region', { name: 'Beneficial owners' });
      await ownersTable.getByRole('button', { name: `Remove Ivan Investor${suffix}` }).click();
      await page
        .getByRole('alertdialog', { name: `Remove Ivan Investor${suffix} as a beneficial owner?` })
        .getByRole('button', { name: 'Remove owner' })
        .click();
      await waitForState(page, 'beneficial_owners', 'Met');
      await item(page, investor).waitFor({ state: 'detached' });
      expect(await item(page, 'beneficial_owners').innerText()).not.toContain('OWNERSHIP_BELOW_THRESHOLD');

      // The certificate of formation approved: its item is met.
      const documents = panel(page).getByRole('table', { name: 'Documents, newest first' });
      await documents.getByRole('button', { name: 'Approve', exact: true }).click();
      await waitForState(page, 'formation_document', 'Met');

      // The owner's own check, run from its page (the checklist links to it), passes: back here, its item is met.
      await item(page, ceo)
        .getByRole('link', { name: `Olivia Ceo${suffix}` })
        .click();
      await page.getByRole('heading', { level: 1, name: `Olivia Ceo${suffix}` }).waitFor();
      await panel(page).getByRole('button', { name: 'Run identity check' }).click();
      await waitForStatus(page, 'Verified');
      await page.goBack();
      await item(page, 'business_check').waitFor();
      await waitForState(page, ceo, 'Met');
      expect(await item(page, ceo).innerText()).toContain('Its status: Verified.');
      await expectAccessible(page, 'a business’s checklist, its owner verified');

      // Nothing else is due: the business's own check makes it VERIFIED, every item met.
      await panel(page).getByRole('button', { name: 'Run business check' }).click();
      await waitForStatus(page, 'Verified');
      await waitForState(page, 'business_check', 'Met');
      expect(await checklist(page).locator('.badge').allInnerTexts()).toEqual(['Met', 'Met', 'Met', 'Met']);
      const answer = await suite.service.call('GET', `/sandbox/customer/${businessId}/verification`);
      expect(answer.json.data.status).toBe('VERIFIED');
      expect(answer.json.data.requirements).toEqual({ currentlyDue: [], pendingVerification: [], errors: [] });
      await expectAccessible(page, 'a verified business’s checklist');
      pages.expectClean();
    },
  );
});
