import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * The transaction list's filters (issue 30): status, type, from/to (creation, from inclusive, to exclusive),
 * minAmount/maxAmount (the answered amount, exact in the account's currency) and externalId, combined, paged,
 * validated strictly (an unknown parameter is refused), through REST and GraphQL's Account.transactions(filter).
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

async function newAccount(currency = 'USD'): Promise<string> {
  const { customerId } = await createCustomer(service);
  const res = await service.call('POST', '/sandbox/account', {
    body: { associatedCustomerIds: [customerId], name: 'Filters', currency, type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

async function post(
  accountId: string,
  body: Record<string, unknown>,
): Promise<{ transactionId: string; createdAt: string }> {
  const res = await service.call('POST', `/sandbox/account/${accountId}/transaction`, { body });
  expectSuccess(res, 'account', 201);
  return res.json.data;
}

const list = (accountId: string, query: string) =>
  service.call('GET', `/sandbox/account/${accountId}/transaction?${query}`);
const ids = (res: { json: { data: { transactions: { transactionId: string }[] } } }) =>
  res.json.data.transactions.map((t) => t.transactionId);

/** One account with: a deposit of 100, withdrawals of 10 and 25.5, a pending hold of 5, a voided hold of 7, a deposit of 0.99 with an externalId. */
let accountId: string;
let t: Record<'deposit' | 'small' | 'mid' | 'held' | 'voided' | 'cents', string>;
let middle: string;
beforeAll(async () => {
  accountId = await newAccount();
  const deposit = await post(accountId, { type: 'CREDIT', amount: 100 });
  const small = await post(accountId, { type: 'DEBIT', amount: 10 });
  const mid = await post(accountId, { type: 'DEBIT', amount: 25.5 });
  const held = await post(accountId, { type: 'DEBIT', amount: 5, hold: true });
  const voided = await post(accountId, { type: 'DEBIT', amount: 7, hold: true });
  expectSuccess(
    await service.call('POST', `/sandbox/account/${accountId}/transaction/${voided.transactionId}/void`),
    'account',
    200,
  );
  const cents = await post(accountId, { type: 'CREDIT', amount: 0.99, externalId: 'invoice-0099' });
  t = {
    deposit: deposit.transactionId,
    small: small.transactionId,
    mid: mid.transactionId,
    held: held.transactionId,
    voided: voided.transactionId,
    cents: cents.transactionId,
  };
  middle = mid.createdAt;
});

describe('REST transaction list filters', () => {
  it('filters by status, type, amount range, externalId and creation instants, each newest first', async () => {
    expect(ids(await list(accountId, 'status=PENDING'))).toEqual([t.held]);
    expect(ids(await list(accountId, 'status=VOIDED'))).toEqual([t.voided]);
    expect(ids(await list(accountId, 'type=CREDIT'))).toEqual([t.cents, t.deposit]);
    expect(ids(await list(accountId, 'minAmount=10&maxAmount=25.5'))).toEqual([t.mid, t.small]);
    expect(ids(await list(accountId, 'minAmount=25.51'))).toEqual([t.deposit]);
    expect(ids(await list(accountId, 'maxAmount=0.99'))).toEqual([t.cents]);
    expect(ids(await list(accountId, 'externalId=invoice-0099'))).toEqual([t.cents]);
    expect(ids(await list(accountId, 'externalId=invoice-0098'))).toEqual([]);
    // from is inclusive, to exclusive: the transaction made at `middle` is in the first page and not in the second.
    const from = ids(await list(accountId, `from=${encodeURIComponent(middle)}`));
    const to = ids(await list(accountId, `to=${encodeURIComponent(middle)}`));
    expect(from).toContain(t.mid);
    expect(to).not.toContain(t.mid);
    expect([...from, ...to].sort()).toEqual(Object.values(t).sort());
    expect(ids(await list(accountId, 'from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z'))).toEqual([]);
  });

  it('combines filters (all must hold) and pages through the matches with limit and after', async () => {
    expect(ids(await list(accountId, 'type=DEBIT&status=POSTED'))).toEqual([t.mid, t.small]);
    expect(ids(await list(accountId, 'type=DEBIT&status=POSTED&minAmount=20'))).toEqual([t.mid]);
    expect(ids(await list(accountId, 'type=CREDIT&externalId=invoice-0099&status=PENDING'))).toEqual([]);
    const first = await list(accountId, 'type=DEBIT&limit=2');
    expect(ids(first)).toEqual([t.voided, t.held]);
    expect(first.json.data.nextAfter).toBe(t.held);
    const second = await list(accountId, `type=DEBIT&limit=2&after=${t.held}`);
    expect(ids(second)).toEqual([t.mid, t.small]);
    expect(second.json.data.nextAfter).toBeNull();
  });

  it('refuses bad values and unknown parameters with 400 VALIDATION_FAILED, a detail per problem', async () => {
    const cases: [string, string, string][] = [
      ['status=DONE', 'status', 'INVALID_VALUE'],
      ['type=credit', 'type', 'INVALID_VALUE'],
      ['from=yesterday', 'from', 'INVALID_FORMAT'],
      ['to=2026-12-01', 'to', 'INVALID_FORMAT'],
      ['minAmount=abc', 'minAmount', 'INVALID_FORMAT'],
      ['minAmount=1.001', 'minAmount', 'TOO_PRECISE'],
      ['maxAmount=0', 'maxAmount', 'OUT_OF_RANGE'],
      ['maxAmount=-3', 'maxAmount', 'INVALID_FORMAT'],
      ['minAmount=10&maxAmount=5', 'maxAmount', 'OUT_OF_RANGE'],
      ['externalId=', 'externalId', 'TOO_SHORT'],
      ['limit=0', 'limit', 'INVALID_VALUE'],
      ['color=red', 'color', 'UNKNOWN_FIELD'],
    ];
    for (const [query, field, code] of cases) {
      const res = await list(accountId, query);
      expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details, query).toEqual([{ field, code, message: expect.any(String) }]);
    }
    const jpy = await newAccount('JPY');
    const res = await list(jpy, 'minAmount=1.5');
    expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details).toEqual([
      { field: 'minAmount', code: 'TOO_PRECISE', message: 'Must be a whole number: JPY has no minor unit.' },
    ]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});

describe('the cost of a page', () => {
  it('is the same number of statements for a page of 1 and a page of 100, filtered or not', async () => {
    const statementsFor = async (query: string) => {
      service.statements.count = 0;
      const res = await list(accountId, query);
      const statements = service.statements.count;
      expectSuccess(res, 'account', 200);
      return { statements, size: res.json.data.transactions.length as number };
    };
    const one = await statementsFor('type=DEBIT&minAmount=1&limit=1');
    const all = await statementsFor('type=DEBIT&minAmount=1&limit=100');
    expect([one.size, all.size]).toEqual([1, 4]);
    expect(all.statements).toBe(one.statements);
    expect((await statementsFor('limit=100')).statements).toBe(one.statements);
  });
});

describe('GraphQL Account.transactions(filter)', () => {
  const TRANSACTIONS = `query($id: ID!, $filter: TransactionFilter, $first: Int, $after: String) {
    account(accountId: $id) { transactions(first: $first, after: $after, filter: $filter) { nodes { transactionId } pageInfo { hasNextPage endCursor } } }
  }`;
  const nodes = (result: { json: { data: { account: { transactions: { nodes: { transactionId: string }[] } } } } }) =>
    result.json.data.account.transactions.nodes.map((node) => node.transactionId);

  it('takes the same filters as REST, combined and paged', async () => {
    const run = (filter: Record<string, unknown>, first?: number, after?: string) =>
      graphql(service, TRANSACTIONS, { id: accountId, filter, first, after });
    expect(nodes(await run({ status: 'PENDING' }))).toEqual([t.held]);
    expect(nodes(await run({ type: 'DEBIT', status: 'POSTED', minAmount: '20' }))).toEqual([t.mid]);
    expect(nodes(await run({ maxAmount: '10', type: 'DEBIT' }))).toEqual([t.voided, t.held, t.small]);
    expect(nodes(await run({ externalId: 'invoice-0099' }))).toEqual([t.cents]);
    expect(nodes(await run({ to: middle }))).not.toContain(t.mid);
    // A filtered first page is the ledger's, not the account's newest transactions.
    const page = await run({ type: 'DEBIT' }, 2);
    expect(nodes(page)).toEqual([t.voided, t.held]);
    const next = await run({ type: 'DEBIT' }, 2, page.json.data.account.transactions.pageInfo.endCursor);
    expect(nodes(next)).toEqual([t.mid, t.small]);
    expect(next.json.data.account.transactions.pageInfo.hasNextPage).toBe(false);
    // Null filters are absent ones.
    expect(nodes(await run({ status: null, type: 'CREDIT' }))).toEqual([t.cents, t.deposit]);
  });

  it('refuses invalid filters with VALIDATION_FAILED and the same details', async () => {
    const result = await graphql(service, TRANSACTIONS, {
      id: accountId,
      filter: { minAmount: '1.001', from: 'yesterday' },
    });
    expect(errorCodes(result)).toEqual(['VALIDATION_FAILED']);
    const details = (result.json.errors[0].extensions.details as { field: string; code: string }[]).map(
      ({ field, code }) => ({ field, code }),
    );
    expect(details).toEqual([{ field: 'from', code: 'INVALID_FORMAT' }]);
    const precise = await graphql(service, TRANSACTIONS, { id: accountId, filter: { minAmount: '1.001' } });
    expect(
      (precise.json.errors[0].extensions.details as { field: string; code: string }[]).map(({ field, code }) => ({
        field,
        code,
      })),
    ).toEqual([{ field: 'minAmount', code: 'TOO_PRECISE' }]);
  });
});
