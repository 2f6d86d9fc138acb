import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { graphql } from '../../graphql/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { buildBusinessInput } from '../businesses/support.js';

/**
 * A customer's 1099-INT (docs/tax-forms.md, docs/adr/0116) with real interest: products with a rate, accounts on them
 * (one alone, two joint in either order, one in euros, one too small to report), the sandbox's clock advanced over a
 * year end so that the end of day accrues every day and posts at December 31. Box 1 and each line are checked against
 * the interest_postings rows; a joint account's interest goes to its first owner alone; the PDF's text is the form's;
 * and a canary SSN never appears in the JSON, the PDF, the logs or an error.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const DAY_MS = 86_400_000;
/** The recipient's SSN: the canary no answer, log or PDF may contain. */
const CANARY_SSN = '219-09-9999';
const CANARY_DIGITS = CANARY_SSN.replace(/-/g, '');

const FORM_FIELDS = `form taxYear final reportable reportingThreshold currency
  payer { name address tin phone }
  recipient { customerId name address { street city state zip } tinType tinLastFour }
  box1InterestIncome accounts { accountId accountNumberLast4 interestPaid }
  otherCurrencyAccounts { accountId currency interestPaid } asOf`;

const product = (code: string, currency: string, annualRate: string) => ({
  code,
  name: code,
  accountType: 'SAVINGS',
  currency,
  interest: {
    tiers: [{ minimumBalance: '0', annualRate }],
    dayCount: 'ACTUAL_365',
    balanceBasis: 'END_OF_DAY',
    compounding: 'DAILY',
    posting: 'MONTHLY',
  },
});

async function openAccount(customerIds: string[], productCode: string, currency: string, deposit: number) {
  const res = await service.call('POST', '/sandbox/account', {
    body: { associatedCustomerIds: customerIds, name: 'Savings', currency, type: 'SAVINGS', productCode },
  });
  expectSuccess(res, 'account', 201);
  const accountId = res.json.data.accountId as string;
  expectSuccess(
    await service.call('POST', `/sandbox/account/${accountId}/transaction`, {
      body: { type: 'CREDIT', amount: deposit },
    }),
    'account',
    201,
  );
  return accountId;
}

/** What interest_postings says was posted in `year` to the accounts, in dollars and cents, by account. */
async function postedIn(year: number, accountIds: string[]): Promise<Map<string, string>> {
  const { rows } = await service.database.pool.query<{ accountId: string; posted: string }>(
    `SELECT account_id::text AS "accountId", to_char(sum(posted), 'FM999999990.00') AS posted FROM interest_postings
      WHERE account_id = ANY($1::uuid[]) AND period_end BETWEEN make_date($2, 1, 1) AND make_date($2, 12, 31)
      GROUP BY account_id HAVING sum(posted) > 0`,
    [accountIds, year],
  );
  return new Map(rows.map((row) => [row.accountId, row.posted]));
}

const cents = (amount: string) => BigInt(amount.replace('.', ''));
const dollars = (value: bigint) => `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;

async function pdfOf(pathname: string): Promise<{ status: number; type: string | null; text: string; raw: string }> {
  const response = await fetch(`${service.url}${pathname}`, {
    headers: { authorization: `Bearer ${service.token}`, accept: 'application/pdf' },
  });
  const body = Buffer.from(await response.arrayBuffer());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-1099-'));
  try {
    writeFileSync(path.join(dir, 'form.pdf'), body);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'form.pdf'), '-']).toString('utf8');
    return { status: response.status, type: response.headers.get('content-type'), text, raw: body.toString('latin1') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const formPath = (customerId: string, year: number | string) =>
  `/sandbox/customer/${customerId}/tax-form/1099-INT/${year}`;

let year: number;
let alice: string;
let bob: string;
let small: string;
let aliceAlone: string;
let jointAliceFirst: string;
let jointBobFirst: string;
let aliceEuros: string;

beforeAll(async () => {
  for (const body of [
    product('TAX_SAVINGS', 'USD', '0.05'),
    product('TAX_EURO_SAVINGS', 'EUR', '0.04'),
    product('TAX_LOW_SAVINGS', 'USD', '0.001'),
  ])
    expectSuccess(await service.call('POST', '/sandbox/product', { body }), 'account', 201);
  alice = (
    await createCustomer(service, {
      socialSecurityNumber: CANARY_SSN,
      firstName: 'Ottilie',
      middleName: 'Q',
      lastName: 'Quarrington',
      addresses: [{ type: 'HOME', street: '12 Elm Row', city: 'Albany', state: 'NY', zip: '12207' }],
    })
  ).customerId;
  bob = (await createCustomer(service, { firstName: 'Bartholomew', middleName: '', lastName: 'Joint' })).customerId;
  small = (await createCustomer(service, { firstName: 'Sam', lastName: 'Small' })).customerId;
  aliceAlone = await openAccount([alice], 'TAX_SAVINGS', 'USD', 20_000);
  jointAliceFirst = await openAccount([alice, bob], 'TAX_SAVINGS', 'USD', 8_000);
  jointBobFirst = await openAccount([bob, alice], 'TAX_SAVINGS', 'USD', 6_000);
  aliceEuros = await openAccount([alice], 'TAX_EURO_SAVINGS', 'EUR', 9_000);
  await openAccount([small], 'TAX_LOW_SAVINGS', 'USD', 500);

  // Through the year's end to the 10th of January: December 31 posts the year's last interest.
  const clock = (await service.call('GET', '/sandbox/clock')).json.data as { businessDate: string };
  year = Number(clock.businessDate.slice(0, 4));
  const target = Date.parse(`${year + 1}-01-10T00:00:00Z`);
  const days = Math.ceil((target - Date.parse(`${clock.businessDate}T00:00:00Z`)) / DAY_MS);
  expectSuccess(await service.call('POST', '/sandbox/clock/advance', { body: { days } }), 'customer', 200);
}, 120_000);

describe('GET /{environment}/customer/{customerId}/tax-form/1099-INT/{year}', () => {
  it("Box 1 is the year's interest posted to the USD accounts the customer is the first owner of, line by line", async () => {
    const res = await service.call('GET', formPath(alice, year));
    expectSuccess(res, 'customer', 200);
    const form = res.json.data;
    const posted = await postedIn(year, [aliceAlone, jointAliceFirst]);
    expect(posted.size).toBe(2);
    const box1 = dollars([...posted.values()].reduce((sum, amount) => sum + cents(amount), 0n));
    expect(form).toMatchObject({
      form: '1099-INT',
      taxYear: year,
      final: true,
      reportable: true,
      reportingThreshold: '10.00',
      currency: 'USD',
      payer: {
        name: 'Example Sandbox Bank (not a real payer)',
        tin: '00-0000000',
        address: '100 Example Street, Anytown, NY 10001',
        phone: '(555) 010-0100',
      },
      recipient: {
        customerId: alice,
        name: 'Ottilie Q Quarrington',
        address: { street: '12 Elm Row', city: 'Albany', state: 'NY', zip: '12207' },
        tinType: 'SSN',
        tinLastFour: '9999',
      },
      box1InterestIncome: box1,
    });
    expect(Number(box1)).toBeGreaterThan(10);
    // Each line: the account, the last four of its number (the account-numbers feature's), the interest posted.
    const numbers = await service.database.pool.query<{ accountId: string; last4: string }>(
      `SELECT DISTINCT ON (account_id) account_id::text AS "accountId", last4 FROM account_numbers
        WHERE account_id = ANY($1::uuid[]) AND status <> 'CANCELED' ORDER BY account_id, created_at, id`,
      [[aliceAlone, jointAliceFirst]],
    );
    const last4 = new Map(numbers.rows.map((row) => [row.accountId, row.last4]));
    expect(form.accounts).toEqual(
      [aliceAlone, jointAliceFirst].sort().map((accountId) => ({
        accountId,
        accountNumberLast4: last4.get(accountId),
        interestPaid: posted.get(accountId),
      })),
    );
    expect(form.accounts.every((line: { accountNumberLast4: string }) => /^\d{4}$/.test(line.accountNumberLast4))).toBe(
      true,
    );
    // The euro account is named apart, left out of Box 1 (a 1099-INT is in dollars).
    expect(form.otherCurrencyAccounts).toEqual([
      { accountId: aliceEuros, currency: 'EUR', interestPaid: expect.stringMatching(/^\d+\.\d{2}$/) },
    ]);
    expect(Number(form.otherCurrencyAccounts[0].interestPaid)).toBeGreaterThan(0);
    // Interest moved money from the interest-expense accounts: the ledger still sums to zero per currency.
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it("a joint account's interest goes to its first owner alone", async () => {
    const res = await service.call('GET', formPath(bob, year));
    expectSuccess(res, 'customer', 200);
    const posted = await postedIn(year, [jointBobFirst]);
    expect(res.json.data.accounts.map((line: { accountId: string }) => line.accountId)).toEqual([jointBobFirst]);
    expect(res.json.data.box1InterestIncome).toBe(posted.get(jointBobFirst));
    expect(res.json.data.recipient.name).toBe('Bartholomew Joint');
    const aliceForm = (await service.call('GET', formPath(alice, year))).json.data;
    expect(aliceForm.accounts.map((line: { accountId: string }) => line.accountId)).not.toContain(jointBobFirst);
  });

  it('below $10.00 the form is not reportable, and says the threshold', async () => {
    const res = await service.call('GET', formPath(small, year));
    expectSuccess(res, 'customer', 200);
    expect(res.json.data).toMatchObject({ reportable: false, reportingThreshold: '10.00', final: true });
    expect(Number(res.json.data.box1InterestIncome)).toBeLessThan(10);
    expect(res.json.data.accounts).toHaveLength(1);
  });

  it('the current year is not final; a future year, one before 2000 or no year at all is VALIDATION_FAILED', async () => {
    const current = await service.call('GET', formPath(alice, year + 1));
    expectSuccess(current, 'customer', 200);
    expect(current.json.data).toMatchObject({
      taxYear: year + 1,
      final: false,
      reportable: false,
      box1InterestIncome: '0.00',
      accounts: [],
    });
    for (const bad of [year + 2, 1999, 'last', '02026']) {
      const res = await service.call('GET', formPath(alice, bad));
      expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details).toEqual([expect.objectContaining({ field: 'year', code: 'OUT_OF_RANGE' })]);
    }
  });

  it('an unknown customer is CUSTOMER_NOT_FOUND; a PDF too', async () => {
    expectFailure(
      await service.call('GET', formPath('00000000-0000-4000-8000-000000000000', year)),
      'customer',
      404,
      'CUSTOMER_NOT_FOUND',
    );
    expectFailure(await service.call('GET', formPath('not-an-id', year)), 'customer', 404, 'CUSTOMER_NOT_FOUND');
  });

  it("a business gets its form with its EIN's last four; a corporation or a foreign business TAX_FORM_NOT_APPLICABLE", async () => {
    const llc = buildBusinessInput({ entityType: 'LLC' });
    const created = await service.call('POST', '/sandbox/customer', { body: llc });
    expectSuccess(created, 'customer', 201);
    const res = await service.call('GET', formPath(created.json.data.customerId, year));
    expectSuccess(res, 'customer', 200);
    expect(res.json.data.recipient).toMatchObject({
      name: llc.legalName,
      tinType: 'EIN',
      tinLastFour: llc.taxId.slice(-4),
      address: { street: '1 Main St', city: 'Dover', state: 'DE', zip: '19901' },
    });
    expect(res.text).not.toContain(llc.taxId);
    expect(res.text).not.toContain(llc.taxId.replace('-', ''));
    for (const overrides of [
      { entityType: 'CORPORATION' },
      { entityType: 'NONPROFIT' },
      { formationCountry: 'GB', formationState: undefined, taxId: 'GB123456789' },
    ]) {
      const business = await service.call('POST', '/sandbox/customer', { body: buildBusinessInput(overrides) });
      expectSuccess(business, 'customer', 201);
      expectFailure(
        await service.call('GET', formPath(business.json.data.customerId, year)),
        'customer',
        422,
        'TAX_FORM_NOT_APPLICABLE',
      );
    }
  });

  it("PDF: the payee statement's text, drawn by the statement PDF workers; only the TIN's last four", async () => {
    const json = (await service.call('GET', formPath(alice, year))).json.data;
    const pdf = await pdfOf(formPath(alice, year));
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.raw.startsWith('%PDF-')).toBe(true);
    expect(pdf.text).toContain(`Form 1099-INT`);
    expect(pdf.text).toContain(String(year));
    expect(pdf.text).toContain('Example Sandbox Bank (not a real payer)');
    expect(pdf.text).toContain('00-0000000');
    expect(pdf.text).toContain('Ottilie Q Quarrington');
    expect(pdf.text).toContain('12 Elm Row');
    expect(pdf.text).toContain('Albany, NY 12207');
    expect(pdf.text).toContain('***-**-9999');
    expect(pdf.text).toContain('1 Interest income');
    expect(pdf.text).toContain(
      `$${Number(json.box1InterestIncome).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    for (const line of json.accounts) expect(pdf.text).toContain(`ending ${line.accountNumberLast4}`);
    expect(pdf.text).toContain('Not included in box 1 (not in US dollars)');
    expect(pdf.text).not.toContain('NOT FINAL');
    const current = await pdfOf(formPath(alice, year + 1));
    expect(current.text).toContain('NOT FINAL');
    expect(current.text).toContain('Not reportable: below the $10.00 reporting threshold');
  });

  it('the canary SSN is in no answer, PDF, log line or error; the last four are', async () => {
    const answers = [
      (await service.call('GET', formPath(alice, year))).text,
      (await service.call('GET', formPath(alice, year + 2))).text,
      (await service.call('GET', formPath(alice, 'nope'))).text,
      (
        await graphql(
          service,
          `query($id: ID!) { customer(customerId: $id) { taxForm1099Int(year: ${year}) { ${FORM_FIELDS} } } }`,
          {
            id: alice,
          },
        )
      ).text,
    ];
    const pdf = await pdfOf(formPath(alice, year));
    for (const haystack of [...answers, pdf.text, pdf.text.replace(/\D/g, ''), pdf.raw, service.logLines.join('\n')]) {
      expect(haystack).not.toContain(CANARY_SSN);
      expect(haystack).not.toContain(CANARY_DIGITS);
    }
    expect(answers[0]).toContain('"tinLastFour":"9999"');
  });

  it('needs tax-forms:read alone, and every read is audited', async () => {
    const reader = (
      await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['tax-forms:read'] })
    ).token;
    const others = (
      await issueApiToken(service.database.pool, {
        environments: ['sandbox'],
        scopes: ['customers:read', 'accounts:read'],
      })
    ).token;
    const refused = await service.call('GET', formPath(alice, year), {
      auth: false,
      headers: { authorization: `Bearer ${others}` },
    });
    expectFailure(refused, 'customer', 403, 'FORBIDDEN');
    expect(refused.json.error.message).toContain('tax-forms:read');
    const before = await service.database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.tax_form.read' AND resource_id = $1",
      [alice],
    );
    const served = await service.call('GET', formPath(alice, year), {
      auth: false,
      headers: { authorization: `Bearer ${reader}` },
    });
    expectSuccess(served, 'customer', 200);
    const { rows } = await service.database.pool.query<{ principal: string; n: number }>(
      `SELECT max(principal_id) FILTER (WHERE request_id = $2) AS principal, count(*)::int AS n FROM audit_events
        WHERE operation = 'customer.tax_form.read' AND resource_id = $1 AND resource_type = 'customer'`,
      [alice, served.headers.get('x-request-id')],
    );
    expect(rows[0]!.n).toBe(before.rows[0]!.n + 1);
    expect(rows[0]!.principal).toMatch(/^token:/);
  });
});

describe('GraphQL Customer.taxForm1099Int(year)', () => {
  it("answers REST's JSON shape; FORBIDDEN (the field null) without tax-forms:read", async () => {
    const rest = (await service.call('GET', formPath(alice, year))).json.data;
    const gql = await graphql(
      service,
      `query($id: ID!, $year: Int!) { customer(customerId: $id) { taxForm1099Int(year: $year) { ${FORM_FIELDS} } } }`,
      { id: alice, year },
    );
    expect(gql.json.errors).toBeUndefined();
    expect({ ...gql.json.data.customer.taxForm1099Int, asOf: rest.asOf }).toEqual(rest);

    const bad = await graphql(
      service,
      `
        query ($id: ID!) {
          customer(customerId: $id) {
            customerId
            taxForm1099Int(year: 1999) {
              taxYear
            }
          }
        }
      `,
      { id: alice },
    );
    expect(bad.json.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(bad.json.data.customer).toEqual({ customerId: alice, taxForm1099Int: null });

    const customersOnly = (
      await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['customers:read'] })
    ).token;
    const refused = await service.call('POST', '/sandbox/graphql', {
      auth: false,
      headers: { authorization: `Bearer ${customersOnly}` },
      body: {
        query: `query($id: ID!) { customer(customerId: $id) { customerId taxForm1099Int(year: ${year}) { taxYear } } }`,
        variables: { id: alice },
      },
    });
    expect(refused.json.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    expect(refused.json.data.customer).toEqual({ customerId: alice, taxForm1099Int: null });
  });
});
