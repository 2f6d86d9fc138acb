import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * Accounts close and reopen, customers archive, over GraphQL (docs/adr/0106): the mutations with REST's rules, codes
 * and scopes (one service), `Account.status`/`closedAt`/`closeReason`, `Customer.status`/`archivedAt`/`archiveReason`,
 * and `customers(filter: {status})`. ACCOUNT_REOPEN_WINDOW_DAYS=1 here, the sandbox's clock advanced for the window.
 */

let service: TestService;
const tokens = { noControls: '', noCustomersWrite: '' };
beforeAll(async () => {
  service = await startTestService({
    ACCOUNT_REOPEN_WINDOW_DAYS: '1',
    END_OF_DAY_INTERVAL_MS: '3600000',
    HOLD_EXPIRY_INTERVAL_MS: '3600000',
    FLAG_EXPIRY_INTERVAL_MS: '3600000',
  });
  const { pool } = service.database;
  const reads = ['customers:read', 'accounts:read'] as const;
  tokens.noControls = (
    await issueApiToken(pool, { environments: ['*'], scopes: [...reads, 'accounts:write', 'customers:write'] })
  ).token;
  tokens.noCustomersWrite = (
    await issueApiToken(pool, { environments: ['*'], scopes: [...reads, 'accounts:controls'] })
  ).token;
});
afterAll(() => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });
const STATUS = 'accountId amount status closedAt closeReason';
const CLOSE = `mutation($id: ID!, $reason: AccountCloseReason!, $to: ID) { closeAccount(accountId: $id, reason: $reason, disbursementAccountId: $to) { ${STATUS} } }`;
const REOPEN = `mutation($id: ID!) { reopenAccount(accountId: $id) { ${STATUS} } }`;
const ARCHIVE = `mutation($id: ID!, $reason: CustomerArchiveReason!) { archiveCustomer(customerId: $id, reason: $reason) { customerId status archivedAt archiveReason } }`;
const ACCOUNT = `query($id: ID!) { account(accountId: $id) { ${STATUS} customers { customerId status } } }`;
const CUSTOMERS = `query($name: String!, $status: CustomerStatus) { customers(filter: { lastName: $name, status: $status }) { nodes { customerId status } } }`;

function data(result: CallResult) {
  expect(result.status).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return result.json.data;
}

const newCustomer = (lastName?: string) =>
  createCustomer(service, buildCustomerInput(lastName === undefined ? {} : { lastName }));
const newAccount = async (customerId?: string, currency = 'USD') =>
  createAccount(service, { ...buildAccountInput([customerId ?? (await newCustomer())]), currency });
const deposit = async (accountId: string, amount: string) =>
  data(
    await graphql(
      service,
      'mutation($id: ID!, $amount: Decimal!) { postTransaction(accountId: $id, input: { type: CREDIT, amount: $amount }) { transactionId } }',
      { id: accountId, amount },
    ),
  );

/** A refused mutation: its code, and nothing written. */
async function expectRefused(request: () => Promise<CallResult>, code: string): Promise<void> {
  const result = await expectNoChange(service.database.pool, request);
  expect(errorCodes(result), result.text).toEqual([code]);
}

describe('closeAccount / reopenAccount', () => {
  it('an open account reads OPEN; closing with a disbursement moves the balance and reads CLOSED', async () => {
    const from = await newAccount();
    const to = await newAccount();
    await deposit(from, '70.25');
    expect(data(await graphql(service, ACCOUNT, { id: from })).account).toMatchObject({
      status: 'OPEN',
      closedAt: null,
      closeReason: null,
    });
    const closed = data(await graphql(service, CLOSE, { id: from, reason: 'CUSTOMER_REQUEST', to })).closeAccount;
    expect(closed).toMatchObject({ accountId: from, amount: '0', status: 'CLOSED', closeReason: 'CUSTOMER_REQUEST' });
    expect(typeof closed.closedAt).toBe('string');
    expect(data(await graphql(service, ACCOUNT, { id: to })).account.amount).toBe('70.25');
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    // REST reads the same account the same way.
    const rest = await service.call('GET', `/sandbox/account/${from}`);
    expect(rest.json.data).toMatchObject({
      status: 'CLOSED',
      closedAt: closed.closedAt,
      closeReason: 'CUSTOMER_REQUEST',
    });
  });

  it("refuses with REST's codes, writing nothing", async () => {
    const funded = await newAccount();
    await deposit(funded, '5');
    await expectRefused(() => graphql(service, CLOSE, { id: funded, reason: 'OTHER' }), 'ACCOUNT_BALANCE_NOT_ZERO');
    const euros = await newAccount(undefined, 'EUR');
    await expectRefused(() => graphql(service, CLOSE, { id: funded, reason: 'OTHER', to: euros }), 'CURRENCY_MISMATCH');
    const empty = await newAccount();
    data(await graphql(service, CLOSE, { id: empty, reason: 'OTHER' }));
    await expectRefused(() => graphql(service, CLOSE, { id: empty, reason: 'OTHER' }), 'ACCOUNT_CLOSED');
    await expectRefused(
      () =>
        graphql(
          service,
          'mutation($id: ID!) { postTransaction(accountId: $id, input: { type: CREDIT, amount: "1" }) { transactionId } }',
          { id: empty },
        ),
      'ACCOUNT_CLOSED',
    );
  });

  it('reopens inside the window, not outside it', async () => {
    const accountId = await newAccount();
    data(await graphql(service, CLOSE, { id: accountId, reason: 'OTHER' }));
    expect(data(await graphql(service, REOPEN, { id: accountId })).reopenAccount).toMatchObject({
      status: 'OPEN',
      closedAt: null,
      closeReason: null,
    });
    await expectRefused(() => graphql(service, REOPEN, { id: accountId }), 'ACCOUNT_NOT_CLOSED');
    data(await graphql(service, CLOSE, { id: accountId, reason: 'DORMANCY' }));
    data(await graphql(service, 'mutation { advanceClock(days: 2) { to } }'));
    await expectRefused(() => graphql(service, REOPEN, { id: accountId }), 'ACCOUNT_REOPEN_WINDOW_PASSED');
  });
});

describe('archiveCustomer', () => {
  it('refuses while an account is open; archived, it is left out of customers unless status ARCHIVED', async () => {
    const lastName = `Graphql${Date.now()}`;
    const customerId = await newCustomer(lastName);
    const accountId = await newAccount(customerId);
    await expectRefused(
      () => graphql(service, ARCHIVE, { id: customerId, reason: 'CUSTOMER_REQUEST' }),
      'CUSTOMER_HAS_OPEN_ACCOUNTS',
    );
    data(await graphql(service, CLOSE, { id: accountId, reason: 'CUSTOMER_REQUEST' }));
    const archived = data(await graphql(service, ARCHIVE, { id: customerId, reason: 'DECEASED' })).archiveCustomer;
    expect(archived).toMatchObject({ customerId, status: 'ARCHIVED', archiveReason: 'DECEASED' });
    expect(typeof archived.archivedAt).toBe('string');
    const listed = async (status?: string) =>
      (
        data(await graphql(service, CUSTOMERS, { name: lastName, ...(status && { status }) })).customers.nodes as {
          customerId: string;
        }[]
      ).map((node) => node.customerId);
    expect(await listed()).toEqual([]);
    expect(await listed('ARCHIVED')).toEqual([customerId]);
    expect(data(await graphql(service, ACCOUNT, { id: accountId })).account.customers).toEqual([
      { customerId, status: 'ARCHIVED' },
    ]);
    await expectRefused(() => graphql(service, REOPEN, { id: accountId }), 'CUSTOMER_ARCHIVED');
    await expectRefused(
      () =>
        graphql(service, 'mutation($input: CreateAccountInput!) { createAccount(input: $input) { accountId } }', {
          input: buildAccountInput([customerId]),
        }),
      'CUSTOMER_ARCHIVED',
    );
  });
});

describe('scopes', () => {
  it('closeAccount and reopenAccount need accounts:controls, archiveCustomer customers:write', async () => {
    const customerId = await newCustomer();
    const accountId = await newAccount(customerId);
    await expectRefused(
      () => graphql(service, CLOSE, { id: accountId, reason: 'OTHER' }, as(tokens.noControls)),
      'FORBIDDEN',
    );
    data(await graphql(service, CLOSE, { id: accountId, reason: 'OTHER' }, as(tokens.noCustomersWrite)));
    await expectRefused(() => graphql(service, REOPEN, { id: accountId }, as(tokens.noControls)), 'FORBIDDEN');
    await expectRefused(
      () => graphql(service, ARCHIVE, { id: customerId, reason: 'OTHER' }, as(tokens.noCustomersWrite)),
      'FORBIDDEN',
    );
    data(await graphql(service, ARCHIVE, { id: customerId, reason: 'OTHER' }, as(tokens.noControls)));
  });
});
