import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from '../../graphql/helpers.js';
import { seedPostings } from '../../../scripts/history/seed-ledger.js';

/** Account.balance(asOf:), Account.balanceHistory and Account.statement over the same domain functions as REST (test/features/history/rest.test.ts). */
let service: TestService;
let accountId: string;
beforeAll(async () => {
  service = await startTestService();
  const customerId = await createCustomer(service, buildCustomerInput());
  accountId = await createAccount(service, buildAccountInput([customerId], { currency: 'DKK' }));
  await seedPostings(service.database.pool, {
    environment: 'sandbox',
    accountId,
    count: 30,
    from: new Date('2026-01-01T00:00:00Z'),
    to: new Date('2026-01-04T00:00:00Z'),
  });
});
afterAll(async () => service?.stop());

const HISTORY = `query History($id: ID!, $asOf: String, $from: String!, $to: String!) {
  account(accountId: $id) {
    now: balance { posted pending available }
    then: balance(asOf: $asOf) { posted pending available }
    balanceHistory(from: $from, to: $to, interval: DAY) { at posted }
    statement(from: $from, to: $to) { accountId currency from to asOfSequence openingBalance closingBalance totalCredits totalDebits entries { type amount balanceAfter sequence postedAt } }
  }
}`;

describe('history over GraphQL', () => {
  it('answers the same balances, points and statement as REST', async () => {
    const variables = {
      id: accountId,
      asOf: '2026-01-02T00:00:00Z',
      from: '2026-01-02T00:00:00Z',
      to: '2026-01-03T00:00:00Z',
    };
    const result = await graphql(service, HISTORY, variables);
    expect(result.json.errors).toBeUndefined();
    const account = result.json.data.account;
    expect(account.now).toEqual({ posted: '150', pending: '150', available: '150' });
    expect(account.then).toEqual({ posted: '65', pending: '65', available: '65' });
    expect(account.balanceHistory).toEqual([{ at: '2026-01-03T00:00:00.000Z', posted: '110' }]);
    const statement = account.statement;
    expect(statement).toMatchObject({
      accountId,
      currency: 'DKK',
      openingBalance: '55',
      closingBalance: '110',
      totalCredits: '70',
      totalDebits: '15',
    });
    expect(statement.entries).toHaveLength(10);
    expect(statement.asOfSequence).toBe(statement.entries.at(-1).sequence);

    const rest = await service.call(
      'GET',
      `/sandbox/account/${accountId}/statement?from=${variables.from}&to=${variables.to}`,
    );
    expect(rest.json.data).toMatchObject({
      openingBalance: 55,
      closingBalance: 110,
      asOfSequence: statement.asOfSequence,
    });
    expect(rest.json.data.entries.map((entry: { sequence: string }) => entry.sequence)).toEqual(
      statement.entries.map((entry: { sequence: string }) => entry.sequence),
    );
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('validates like REST: a malformed asOf, too many points, a reversed period', async () => {
    const bad = await graphql(
      service,
      'query($id: ID!) { account(accountId: $id) { balance(asOf: "yesterday") { posted } } }',
      { id: accountId },
    );
    expect(errorCodes(bad)).toEqual(['VALIDATION_FAILED']);
    const tooMany = await graphql(
      service,
      'query($id: ID!) { account(accountId: $id) { balanceHistory(from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z", interval: DAY) { at } } }',
      { id: accountId },
    );
    expect(errorCodes(tooMany)).toEqual(['VALIDATION_FAILED']);
    expect(tooMany.json.errors[0].extensions.details[0]).toMatchObject({ field: 'to', code: 'TOO_MANY_POINTS' });
    const reversed = await graphql(
      service,
      'query($id: ID!) { account(accountId: $id) { statement(from: "2026-01-03T00:00:00Z", to: "2026-01-02T00:00:00Z") { closingBalance } } }',
      { id: accountId },
    );
    expect(errorCodes(reversed)).toEqual(['VALIDATION_FAILED']);
  });

  it('counts a statement and a balance history in the cost estimate (at most 1000 entries or points each)', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['accounts:read'],
    });
    const many = `{ accounts(first: 20) { nodes { statement(from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z") { entries { amount } } } } }`;
    const refused = await graphql(service, many, undefined, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(400);
    expect(errorCodes(refused)).toEqual(['QUERY_TOO_COMPLEX']);
  });

  it('needs accounts:read, like the account itself', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['ledger:export'],
    });
    const result = await graphql(
      service,
      HISTORY,
      { id: accountId, from: '2026-01-02T00:00:00Z', to: '2026-01-03T00:00:00Z' },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(errorCodes(result)).toContain('FORBIDDEN');
  });
});
