import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { buildBusinessInput, uniqueEin } from '../features/businesses/support.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * Business customers and account roles in the console, in headless Chromium against a live service: the list
 * tells individuals and businesses apart and filters by kind, a name finds people by last name and businesses by
 * legal name, a business's page shows its profile (never a tax id), a business is created from the console with
 * the API's refusals next to their fields and its tax id kept nowhere, and an account's page shows each customer's
 * role and changes it (LAST_OWNER shown) with accounts:write only. One service, one browser.
 */

const suite = consoleSuite();
let readOnlyToken: string;
const suffix = randomUUID().slice(0, 8);
const name = `Harbor${suffix}`;
let personId: string;
let signerId: string;
let businessId: string;
let businessTaxId: string;
let accountId: string;

async function ok(method: string, path: string, body?: unknown) {
  const res = await suite.service.call(method, path, { body, headers: { 'idempotency-key': randomUUID() } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  personId = (
    await ok('POST', '/sandbox/customer', buildCustomerInput({ firstName: 'Pat', middleName: '', lastName: name }))
  ).customerId;
  signerId = (
    await ok(
      'POST',
      '/sandbox/customer',
      buildCustomerInput({ firstName: 'Sam', middleName: '', lastName: `Signer${suffix}` }),
    )
  ).customerId;
  businessTaxId = uniqueEin();
  businessId = (
    await ok('POST', '/sandbox/customer', buildBusinessInput({ legalName: `${name} Labs LLC`, taxId: businessTaxId }))
  ).customerId;
  accountId = (
    await ok('POST', '/sandbox/account', {
      ...buildAccountInput([businessId, signerId], { name: 'Harbor Operating' }),
      relationships: [{ customerId: signerId, role: 'AUTHORIZED_SIGNER' }],
    })
  ).accountId;
  readOnlyToken = (
    await issueApiToken(suite.service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read'],
      name: 'read only',
    })
  ).token;
});

const { browserIt } = suite;

describe('business customers and account roles in the console', () => {
  const { open, expectClean } = suite.watchedPages();

  browserIt(
    'lists individuals and businesses with their kind in words, filters by kind, finds a business by legal name',
    async () => {
      const { page } = await open();
      await suite.signInAt(page, '/console/customers');
      const search = page.getByRole('searchbox', { name: 'Search customers' });
      await search.fill(name.toLowerCase());
      await search.press('Enter');
      // Every kind: the name is a person's last-name prefix and a business's legal-name prefix, two lists.
      const people = page.getByRole('list', { name: 'Matching people' });
      const businesses = page.getByRole('list', { name: 'Matching businesses' });
      await expect
        .poll(() => people.getByRole('listitem').allInnerTexts())
        .toEqual([expect.stringMatching(/^Individual Pat /)]);
      await expect
        .poll(() => businesses.getByRole('listitem').allInnerTexts())
        .toEqual([`Business ${name} Labs LLC doing business as Acme`]);
      await expectAccessible(page, 'customers page, both kinds');
      // A name only a person has: the businesses' list says it has none.
      await search.fill(`Signer${suffix}`);
      await search.press('Enter');
      await page.getByText('No business has a legal name starting so.').waitFor();
      await expect.poll(() => people.getByRole('link').allInnerTexts()).toEqual([`Sam Signer${suffix}`]);
      await search.fill(name.toLowerCase());
      await search.press('Enter');

      await page.getByLabel('Kind of customer').selectOption('BUSINESS');
      const matching = page.getByRole('list', { name: 'Matching customers' });
      await expect.poll(() => matching.getByRole('link').allInnerTexts()).toEqual([`${name} Labs LLC`]);
      await page.getByLabel('Kind of customer').selectOption('INDIVIDUAL');
      await expect.poll(() => matching.getByRole('link').allInnerTexts()).toEqual([`Pat ${name}`]);
      // The kind alone, without a text: only businesses.
      await search.fill('');
      await search.press('Enter');
      await page.getByLabel('Kind of customer').selectOption('BUSINESS');
      const listed = page.getByRole('list', { name: 'Businesses' });
      await listed.getByRole('link', { name: `${name} Labs LLC` }).waitFor();
      expect(await listed.getByText('Individual', { exact: true }).count()).toBe(0);
      expectClean();
    },
  );

  browserIt('shows a business’s profile, contacts and accounts, never its tax id', async () => {
    const { page } = await open();
    await suite.signInAt(page, `/console/customers/${businessId}`);
    await page.getByRole('heading', { level: 1, name: `${name} Labs LLC` }).waitFor();
    const profile = page.getByRole('region', { name: 'Profile' });
    const facts = await profile.locator('dt, dd').allInnerTexts();
    expect(facts.slice(0, 14)).toEqual([
      'Kind',
      'Business',
      'Legal name',
      `${name} Labs LLC`,
      'Doing business as',
      'Acme',
      'Entity type',
      'LLC',
      'Formation',
      '2015-03-01, DE, US',
      'Industry (NAICS)',
      '332710',
      'Website',
      'https://acme.example.com',
    ]);
    await profile.getByText('ops@acme.example.com').waitFor();
    await profile.getByText('+1 202 555 0142 (WORK)').waitFor();
    expect(await profile.getByText('Date of birth').count()).toBe(0);
    await page.getByRole('region', { name: 'Accounts' }).getByRole('link', { name: 'Harbor Operating' }).waitFor();
    const text = await page.locator('body').innerText();
    expect(text).not.toContain(businessTaxId);
    expect(text).not.toContain(businessTaxId.replace('-', ''));
    expect(text).not.toMatch(/tax id/i);
    await expectAccessible(page, 'business customer page');

    // Contact details of a business: no preferred name (a person's field) offered or sent.
    await page.getByRole('button', { name: 'Edit contact details' }).click();
    expect(await page.getByLabel('Preferred name').count()).toBe(0);
    await page.getByLabel('Email 1').fill('billing@acme.example.com');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect((await suite.service.call('GET', `/sandbox/customer/${businessId}`)).json.data.emails).toEqual([
      'billing@acme.example.com',
    ]);
    expectClean();
  });

  browserIt('creates a business with refusals next to their fields, and keeps its tax id nowhere', async () => {
    const { page } = await open();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await suite.signInAt(page, '/console/customers/new');
    await page.getByLabel('Business', { exact: true }).check();
    const form = page.getByRole('form', { name: 'New business' });
    const canary = uniqueEin();
    const taxIdField = form.getByLabel('Tax id (EIN)');
    expect(await taxIdField.getAttribute('autocomplete')).toBe('off');
    expect(await taxIdField.getAttribute('type')).toBe('text');
    // Masked as typed (the SSN's way: not a password field, which a password manager would offer to keep).
    expect(
      await page.evaluate(
        `getComputedStyle(document.querySelector('input[name="business-tax-id"]')).getPropertyValue('-webkit-text-security')`,
      ),
    ).toBe('disc');
    const legalName = `${name} Freight Inc`;
    await form.getByLabel('Legal name').fill(legalName);
    await taxIdField.fill(canary);
    await form.getByLabel('Entity type').selectOption('CORPORATION');
    await form.getByLabel('Formation date').fill('2019-07-04');
    await form.getByLabel('Formation state (optional)').fill('NY');
    await form.getByLabel('Website (optional)').fill('not a website');
    await form.getByLabel('Email 1').fill('dispatch@freight.example.com');
    await expectAccessible(page, 'new business form');
    const before = (await suite.service.call('GET', '/sandbox/customer?customerType=BUSINESS&limit=100')).json.data
      .customers.length;
    await form.getByRole('button', { name: 'Create business' }).click();
    await form.getByRole('alert').getByText('VALIDATION_FAILED').waitFor();
    // The refusal is the website field's own error, announced with it; the tax id field is emptied.
    const website = form.getByLabel('Website (optional)');
    expect(await website.getAttribute('aria-invalid')).toBe('true');
    const described = (await website.getAttribute('aria-describedby'))!.split(' ');
    const errors = await Promise.all(described.map((id) => page.locator(`[id="${id}"]`).innerText()));
    expect(errors.join(' ')).toMatch(/^\s*.+ [A-Z_]{3,}\s*$/);
    expect(await taxIdField.inputValue()).toBe('');
    expect(await form.getByLabel('Legal name').inputValue()).toBe(legalName);
    await expectAccessible(page, 'new business form with a refusal');

    // A tax id another business has: TAX_ID_ALREADY_EXISTS next to the tax id field.
    await website.fill('https://freight.example.com');
    await taxIdField.fill(businessTaxId);
    await form.getByRole('button', { name: 'Create business' }).click();
    await form.getByText('TAX_ID_ALREADY_EXISTS').first().waitFor();
    expect(await taxIdField.getAttribute('aria-invalid')).toBe('true');
    const taxIdError = await page.locator(`[id="${await taxIdField.getAttribute('aria-describedby')}"]`).innerText();
    expect(taxIdError).toContain('TAX_ID_ALREADY_EXISTS');
    expect(
      (await suite.service.call('GET', '/sandbox/customer?customerType=BUSINESS&limit=100')).json.data.customers,
    ).toHaveLength(before);

    await taxIdField.fill(canary);
    await form.getByRole('button', { name: 'Create business' }).click();
    await page.getByRole('heading', { level: 1, name: legalName }).waitFor();
    const created = (await suite.service.call('GET', `/sandbox/customer?legalName=${encodeURIComponent(legalName)}`))
      .json.data.customers;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ customerType: 'BUSINESS', entityType: 'CORPORATION', formationState: 'NY' });
    expect(page.url()).toBe(`${suite.service.url}/console/customers/${created[0].customerId}`);
    await page.getByRole('region', { name: 'Profile' }).getByText('Corporation').waitFor();
    await expectAccessible(page, 'new business page');

    // The canary, in both spellings, is nowhere: page text, DOM, storage, address, requests' URLs, served HTML.
    const storage = await page.evaluate(
      'JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])',
    );
    const served = await (await fetch(page.url())).text();
    const back = await page.goBack().then(() => page.locator('body').innerText());
    for (const spelling of [canary, canary.replace('-', '')]) {
      expect(await page.locator('body').innerText()).not.toContain(spelling);
      expect(await page.content()).not.toContain(spelling);
      expect(storage).not.toContain(spelling);
      expect(page.url()).not.toContain(spelling);
      expect(urls.join('\n')).not.toContain(spelling);
      expect(served).not.toContain(spelling);
      expect(back).not.toContain(spelling);
    }
    expectClean();
  });

  browserIt('shows each customer of an account with its role and changes a role; LAST_OWNER shown', async () => {
    const { page } = await open();
    await suite.signInAt(page, `/console/accounts/${accountId}`);
    const holders = page.getByRole('list', { name: 'Customers of the account and their roles' });
    await expect
      .poll(() => holders.getByRole('listitem').locator('a, .role').allInnerTexts())
      .toEqual([`${name} Labs LLC`, 'Owner', `Sam Signer${suffix}`, 'Authorized signer']);
    await expectAccessible(page, 'account page with roles');

    await page.getByLabel(`Role of Sam Signer${suffix}`).selectOption('BENEFICIARY');
    await page.getByRole('button', { name: `Set role of Sam Signer${suffix}` }).click();
    await expect
      .poll(() => holders.getByRole('listitem').locator('.role').allInnerTexts())
      .toEqual(['Owner', 'Beneficiary']);
    const relationships = (await suite.service.call('GET', `/sandbox/account/${accountId}`)).json.data.relationships;
    expect(relationships).toContainEqual({ customerId: signerId, role: 'BENEFICIARY' });

    // The business is the last owner: giving it another role is refused, shown with its code, and nothing changes.
    await page.getByLabel(`Role of ${name} Labs LLC`).selectOption('CUSTODIAN');
    await page.getByRole('button', { name: `Set role of ${name} Labs LLC` }).click();
    await page.getByRole('region', { name: 'Holders' }).getByRole('alert').getByText('LAST_OWNER').waitFor();
    expect((await suite.service.call('GET', `/sandbox/account/${accountId}`)).json.data.relationships).toEqual(
      relationships,
    );
    await expectAccessible(page, 'account page with a refused role change');

    // A person added as an authorized user, with the role chosen at once.
    await page.getByLabel('Customer id of a new holder').fill(personId);
    await page.getByLabel('Role of the new holder').selectOption('AUTHORIZED_USER');
    await page.getByRole('button', { name: 'Add holder' }).click();
    await holders
      .getByRole('listitem')
      .filter({ hasText: `Pat ${name}` })
      .locator('.role', { hasText: 'Authorized user' })
      .waitFor();
    // Pat an owner too: the business may stop being one, but a business may not sign (ROLE_REQUIRES_INDIVIDUAL).
    await page.getByLabel(`Role of Pat ${name}`).selectOption('OWNER');
    await page.getByRole('button', { name: `Set role of Pat ${name}` }).click();
    await expect
      .poll(() => holders.getByRole('listitem').locator('.role').allInnerTexts())
      .toEqual(['Owner', 'Beneficiary', 'Owner']);
    await page.getByLabel(`Role of ${name} Labs LLC`).selectOption('AUTHORIZED_SIGNER');
    await page.getByRole('button', { name: `Set role of ${name} Labs LLC` }).click();
    await page
      .getByRole('region', { name: 'Holders' })
      .getByRole('alert')
      .getByText('ROLE_REQUIRES_INDIVIDUAL')
      .waitFor();
    expect((await suite.service.call('GET', `/sandbox/account/${accountId}`)).json.data.relationships).toContainEqual({
      customerId: businessId,
      role: 'OWNER',
    });
    expectClean();
  });

  browserIt('lists, adds and removes a business’s beneficial owners; refusals shown with their codes', async () => {
    const { page, settled } = await open();
    await suite.signInAt(page, `/console/customers/${businessId}`);
    const owners = page.getByRole('region', { name: 'Beneficial owners' });
    await owners.getByText('No beneficial owner is recorded.').waitFor();
    const form = page.getByRole('form', { name: 'Add a beneficial owner' });
    await expectAccessible(page, 'business page, no owner');

    // Pat owns 60 % and is its CEO; the table and the summary say so.
    await form.getByLabel('Customer id of the owner (an individual)').fill(personId);
    await form.getByLabel('Share owned, in % (e.g. 33.33)').fill('60');
    await form.getByLabel('Title (optional)').fill('CEO');
    await form.getByRole('button', { name: 'Add owner' }).click();
    await form.getByRole('status').getByText('Owner added.').waitFor();
    const table = owners.getByRole('table', { name: 'Beneficial owners and control persons, oldest first' });
    await expect
      .poll(() => table.locator('tbody tr').first().locator('td').allInnerTexts())
      .toEqual([`Pat ${name}`, 'Ownership', '60.00 %', 'CEO', expect.stringMatching(/ UTC$/), `Remove Pat ${name}`]);
    await owners
      .getByLabel('Ownership summary')
      .getByText('Shares recorded: 60.00 % of 100 %; 0 control persons.')
      .waitFor();

    // Sam asking for 50 % too: the shares would pass 100 %, refused next to the share, nothing recorded.
    await form.getByLabel('Customer id of the owner (an individual)').fill(signerId);
    await form.getByLabel('Share owned, in % (e.g. 33.33)').fill('50');
    await form.getByRole('button', { name: 'Add owner' }).click();
    await form.getByRole('alert').getByText('OWNERSHIP_OVER_100').waitFor();
    expect(
      (await suite.service.call('GET', `/sandbox/customer/${businessId}/beneficial-owner`)).json.data.beneficialOwners,
    ).toHaveLength(1);
    await expectAccessible(page, 'owners form with a refusal');

    // A share that is not a number: the field's own error, announced with it.
    await form.getByLabel('Share owned, in % (e.g. 33.33)').fill('lots');
    await form.getByRole('button', { name: 'Add owner' }).click();
    const shareField = form.getByLabel('Share owned, in % (e.g. 33.33)');
    await expect.poll(() => shareField.getAttribute('aria-invalid')).toBe('true');
    const described = (await shareField.getAttribute('aria-describedby'))!.split(' ');
    const errors = await Promise.all(described.map((id) => page.locator(`[id="${id}"]`).innerText()));
    expect(errors.join(' ')).toContain('INVALID_VALUE Decimal must be a string holding a decimal number');

    // Sam as its control person only: no share asked.
    const prongs = form.getByRole('group', { name: 'Prongs' });
    await prongs.getByRole('checkbox', { name: 'Ownership (25 % or more)' }).uncheck();
    await prongs.getByRole('checkbox', { name: 'Control (manages or directs the business)' }).check();
    expect(await form.getByLabel('Share owned, in % (e.g. 33.33)').count()).toBe(0);
    await form.getByLabel('Title (optional)').fill('COO');
    await form.getByRole('button', { name: 'Add owner' }).click();
    await form.getByRole('status').getByText('Owner added.').waitFor();
    await owners
      .getByLabel('Ownership summary')
      .getByText('Shares recorded: 60.00 % of 100 %; one control person.')
      .waitFor();
    expect(
      (
        await suite.service.call('GET', `/sandbox/customer/${businessId}/beneficial-owner`)
      ).json.data.beneficialOwners.map((owner: { customerId: string; prongs: string[] }) => [
        owner.customerId,
        owner.prongs,
      ]),
    ).toEqual([
      [personId, ['OWNERSHIP']],
      [signerId, ['CONTROL']],
    ]);

    // The business itself is no owner of itself: refused with its code.
    await form.getByLabel('Customer id of the owner (an individual)').fill(businessId);
    // (The form is back to its defaults after an addition: the ownership prong, a share to give.)
    await form.getByLabel('Share owned, in % (e.g. 33.33)').fill('10');
    await form.getByRole('button', { name: 'Add owner' }).click();
    await form.getByRole('alert').getByText('OWNER_IS_THE_BUSINESS').waitFor();
    expect(
      (await suite.service.call('GET', `/sandbox/customer/${businessId}/beneficial-owner`)).json.data.beneficialOwners,
    ).toHaveLength(2);

    // Pat's page links back to the business it owns.
    await page
      .getByRole('link', { name: `Pat ${name}` })
      .first()
      .click();
    const ownerOf = page.getByRole('list', { name: 'Businesses this person owns or controls' });
    await expect
      .poll(() => ownerOf.getByRole('listitem').allInnerTexts())
      .toEqual([`${name} Labs LLC Ownership, 60.00 %, CEO`]);
    await expectAccessible(page, 'a person who owns a business');
    await ownerOf.getByRole('link', { name: `${name} Labs LLC` }).click();
    // The business's page still loading its sections moves its buttons: a press then can miss the one it aimed at.
    await owners.getByRole('button', { name: `Remove Sam Signer${suffix}` }).waitFor();
    await settled();

    // Removing asks first, naming the owner and its share; Cancel changes nothing, confirming removes.
    await owners.getByRole('button', { name: `Remove Sam Signer${suffix}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Remove Sam Signer${suffix} as a beneficial owner?` });
    await dialog.getByText('(Control, share none)').waitFor();
    await expectAccessible(page, 'removing an owner');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (await suite.service.call('GET', `/sandbox/customer/${businessId}/beneficial-owner`)).json.data.beneficialOwners,
    ).toHaveLength(2);
    await owners.getByRole('button', { name: `Remove Sam Signer${suffix}` }).click();
    await dialog.getByRole('button', { name: 'Remove owner' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(
      (
        await suite.service.call('GET', `/sandbox/customer/${businessId}/beneficial-owner`)
      ).json.data.beneficialOwners.map((owner: { customerId: string }) => owner.customerId),
    ).toEqual([personId]);
    expectClean();
  });

  browserIt('shows owners to a token without customers:write, and offers it no change', async () => {
    const { page } = await open();
    await suite.signInAt(page, `/console/customers/${businessId}`, readOnlyToken);
    const owners = page.getByRole('region', { name: 'Beneficial owners' });
    await owners.getByRole('link', { name: `Pat ${name}` }).waitFor();
    expect(await page.getByRole('form', { name: 'Add a beneficial owner' }).count()).toBe(0);
    expect(await owners.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await expectAccessible(page, 'business owners, read only');
    expectClean();
  });

  browserIt('shows roles to a token without accounts:write, and offers it no role change', async () => {
    const { page } = await open();
    await suite.signInAt(page, `/console/accounts/${accountId}`, readOnlyToken);
    const holders = page.getByRole('list', { name: 'Customers of the account and their roles' });
    await holders.locator('.role', { hasText: 'Owner' }).first().waitFor();
    expect(await page.getByLabel(/^Role of /).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Set role of / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add holder' }).count()).toBe(0);
    await expectAccessible(page, 'account page, read only');
    expectClean();
  });
});
