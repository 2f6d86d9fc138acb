import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, expectFailure, expectSuccess, exportedLedgerLines, sidesOf } from '../../rest/helpers.js';
import { graphql } from '../../graphql/helpers.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * An account's interest over REST and GraphQL (docs/products.md#interest): after a sandbox's advance across a month
 * end, `GET …/account/{id}/interest` and `Account.interest` answer the same figures, read back from the accrual and
 * posting tables here; an unknown account is ACCOUNT_NOT_FOUND, one on no interest product INTEREST_NOT_APPLICABLE
 * (GraphQL: null).
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const FIELDS =
  'productCode annualRate annualPercentageYield accruedUnpaid lastAccrualDate lastPostingDate paidYearToDate';

async function openAccount(productCode?: string): Promise<string> {
  const { customerId } = await createCustomer(service);
  const body = {
    associatedCustomerIds: [customerId],
    name: 'Savings',
    currency: 'USD',
    type: 'SAVINGS',
    ...(productCode && { productCode }),
  };
  const res = await service.call('POST', '/sandbox/account', { body });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

describe("an account's interest", () => {
  it('REST and GraphQL answer what the end of day accrued and posted', async () => {
    const product = {
      code: 'READ_SAVINGS',
      name: 'Read savings',
      accountType: 'SAVINGS',
      currency: 'USD',
      interest: {
        tiers: [
          { minimumBalance: '0', annualRate: '0.01' },
          { minimumBalance: '5000', annualRate: '0.0425' },
        ],
        dayCount: 'ACTUAL_365',
        balanceBasis: 'END_OF_DAY',
        compounding: 'DAILY',
        posting: 'MONTHLY',
      },
    };
    expectSuccess(await service.call('POST', '/sandbox/product', { body: product }), 'account', 201);
    const accountId = await openAccount('READ_SAVINGS');
    const plain = await openAccount();
    expectSuccess(
      await service.call('POST', `/sandbox/account/${accountId}/transaction`, {
        body: { type: 'CREDIT', amount: 10000 },
      }),
      'account',
      201,
    );
    // 40 days always cross a month's end.
    expectSuccess(await service.call('POST', '/sandbox/clock/advance', { body: { days: 40 } }), 'customer', 200);

    const res = await service.call('GET', `/sandbox/account/${accountId}/interest`);
    expectSuccess(res, 'account', 200);
    expect(typeof res.json.logRefId).toBe('string');
    const { rows } = await service.database.pool.query<Record<string, string>>(
      `WITH last AS (SELECT period_end, residue FROM interest_postings WHERE account_id = $1 ORDER BY period_end DESC LIMIT 1)
       SELECT (SELECT to_char(max(business_date), 'YYYY-MM-DD') FROM interest_accruals WHERE account_id = $1) AS "lastAccrualDate",
              (SELECT to_char(period_end, 'YYYY-MM-DD') FROM last) AS "lastPostingDate",
              trim_scale((SELECT residue FROM last) + (SELECT sum(amount) FROM interest_accruals
                WHERE account_id = $1 AND business_date > (SELECT period_end FROM last)))::text AS "accruedUnpaid",
              (SELECT trim_scale(sum(posted))::text FROM interest_postings WHERE account_id = $1) AS posted,
              -- The business date is the day after the last one closed; its year's postings.
              (SELECT trim_scale(coalesce(sum(posted), 0))::text FROM interest_postings WHERE account_id = $1
                AND period_end >= date_trunc('year', (SELECT max(business_date) + 1 FROM interest_accruals WHERE account_id = $1))) AS "paidYearToDate"`,
      [accountId],
    );
    const expected = rows[0]!;
    expect(expected.lastPostingDate).not.toBeNull();
    const answer = {
      productCode: 'READ_SAVINGS',
      // 10,000 and its interest: the whole balance at the 5,000 tier's rate.
      annualRate: '0.0425',
      // (1 + 0.0425/365)^365 - 1 = 0.043413…
      annualPercentageYield: '0.0434',
      accruedUnpaid: expected.accruedUnpaid,
      lastAccrualDate: expected.lastAccrualDate,
      lastPostingDate: expected.lastPostingDate,
      paidYearToDate: expected.paidYearToDate,
    };
    expect(res.json.data).toEqual(answer);
    // The posted interest is in the balance.
    const account = await service.call('GET', `/sandbox/account/${accountId}`);
    expect(account.json.data.amount).toBeCloseTo(10000 + Number(expected.posted), 6);
    // The ledger export names the bank's side of each interest credit: the interest-expense account.
    const { rows: interestCredits } = await service.database.pool.query<{ posting_id: string }>(
      'SELECT e.posting_id FROM interest_postings x JOIN ledger_entries e ON e.id = x.transaction_id WHERE x.account_id = $1',
      [accountId],
    );
    expect(interestCredits.length).toBeGreaterThan(0);
    const lines = await exportedLedgerLines(service);
    for (const { posting_id: postingId } of interestCredits)
      expect(sidesOf(lines, postingId)).toEqual(['CUSTOMER CREDIT', 'INTEREST_EXPENSE DEBIT']);

    const gql = await graphql(
      service,
      `query($id: ID!, $plain: ID!) { account(accountId: $id) { interest { ${FIELDS} } }
         plain: account(accountId: $plain) { accountId interest { ${FIELDS} } } }`,
      { id: accountId, plain },
    );
    expect(gql.json.errors).toBeUndefined();
    expect(gql.json.data.account.interest).toEqual(answer);
    expect(gql.json.data.plain).toEqual({ accountId: plain, interest: null });
  });

  it('an unknown account is ACCOUNT_NOT_FOUND; one on no interest product INTEREST_NOT_APPLICABLE', async () => {
    expectFailure(
      await service.call('GET', '/sandbox/account/00000000-0000-4000-8000-000000000000/interest'),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expectFailure(
      await service.call('GET', '/sandbox/account/not-an-id/interest'),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
    const plain = await openAccount();
    expectFailure(
      await service.call('GET', `/sandbox/account/${plain}/interest`),
      'account',
      422,
      'INTEREST_NOT_APPLICABLE',
    );
  });
  it("reads the interest of a customer's accounts in one statement, however many accounts (no N+1)", async () => {
    const product = {
      code: 'LOADER_SAVINGS',
      name: 'Loader savings',
      accountType: 'SAVINGS',
      currency: 'USD',
      interest: {
        annualRate: '0.02',
        dayCount: 'ACTUAL_365',
        balanceBasis: 'END_OF_DAY',
        compounding: 'DAILY',
        posting: 'MONTHLY',
      },
    };
    expectSuccess(await service.call('POST', '/sandbox/product', { body: product }), 'account', 201);
    const NESTED = 'query($id: ID!) { customer(customerId: $id) { accounts { name interest { annualRate } } } }';
    const statementsFor = async (onProduct: number) => {
      const { customerId } = await createCustomer(service);
      const open = async (name: string, productCode?: string) =>
        expectSuccess(
          await service.call('POST', '/sandbox/account', {
            body: {
              associatedCustomerIds: [customerId],
              name,
              currency: 'USD',
              type: 'SAVINGS',
              ...(productCode && { productCode }),
            },
          }),
          'account',
          201,
        );
      for (let i = 0; i < onProduct; i++) await open(`Savings ${i}`, 'LOADER_SAVINGS');
      await open('Plain');
      service.statements.count = 0;
      const read = await graphql(service, NESTED, { id: customerId });
      const statements = service.statements.count;
      expect(read.json.errors, read.text).toBeUndefined();
      const byName = Object.fromEntries(
        read.json.data.customer.accounts.map((account: { name: string; interest: unknown }) => [
          account.name,
          account.interest,
        ]),
      );
      expect(byName).toEqual({
        Plain: null,
        ...Object.fromEntries(Array.from({ length: onProduct }, (_, i) => [`Savings ${i}`, { annualRate: '0.02' }])),
      });
      return statements;
    };
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });
});
