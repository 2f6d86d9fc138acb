import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * Errors by field (GOV.UK's error summary pattern): the API's refusal of a form is shown at the top of the form
 * as a list of links, one per field it names, and at each field; the browser's own checks (a required reason,
 * a record id that is not a UUID, an end in the past) are said at the field before anything is sent. Nothing
 * typed is lost.
 */

const suite = consoleSuite();

const { browserIt } = suite;

/** The text of the elements that describe `field` (its error among them). */
async function describedText(page: Page, label: string): Promise<string> {
  const field = page.getByRole('textbox', { name: label, exact: true });
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
  return texts.join(' ');
}

describe('the console’s errors by field', () => {
  const { open, expectClean } = suite.watchedPages();

  browserIt(
    'shows each refused field of a new customer in a summary that links to it and at the field, keeping what was typed',
    async () => {
      const { page } = await open();
      await suite.signInAt(page, '/console/customers/new');
      await page.getByRole('heading', { level: 1, name: 'New customer' }).waitFor();
      const form = page.getByRole('form', { name: 'New individual' });
      await form.getByRole('textbox', { name: 'First name' }).fill('Field');
      await form.getByRole('textbox', { name: 'Last name', exact: true }).fill('Errors');
      await form.getByLabel('Date of birth').fill('2099-01-01');
      await form.getByRole('textbox', { name: 'Social security number' }).fill('12');
      await form.getByRole('textbox', { name: 'Document locator number' }).fill('123456789');
      await form.getByRole('textbox', { name: 'Preferred name' }).fill('Field');
      await form.getByRole('textbox', { name: 'Email 1' }).fill('x@y');
      await form.getByRole('button', { name: 'Create customer' }).click();

      const summary = page
        .getByRole('alert')
        .filter({ has: page.getByRole('heading', { name: 'There is a problem' }) });
      await summary.waitFor();
      // GOV.UK: the summary takes the focus, so a screen reader reads it first.
      await expect.poll(() => page.evaluate('document.activeElement?.className')).toContain('error-summary');
      const links = summary.getByRole('link');
      const said = await links.allInnerTexts();
      expect(said.some((text) => text.startsWith('Date of birth:'))).toBe(true);
      expect(said.some((text) => text.startsWith('Social security number:'))).toBe(true);
      expect(said.some((text) => text.startsWith('Email 1:'))).toBe(true);
      // What was refused is never repeated back: the summary names fields and rules, not the typed number.
      expect(await summary.innerText()).not.toContain('12 ');
      await expectAccessible(page, 'a refused new customer');

      // Each link moves the focus to its field; the field is invalid and described by its error.
      await links.filter({ hasText: /^Email 1:/ }).click();
      await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('type')")).toBe('email');
      const email = form.getByRole('textbox', { name: 'Email 1' });
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      expect(await describedText(page, 'Email 1')).toMatch(/INVALID_FORMAT|INVALID_VALUE/);
      expect(await form.getByRole('textbox', { name: 'Social security number' }).getAttribute('aria-invalid')).toBe(
        'true',
      );

      // Nothing typed is lost, and editing a field takes its error away (the summary stays until the next answer).
      expect(await form.getByRole('textbox', { name: 'First name' }).inputValue()).toBe('Field');
      expect(await email.inputValue()).toBe('x@y');
      await email.fill('field.errors@example.com');
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe(null);
      expect(await summary.count()).toBe(1);

      // Corrected, the customer is created.
      await form.getByLabel('Date of birth').fill('1990-04-02');
      await form.getByRole('textbox', { name: 'Social security number' }).fill('123-45-6789');
      await form.getByRole('button', { name: 'Create customer' }).click();
      await page.getByRole('heading', { level: 1, name: /Field.*Errors/ }).waitFor();
      expectClean();
    },
  );

  browserIt(
    'says at the field what the browser refuses before sending: a blank reason, an end in the past',
    async () => {
      const customer = await suite.service.call('POST', '/sandbox/customer', {
        body: buildCustomerInput({ lastName: 'Reasons' }),
      });
      expect(customer.status).toBe(201);
      const account = await suite.service.call('POST', '/sandbox/account', {
        body: buildAccountInput([customer.json.data.customerId], { name: 'Flag Reasons Checking' }),
      });
      expect(account.status).toBe(201);
      const accountId = account.json.data.accountId as string;
      const { page } = await open();
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/graphql') && (request.postData() ?? '').includes('SetAccountFlag'))
          sent.push(request.postData()!);
      });
      await suite.signInAt(page, `/console/accounts/${accountId}`);
      await page.getByRole('heading', { level: 1, name: 'Flag Reasons Checking' }).waitFor();

      const form = page.getByRole('form', { name: 'Set a flag' });
      await form.getByRole('textbox', { name: 'Reason' }).fill('   ');
      await form.getByRole('button', { name: /^Set / }).click();
      await form.getByText('Enter the reason the flag is set.').waitFor();
      expect(await form.getByRole('textbox', { name: 'Reason' }).getAttribute('aria-invalid')).toBe('true');

      await form.getByRole('textbox', { name: 'Reason' }).fill('Customer asked');
      await form.getByLabel('Lifts itself at (your time; optional)').fill('2001-02-03T04:05');
      await form.getByRole('button', { name: /^Set / }).click();
      await form.getByText('The end must be in the future.').waitFor();
      await expectAccessible(page, 'a flag form refused by the browser');
      expect(sent).toEqual([]);
      expect((await suite.service.call('GET', `/sandbox/account/${accountId}/flags`)).json.data.flags).toEqual([]);

      // The audit trail's filters say what is wrong at the field too. (The flag form holds what was typed, so
      // leaving asks first: yes.)
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit' }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit trail' }).waitFor();
      const filters = page.getByRole('form', { name: 'Audit filters' });
      await filters.getByRole('textbox', { name: 'Record id' }).fill('not-a-uuid');
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      await filters.getByText('A record id is a UUID.').waitFor();
      expect(await describedText(page, 'Record id')).toContain('A record id is a UUID.');
      expectClean();
    },
  );

  browserIt(
    'a conflicting edit says so in words and reloads and reapplies only what was changed in the form',
    async () => {
      const created = await suite.service.call('POST', '/sandbox/customer', {
        body: buildCustomerInput({ lastName: 'Conflicted', preferredName: 'Before' }),
      });
      expect(created.status).toBe(201);
      const customerId = created.json.data.customerId as string;
      const { page } = await open();
      await suite.signInAt(page, `/console/customers/${customerId}`);
      await page.getByRole('button', { name: 'Edit contact details' }).click();
      await page.getByRole('button', { name: 'Add an email' }).click();
      const emails = page.getByRole('textbox', { name: /^Email \d+$/ });
      await emails.last().fill('second.address@example.com');

      // Meanwhile another agent changes the preferred name.
      const elsewhere = await suite.service.call('PUT', `/sandbox/customer/${customerId}`, {
        body: { preferredName: 'After' },
      });
      expect(elsewhere.status).toBe(200);

      await page.getByRole('button', { name: 'Save changes' }).click();
      const notice = page.getByRole('alert').filter({ hasText: 'Someone changed this customer' });
      await notice.waitFor();
      expect(await notice.innerText()).not.toMatch(/If-Match|expectedVersion/);
      expect(await emails.last().inputValue()).toBe('second.address@example.com');
      await expectAccessible(page, 'a conflicting edit');

      await notice.getByRole('button', { name: 'Reload and reapply my changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const now = (await suite.service.call('GET', `/sandbox/customer/${customerId}`)).json.data;
      // The other change stands; the form's own change is applied over it.
      expect(now.preferredName).toBe('After');
      expect(now.emails).toContain('second.address@example.com');
      expectClean();
    },
  );
});
