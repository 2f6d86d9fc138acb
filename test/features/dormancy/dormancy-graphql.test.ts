import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * Dormancy over GraphQL (docs/dormancy-and-escheatment.md, docs/adr/0109): `Account.status` INACTIVE / DORMANT,
 * `reactivateAccount` and `escheatment` with REST's rules, codes and scopes, and the end of day's escheatment notice
 * (`account.escheatment_due` once per period of inactivity). Short thresholds here: INACTIVE after 1 day, DORMANT
 * after 2, a notice window of 730 days (so New York's three years fall due within a year of advancing).
 */

let service: TestService;
let noControls = '';
let noCustomersRead = '';
beforeAll(async () => {
  service = await startTestService({
    INACTIVE_AFTER_DAYS: '1',
    DORMANT_AFTER_DAYS: '2',
    ESCHEATMENT_NOTICE_DAYS: '730',
    END_OF_DAY_INTERVAL_MS: '3600000',
    HOLD_EXPIRY_INTERVAL_MS: '3600000',
    FLAG_EXPIRY_INTERVAL_MS: '3600000',
  });
  const { pool } = service.database;
  noControls = (
    await issueApiToken(pool, {
      environments: ['*'],
      scopes: ['customers:read', 'accounts:read', 'accounts:write', 'transactions:write'],
    })
  ).token;
  noCustomersRead = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:read'] })).token;
});
afterAll(() => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });
const STATUS = `query($id: ID!) { account(accountId: $id) { accountId amount status } }`;
const REACTIVATE = `mutation($id: ID!) { reactivateAccount(accountId: $id) { accountId status amount } }`;
const POST = `mutation($id: ID!, $type: TransactionType!, $amount: Decimal!) { postTransaction(accountId: $id, input: { type: $type, amount: $amount }) { transactionId } }`;
const TRANSFER = `mutation($from: ID!, $to: ID!, $amount: Decimal!) { transfer(input: { fromAccountId: $from, toAccountId: $to, amount: $amount }) { transferId } }`;
const ESCHEATMENT = `query($asOf: String, $state: String, $first: Int, $after: String) {
  escheatment(asOf: $asOf, state: $state, first: $first, after: $after) {
    accounts { accountId currency balance status state lastActivityAt dueDate owners { customerId name } }
    pageInfo { hasNextPage endCursor }
  } }`;

function data(result: CallResult) {
  expect(result.status).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return result.json.data;
}
async function expectRefused(request: () => Promise<CallResult>, code: string): Promise<void> {
  const result = await expectNoChange(service.database.pool, request);
  expect(errorCodes(result), result.text).toEqual([code]);
}

const newAccount = async (state: string) => {
  const customerId = await createCustomer(
    service,
    buildCustomerInput({ addresses: [{ type: 'HOME', street: '1 Main St', city: 'Town', state, zip: '10001' }] }),
  );
  return createAccount(service, buildAccountInput([customerId]));
};
const statusOf = async (id: string) => data(await graphql(service, STATUS, { id })).account.status as string;
const advance = async (days: number) =>
  data(await graphql(service, 'mutation($days: Int!) { advanceClock(days: $days) { to } }', { days }));
const businessDate = async () =>
  data(await graphql(service, '{ clock { businessDate } }')).clock.businessDate as string;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('dormancy over GraphQL', () => {
  let dormant = '';
  let woken = '';
  let used = '';

  it('Account.status reads INACTIVE, then DORMANT; a dormant account refuses debits with ACCOUNT_DORMANT', async () => {
    dormant = await newAccount('NY');
    woken = await newAccount('NY');
    used = await newAccount('CA');
    for (const id of [dormant, woken, used]) data(await graphql(service, POST, { id, type: 'CREDIT', amount: '100' }));
    expect(await statusOf(dormant)).toBe('OPEN');
    await advance(2);
    expect(await statusOf(dormant)).toBe('INACTIVE');
    // Any customer activity makes an INACTIVE account OPEN again: a withdrawal too.
    data(await graphql(service, POST, { id: used, type: 'DEBIT', amount: '1' }));
    expect(await statusOf(used)).toBe('OPEN');
    await advance(1);
    expect(await statusOf(dormant)).toBe('DORMANT');

    await expectRefused(() => graphql(service, POST, { id: dormant, type: 'DEBIT', amount: '10' }), 'ACCOUNT_DORMANT');
    await expectRefused(() => graphql(service, TRANSFER, { from: dormant, to: used, amount: '10' }), 'ACCOUNT_DORMANT');
    // A customer's deposit wakes an account: OPEN, and its debits pass.
    data(await graphql(service, POST, { id: woken, type: 'CREDIT', amount: '5' }));
    expect(await statusOf(woken)).toBe('OPEN');
    data(await graphql(service, POST, { id: woken, type: 'DEBIT', amount: '5' }));
  });

  it('reactivateAccount needs accounts:controls and refuses with REST codes, writing nothing', async () => {
    await expectRefused(() => graphql(service, REACTIVATE, { id: dormant }, as(noControls)), 'FORBIDDEN');
    await expectRefused(() => graphql(service, REACTIVATE, { id: used }), 'ACCOUNT_NOT_DORMANT');
    await expectRefused(
      () => graphql(service, REACTIVATE, { id: '00000000-0000-4000-8000-000000000000' }),
      'ACCOUNT_NOT_FOUND',
    );
    expect(data(await graphql(service, REACTIVATE, { id: dormant })).reactivateAccount).toEqual({
      accountId: dormant,
      status: 'OPEN',
      amount: '100',
    });
    const audit = await service.database.pool.query(
      "SELECT 1 FROM audit_events WHERE operation = 'account.reactivate' AND resource_id = $1",
      [dormant],
    );
    expect(audit.rows).toHaveLength(1);
    data(await graphql(service, POST, { id: dormant, type: 'DEBIT', amount: '10' }));
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('escheatment lists by state and asOf, a page at a time, names only with customers:read', async () => {
    const today = await businessDate();
    // New York's three years minus the 730-day window: due from about a year after the last activity.
    expect(data(await graphql(service, ESCHEATMENT, { state: 'NY' })).escheatment.accounts).toEqual([]);
    const asOf = addDays(today, 400);
    const first = data(await graphql(service, ESCHEATMENT, { state: 'NY', asOf, first: 1 })).escheatment;
    expect(first.accounts).toHaveLength(1);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(first.accounts[0]).toMatchObject({ currency: 'USD', state: 'NY', status: 'OPEN' });
    expect(first.accounts[0].owners).toEqual([{ customerId: expect.any(String), name: expect.any(String) }]);
    const rest = data(
      await graphql(service, ESCHEATMENT, { state: 'NY', asOf, first: 10, after: first.pageInfo.endCursor }),
    ).escheatment;
    const ids = [...first.accounts, ...rest.accounts].map((entry: { accountId: string }) => entry.accountId);
    expect(ids.sort()).toEqual([dormant, woken].sort());
    const anonymous = data(await graphql(service, ESCHEATMENT, { state: 'CA', asOf }, as(noCustomersRead)));
    expect(anonymous.escheatment.accounts.map((entry: { owners: unknown }) => entry.owners)).toEqual([
      [{ customerId: expect.any(String), name: null }],
    ]);
    expect(errorCodes(await graphql(service, ESCHEATMENT, { state: 'XX' }))).toEqual(['VALIDATION_FAILED']);
    expect(errorCodes(await graphql(service, ESCHEATMENT, { asOf: 'tomorrow' }))).toEqual(['VALIDATION_FAILED']);
  });

  it('the end of day emits account.escheatment_due once per account when its window starts', async () => {
    const notices = async () =>
      (
        await service.database.pool.query<{ resource_id: string; n: number }>(
          `SELECT resource_id, count(*)::int AS n FROM events WHERE type = 'account.escheatment_due' GROUP BY resource_id`,
        )
      ).rows;
    expect(await notices()).toEqual([]);
    await advance(370);
    const noticed = await notices();
    expect(noticed.map((row) => row.resource_id).sort()).toEqual([dormant, woken, used].sort());
    expect(noticed.every((row) => row.n === 1)).toBe(true);
    await advance(3);
    expect((await notices()).every((row) => row.n === 1)).toBe(true);
    const audit = await service.database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'account.escheatment_notice'",
    );
    expect(audit.rows[0]!.n).toBe(3);
  }, 60_000);
});
