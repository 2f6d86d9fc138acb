import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, errorCodes } from '../../graphql/helpers.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';

/**
 * Account and routing numbers over GraphQL (docs/adr/0107), through /graphql against the real database:
 * `Account.accountNumberLast4` (accounts:read) and `Account.accountNumbers` (accounts:numbers:read, audited per account,
 * batched), `addAccountNumber`, `updateAccountNumber` and `lookupAccountNumber` with REST's rules and codes, and the
 * look-up budget both surfaces spend.
 */

const LOOKUP_LIMIT = 6;
let service: TestService;
const tokens = { reader: '', numbersReader: '', both: '', controls: '', lookup: '', budget: '' };
const principals = { both: '', lookup: '' };

beforeAll(async () => {
  service = await startTestService({
    ROUTING_NUMBERS: 'production-like=021000021',
    ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE: String(LOOKUP_LIMIT),
  });
  const { pool } = service.database;
  const issue = (scopes: Parameters<typeof issueApiToken>[1]['scopes']) =>
    issueApiToken(pool, { environments: ['*'], scopes });
  tokens.reader = (await issue(['accounts:read', 'customers:read'])).token;
  tokens.numbersReader = (await issue(['accounts:numbers:read'])).token;
  const both = await issue(['accounts:read', 'customers:read', 'accounts:numbers:read']);
  tokens.both = both.token;
  principals.both = both.principalId;
  tokens.controls = (await issue(['accounts:controls'])).token;
  const lookup = await issue(['accounts:numbers:lookup']);
  tokens.lookup = lookup.token;
  principals.lookup = lookup.principalId;
  tokens.budget = (await issue(['accounts:numbers:lookup'])).token;
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ headers: bearer(token) });
const gql = (query: string, variables: Record<string, unknown>, token: string, environment = 'sandbox') =>
  graphql(service, query, variables, { ...as(token), environment });

function data(result: CallResult) {
  expect(result.status, result.text).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return result.json.data;
}

const NUMBER = 'id accountId accountNumber last4 routingNumber status inboundAchDebits createdAt updatedAt';
const MASKED = 'id accountId last4 routingNumber status inboundAchDebits createdAt updatedAt';
const ACCOUNT = `query($id: ID!) { account(accountId: $id) { accountId name accountNumberLast4 accountNumbers { ${NUMBER} } } }`;
const LAST4 = `query($id: ID!) { account(accountId: $id) { accountId name accountNumberLast4 } }`;
const CUSTOMER_ACCOUNTS = `query($id: ID!) { customer(customerId: $id) { customerId accounts { accountId accountNumberLast4 accountNumbers { ${NUMBER} } } } }`;
const ADD = `mutation($id: ID!, $debits: InboundAchDebits) { addAccountNumber(accountId: $id, inboundAchDebits: $debits) { ${MASKED} } }`;
const UPDATE = `mutation($id: ID!, $number: ID!, $status: AccountNumberStatus, $debits: InboundAchDebits) {
  updateAccountNumber(accountId: $id, accountNumberId: $number, status: $status, inboundAchDebits: $debits) { ${MASKED} } }`;
const LOOKUP = `mutation($input: AccountNumberLookupInput!) { lookupAccountNumber(input: $input) { accountId accountNumberId status inboundAchDebits } }`;

const newAccount = async (environment = 'sandbox') => {
  const { customerId } = await createCustomer(service, {}, environment);
  return (await createAccount(service, [customerId], environment)).accountId as string;
};
/** REST's full list (accounts:numbers:read). */
async function restList(accountId: string, environment = 'sandbox') {
  const res = await service.call('GET', `/${environment}/account/${accountId}/account-numbers`, {
    headers: bearer(tokens.numbersReader),
  });
  expectSuccess(res, 'account', 200);
  return res.json.data as {
    routingNumber: string;
    accountNumbers: { accountNumberId: string; accountNumber: string }[];
  };
}
const lookupRest = (body: unknown, token: string) =>
  service.call('POST', '/sandbox/account-numbers/lookup', { headers: bearer(token), body });

async function readAudits(accountId: string): Promise<{ principal_id: string }[]> {
  const { rows } = await service.database.pool.query(
    "SELECT principal_id FROM audit_events WHERE operation = 'account.account_number.read' AND resource_id = $1",
    [accountId],
  );
  return rows;
}

async function counts(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*)::text FROM account_numbers) AS numbers, (SELECT count(*)::text FROM audit_events) AS audit,
            (SELECT count(*)::text FROM events) AS events,
            (SELECT string_agg(id::text || status || inbound_ach_debits || updated_at::text, ',' ORDER BY id) FROM account_numbers) AS state`,
  );
  return rows[0]!;
}

describe('Account.accountNumberLast4 and Account.accountNumbers', () => {
  it("answers the last four under accounts:read: REST's list's, no audit", async () => {
    const accountId = await newAccount();
    const [number] = (await restList(accountId)).accountNumbers;
    const auditsBefore = (await readAudits(accountId)).length;
    const account = data(await gql(LAST4, { id: accountId }, tokens.reader)).account;
    expect(account.accountNumberLast4).toBe(number!.accountNumber.slice(-4));
    expect((await readAudits(accountId)).length).toBe(auditsBefore);
  });

  it('answers the full digits and routing number with accounts:numbers:read, one audit row per read', async () => {
    const accountId = await newAccount();
    const rest = await restList(accountId);
    const restAudits = (await readAudits(accountId)).length;
    const account = data(await gql(ACCOUNT, { id: accountId }, tokens.both)).account;
    expect(account.accountNumbers).toHaveLength(1);
    const [number] = account.accountNumbers;
    expect(number).toMatchObject({
      id: rest.accountNumbers[0]!.accountNumberId,
      accountId,
      accountNumber: rest.accountNumbers[0]!.accountNumber,
      last4: rest.accountNumbers[0]!.accountNumber.slice(-4),
      routingNumber: '011000015',
      status: 'ACTIVE',
      inboundAchDebits: 'ALLOWED',
    });
    expect(account.accountNumberLast4).toBe(number.last4);
    const audits = await readAudits(accountId);
    expect(audits).toHaveLength(restAudits + 1);
    expect(audits.at(-1)).toEqual({ principal_id: principals.both });
  });

  it("answers another environment's routing number there", async () => {
    const accountId = await newAccount('production-like');
    const account = data(await gql(ACCOUNT, { id: accountId }, tokens.both, 'production-like')).account;
    expect(account.accountNumbers[0].routingNumber).toBe('021000021');
  });

  it('batches the accounts of one response: one statement for the lists, one audit row per account', async () => {
    const { customerId } = await createCustomer(service);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createAccount(service, [customerId])).accountId);
    // A second number on one of them: its list answers both, and its read is still one audit row.
    data(await gql(ADD, { id: ids[1] }, tokens.controls));
    service.statements.names.length = 0;
    const customer = data(await gql(CUSTOMER_ACCOUNTS, { id: customerId }, tokens.both)).customer;
    const listStatements = service.statements.names.filter((name) => name === 'cas_account_number_list_of_many');
    expect(listStatements).toHaveLength(2); // one for accountNumbers, one for accountNumberLast4
    expect(customer.accounts.map((a: { accountId: string }) => a.accountId).sort()).toEqual([...ids].sort());
    for (const account of customer.accounts) {
      const rest = await restList(account.accountId);
      expect(account.accountNumbers.map((n: { accountNumber: string }) => n.accountNumber)).toEqual(
        rest.accountNumbers.map((n) => n.accountNumber),
      );
    }
    const { rows } = await service.database.pool.query(
      `SELECT resource_id::text AS id, count(*)::int AS n FROM audit_events
        WHERE operation = 'account.account_number.read' AND principal_id = $1 AND resource_id = ANY($2::uuid[])
        GROUP BY resource_id`,
      [principals.both, ids],
    );
    expect(rows.map((row) => [row.id, row.n]).sort()).toEqual(ids.map((id) => [id, 1]).sort());
  });

  it('answers null with a coded FORBIDDEN without accounts:numbers:read, the rest of the account answered, no audit row', async () => {
    const accountId = await newAccount();
    const [number] = (await restList(accountId)).accountNumbers;
    const before = await counts();
    const result = await gql(ACCOUNT, { id: accountId }, tokens.reader);
    expect(result.status).toBe(200);
    expect(errorCodes(result)).toEqual(['FORBIDDEN']);
    expect(result.json.errors[0].path).toEqual(['account', 'accountNumbers']);
    expect(result.json.data.account).toMatchObject({
      accountId,
      accountNumberLast4: number!.accountNumber.slice(-4),
      accountNumbers: null,
    });
    expect(typeof result.json.data.account.name).toBe('string');
    expect(result.text).not.toContain(number!.accountNumber);
    expect(await counts()).toEqual(before);
  });

  it('refuses accountNumberLast4 without accounts:read (accounts:numbers:read alone reaches no account)', async () => {
    const accountId = await newAccount();
    const result = await gql(LAST4, { id: accountId }, tokens.numbersReader);
    expect(errorCodes(result)).toEqual(['FORBIDDEN']);
    expect(result.json.data?.account ?? null).toBeNull();
  });
});

describe('addAccountNumber and updateAccountNumber', () => {
  it('adds a number, answering its last four only, audited; refused without accounts:controls or with a bad value', async () => {
    const accountId = await newAccount();
    const before = await counts();
    const added = data(await gql(ADD, { id: accountId, debits: 'BLOCKED' }, tokens.controls)).addAccountNumber;
    expect(added).toMatchObject({
      accountId,
      status: 'ACTIVE',
      inboundAchDebits: 'BLOCKED',
      routingNumber: '011000015',
    });
    expect(added.last4).toMatch(/^\d{4}$/);
    const after = await counts();
    expect(Number(after.numbers) - Number(before.numbers)).toBe(1);
    expect(Number(after.audit) - Number(before.audit)).toBe(1);
    expect(after.events).toBe(before.events);
    const listed = (await restList(accountId)).accountNumbers;
    expect(listed.map((n) => n.accountNumberId)).toContain(added.id);
    const full = listed.find((n) => n.accountNumberId === added.id)!.accountNumber;
    expect(full.slice(-4)).toBe(added.last4);

    const refused = await counts();
    for (const token of [tokens.both, tokens.numbersReader, tokens.lookup]) {
      const result = await gql(ADD, { id: accountId }, token);
      expect(errorCodes(result)).toEqual(['FORBIDDEN']);
      expect(result.json.data).toBeNull();
    }
    const bad = await gql(ADD, { id: accountId, debits: 'MAYBE' }, tokens.controls);
    expect(bad.json.data ?? null).toBeNull();
    expect(errorCodes(bad)).toHaveLength(1);
    expect(
      (await gql(ADD, { id: '0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32' }, tokens.controls)).json.errors[0].extensions.code,
    ).toBe('ACCOUNT_NOT_FOUND');
    expect(await counts()).toEqual(refused);
  });

  it('sets status and inbound ACH debits, answering the last four; CANCELED is final; coded refusals change nothing', async () => {
    const accountId = await newAccount();
    const [number] = (await restList(accountId)).accountNumbers;
    const id = number!.accountNumberId;
    const disabled = data(
      await gql(UPDATE, { id: accountId, number: id, status: 'DISABLED', debits: 'BLOCKED' }, tokens.controls),
    ).updateAccountNumber;
    expect(disabled).toMatchObject({ id, accountId, status: 'DISABLED', inboundAchDebits: 'BLOCKED' });
    expect(disabled.last4).toBe(number!.accountNumber.slice(-4));
    expect(disabled.accountNumber).toBeUndefined();
    const rest = await service.call('GET', `/sandbox/account/${accountId}/account-numbers`, {
      headers: bearer(tokens.numbersReader),
    });
    expect(rest.json.data.accountNumbers[0]).toMatchObject({ status: 'DISABLED', inboundAchDebits: 'BLOCKED' });
    expect(
      data(await gql(UPDATE, { id: accountId, number: id, debits: 'ALLOWED' }, tokens.controls)).updateAccountNumber,
    ).toMatchObject({ status: 'DISABLED', inboundAchDebits: 'ALLOWED' });

    const other = await newAccount();
    const before = await counts();
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ id: accountId, number: id }, tokens.controls, 'VALIDATION_FAILED'],
      [{ id: accountId, number: id, status: 'ACTIVE' }, tokens.both, 'FORBIDDEN'],
      [{ id: accountId, number: id, status: 'ACTIVE' }, tokens.lookup, 'FORBIDDEN'],
      [{ id: other, number: id, status: 'ACTIVE' }, tokens.controls, 'ACCOUNT_NUMBER_NOT_FOUND'],
      [
        { id: accountId, number: '0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32', status: 'ACTIVE' },
        tokens.controls,
        'ACCOUNT_NUMBER_NOT_FOUND',
      ],
    ];
    for (const [variables, token, code] of refusals) {
      const result = await gql(UPDATE, variables, token);
      expect(errorCodes(result), JSON.stringify(variables)).toEqual([code]);
      expect(result.json.data).toBeNull();
    }
    expect(await counts()).toEqual(before);

    data(await gql(UPDATE, { id: accountId, number: id, status: 'CANCELED' }, tokens.controls));
    const canceled = await counts();
    for (const variables of [{ status: 'ACTIVE' }, { status: 'CANCELED' }, { debits: 'BLOCKED' }]) {
      const result = await gql(UPDATE, { id: accountId, number: id, ...variables }, tokens.controls);
      expect(errorCodes(result)).toEqual(['ACCOUNT_NUMBER_CANCELED']);
    }
    expect(await counts()).toEqual(canceled);
    // A canceled number is no account's last four any more: the account has no other.
    expect(data(await gql(LAST4, { id: accountId }, tokens.reader)).account.accountNumberLast4).toBeNull();
  });
});

describe('lookupAccountNumber', () => {
  it("finds the account with the number's controls, audited", async () => {
    const accountId = await newAccount();
    const [number] = (await restList(accountId)).accountNumbers;
    const found = data(
      await gql(LOOKUP, { input: { routingNumber: '011000015', accountNumber: number!.accountNumber } }, tokens.lookup),
    ).lookupAccountNumber;
    expect(found).toEqual({
      accountId,
      accountNumberId: number!.accountNumberId,
      status: 'ACTIVE',
      inboundAchDebits: 'ALLOWED',
    });
    const { rows } = await service.database.pool.query(
      "SELECT principal_id, changed_fields FROM audit_events WHERE operation = 'account_number.lookup' AND resource_id = $1",
      [number!.accountNumberId],
    );
    expect(rows).toEqual([{ principal_id: principals.lookup, changed_fields: ['found'] }]);
  });

  it("answers one ACCOUNT_NUMBER_NOT_FOUND for an unknown number and another environment's routing number, audited", async () => {
    const accountId = await newAccount();
    const [number] = (await restList(accountId)).accountNumbers;
    const token = (
      await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['accounts:numbers:lookup'] })
    ).token;
    const auditCount = async () =>
      (
        await service.database.pool.query(
          "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'account_number.lookup'",
        )
      ).rows[0].n as number;
    const before = await auditCount();
    const answers = [
      await gql(LOOKUP, { input: { routingNumber: '011000015', accountNumber: '123456789015' } }, token),
      await gql(LOOKUP, { input: { routingNumber: '021000021', accountNumber: number!.accountNumber } }, token),
      await gql(
        LOOKUP,
        { input: { routingNumber: '021000021', accountNumber: number!.accountNumber } },
        token,
        'production-like',
      ),
    ];
    for (const result of answers) {
      expect(result.status).toBe(200);
      expect(errorCodes(result)).toEqual(['ACCOUNT_NUMBER_NOT_FOUND']);
      expect(result.json.data).toBeNull();
    }
    const shapes = answers.map((result) => JSON.stringify({ ...result.json.errors[0], locations: undefined }));
    expect(new Set(shapes.map((shape) => shape.replace(/"requestId":"[^"]*"/, '')))).toHaveProperty('size', 1);
    expect((await auditCount()) - before).toBe(answers.length);
  });

  it('refuses malformed input (coded) and a token without accounts:numbers:lookup', async () => {
    const bad = await gql(LOOKUP, { input: { routingNumber: '011000015', accountNumber: '12345' } }, tokens.lookup);
    expect(errorCodes(bad)).toEqual(['VALIDATION_FAILED']);
    for (const token of [tokens.both, tokens.controls]) {
      const refused = await gql(
        LOOKUP,
        { input: { routingNumber: '011000015', accountNumber: '123456789015' } },
        token,
      );
      expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
    }
  });

  it("spends the same per-token budget as REST's look-up: ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED on both once spent", async () => {
    const body = { routingNumber: '011000015', accountNumber: '123456789015' };
    for (let i = 0; i < LOOKUP_LIMIT; i++) {
      if (i % 2 === 0) expectFailure(await lookupRest(body, tokens.budget), 'account', 404, 'ACCOUNT_NUMBER_NOT_FOUND');
      else expect(errorCodes(await gql(LOOKUP, { input: body }, tokens.budget))).toEqual(['ACCOUNT_NUMBER_NOT_FOUND']);
    }
    const auditBefore = await counts();
    const rest = await lookupRest(body, tokens.budget);
    expectFailure(rest, 'account', 429, 'ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED');
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    const overGraphql = await gql(LOOKUP, { input: body }, tokens.budget);
    expect(errorCodes(overGraphql)).toEqual(['ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED']);
    expect(overGraphql.status).toBe(429);
    expect(Number(overGraphql.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing looked up, nothing audited once refused; another token still has its own budget.
    expect((await counts()).audit).toBe(auditBefore.audit);
    expect(errorCodes(await gql(LOOKUP, { input: body }, tokens.lookup))).toEqual(['ACCOUNT_NUMBER_NOT_FOUND']);
  });

  it('looks up one number per request: aliases and batches are refused, nothing audited', async () => {
    const token = (
      await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['accounts:numbers:lookup'] })
    ).token;
    const body = { routingNumber: '011000015', accountNumber: '123456789015' };
    const aliases = Array.from(
      { length: LOOKUP_LIMIT + 2 },
      (_, i) => `l${i}: lookupAccountNumber(input: $input) { accountId }`,
    ).join(' ');
    const before = await counts();
    const result = await gql(`mutation($input: AccountNumberLookupInput!) { ${aliases} }`, { input: body }, token);
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['TOO_MANY_ROOT_FIELDS']);
    // Nor does a batch of operations in one request.
    const batch = await service.call('POST', '/sandbox/graphql', {
      headers: bearer(token),
      body: Array.from({ length: LOOKUP_LIMIT + 2 }, () => ({
        query: `mutation($input: AccountNumberLookupInput!) { lookupAccountNumber(input: $input) { accountId } }`,
        variables: { input: body },
      })),
    });
    expect(batch.status).toBe(400);
    expect((await counts()).audit).toBe(before.audit);
  });
});
