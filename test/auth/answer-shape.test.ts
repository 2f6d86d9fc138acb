import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../src/domain/caller.js';
import { issueApiToken } from '../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { bearer } from '../support/http-auth.js';
import { startTestService, type TestService } from '../support/service.js';
import { errorCodes, graphql } from '../graphql/helpers.js';

/**
 * Least privilege in answers (src/domain/answer-shape.ts): a write made with its own scope answers the record's
 * fields only to a token that could read them directly; otherwise its identity (REST: `{accountId}` /
 * `{customerId}`, the version as ETag; GraphQL: `id`, `accountId`/`customerId`, `version`). Calls that change nothing
 * are audited all the same, with empty changedFields. Managed tokens with one scope each; the fixtures are written
 * with the service's static token (every scope).
 */
let service: TestService;
const tokens = new Map<string, string>();
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

async function tokenWith(...scopes: AccessScope[]): Promise<string> {
  const key = scopes.join('+');
  if (!tokens.has(key))
    tokens.set(
      key,
      (await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes, name: key })).token,
    );
  return tokens.get(key)!;
}

async function customer(): Promise<string> {
  const res = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
  expect(res.status, res.text).toBe(201);
  return res.json.data.customerId;
}

/** A funded account with a holder, so a full answer would show a balance, holders and transactions. */
async function fundedAccount(): Promise<{ accountId: string; customerId: string }> {
  const customerId = await customer();
  const created = await service.call('POST', '/sandbox/account', { body: buildAccountInput([customerId]) });
  expect(created.status, created.text).toBe(201);
  const accountId = created.json.data.accountId as string;
  const deposit = await service.call('POST', `/sandbox/account/${accountId}/transaction`, {
    body: { type: 'CREDIT', amount: 25 },
    headers: { 'idempotency-key': `fund-${accountId}` },
  });
  expect(deposit.status, deposit.text).toBe(201);
  return { accountId, customerId };
}

async function auditRows(
  resourceId: string,
  operation: string,
): Promise<{ principal_id: string; changed_fields: string[] }[]> {
  const { rows } = await service.database.pool.query(
    'SELECT principal_id, changed_fields FROM audit_events WHERE resource_id = $1 AND operation = $2 ORDER BY id',
    [resourceId, operation],
  );
  return rows;
}

const eventCount = async (resourceId: string): Promise<number> =>
  Number(
    (await service.database.pool.query('SELECT count(*)::int AS n FROM events WHERE resource_id = $1', [resourceId]))
      .rows[0].n,
  );

describe('REST: a write answers the whole record only with its read scope', () => {
  it('accounts:write only: adding an existing holder answers 200 with {accountId} only, and is audited with empty changedFields', async () => {
    const { accountId, customerId } = await fundedAccount();
    const token = await tokenWith('accounts:write');
    const events = await eventCount(accountId);
    const res = await service.call('POST', `/sandbox/account/${accountId}/customer`, {
      body: { customerId },
      auth: false,
      headers: bearer(token),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({ accountId });
    expect(res.text).not.toMatch(/"amount"|"transactions"|"customers"/);
    const [audited] = (await auditRows(accountId, 'account.customer.add')).filter((row) =>
      row.principal_id.startsWith('token:'),
    );
    expect(audited).toMatchObject({ changed_fields: [] });
    // Nothing changed: no event.
    expect(await eventCount(accountId)).toBe(events);
  });

  it('accounts:write only: adding a new holder answers {accountId}, audited with its changed field', async () => {
    const { accountId } = await fundedAccount();
    const other = await customer();
    const res = await service.call('POST', `/sandbox/account/${accountId}/customer`, {
      body: { customerId: other },
      auth: false,
      headers: bearer(await tokenWith('accounts:write')),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({ accountId });
    expect((await auditRows(accountId, 'account.customer.add')).map((row) => row.changed_fields)).toEqual([
      ['customerIds'],
    ]);
  });

  it('accounts:write only: creating and renaming an account answer {accountId} (the version as ETag)', async () => {
    const token = await tokenWith('accounts:write');
    const holder = await customer();
    const created = await service.call('POST', '/sandbox/account', {
      body: buildAccountInput([holder]),
      auth: false,
      headers: bearer(token),
    });
    expect(created.status, created.text).toBe(201);
    const accountId = created.json.data.accountId as string;
    expect(created.json.data).toEqual({ accountId });
    expect(created.headers.get('etag')).toBeTruthy();
    const renamed = await service.call('PUT', `/sandbox/account/${accountId}`, {
      body: { name: 'Renamed', currency: 'USD' },
      auth: false,
      headers: bearer(token),
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.data).toEqual({ accountId });
    expect(renamed.headers.get('etag')).toBeTruthy();
  });

  it('an unchanged account PUT with accounts:write only answers {accountId} and leaves an audit row', async () => {
    const { accountId } = await fundedAccount();
    const current = (await service.call('GET', `/sandbox/account/${accountId}`)).json.data;
    const res = await service.call('PUT', `/sandbox/account/${accountId}`, {
      body: { name: current.name, currency: current.currency },
      auth: false,
      headers: bearer(await tokenWith('accounts:write')),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({ accountId });
    expect(
      (await auditRows(accountId, 'account.update')).filter((row) => row.principal_id.startsWith('token:')),
    ).toHaveLength(1);
  });

  it('accounts:controls only: clearing a flag that is not set answers {accountId} only, and an audit row exists', async () => {
    const { accountId } = await fundedAccount();
    const events = await eventCount(accountId);
    const res = await service.call('DELETE', `/sandbox/account/${accountId}/flags/FROZEN`, {
      auth: false,
      headers: bearer(await tokenWith('accounts:controls')),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({ accountId });
    expect(await auditRows(accountId, 'account.flag.clear')).toEqual([expect.objectContaining({ changed_fields: [] })]);
    expect(await eventCount(accountId)).toBe(events);
  });

  it('accounts:controls only: setting a set flag without details and the same overdraft limit answer {accountId}, each audited with empty changedFields', async () => {
    const { accountId } = await fundedAccount();
    const token = await tokenWith('accounts:controls');
    const first = await service.call('PUT', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED`, {
      auth: false,
      headers: bearer(token),
    });
    expect(first.json.data).toEqual({ accountId });
    const again = await service.call('PUT', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED`, {
      auth: false,
      headers: bearer(token),
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json.data).toEqual({ accountId });
    expect((await auditRows(accountId, 'account.flag.set')).map((row) => row.changed_fields)).toEqual([['flags'], []]);

    const limit = await service.call('PUT', `/sandbox/account/${accountId}/overdraft-limit`, {
      body: { overdraftLimit: 0 },
      auth: false,
      headers: bearer(token),
    });
    expect(limit.status, limit.text).toBe(200);
    expect(limit.json.data).toEqual({ accountId });
    expect((await auditRows(accountId, 'account.overdraft_limit.set')).map((row) => row.changed_fields)).toEqual([[]]);
  });

  it('customers:write only: an unchanged PUT answers {customerId} only (no date of birth, no addresses), and is audited', async () => {
    const customerId = await customer();
    const current = (await service.call('GET', `/sandbox/customer/${customerId}`)).json.data;
    const res = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { preferredName: current.preferredName },
      auth: false,
      headers: bearer(await tokenWith('customers:write')),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({ customerId });
    expect(res.text).not.toMatch(/dateOfBirth|addresses/);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(
      (await auditRows(customerId, 'customer.update')).filter((row) => row.principal_id.startsWith('token:')),
    ).toEqual([expect.objectContaining({ changed_fields: ['preferredName'] })]);
  });

  it('a token holding the write and the read scope gets the full contract shape, as before', async () => {
    const { accountId, customerId } = await fundedAccount();
    const accounts = await tokenWith('accounts:write', 'accounts:read');
    const added = await service.call('POST', `/sandbox/account/${accountId}/customer`, {
      body: { customerId },
      auth: false,
      headers: bearer(accounts),
    });
    expect(added.json.data).toEqual((await service.call('GET', `/sandbox/account/${accountId}`)).json.data);
    expect(added.json.data).toMatchObject({ accountId, amount: 25, customers: [customerId], flags: [] });
    const controls = await tokenWith('accounts:controls', 'accounts:read');
    const cleared = await service.call('DELETE', `/sandbox/account/${accountId}/flags/FROZEN`, {
      auth: false,
      headers: bearer(controls),
    });
    expect(cleared.json.data).toMatchObject({
      accountId,
      amount: 25,
      transactions: [expect.objectContaining({ type: 'CREDIT' })],
    });
    const customers = await tokenWith('customers:write', 'customers:read');
    const updated = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { preferredName: 'Sam' },
      auth: false,
      headers: bearer(customers),
    });
    expect(updated.json.data).toEqual({
      ...(await service.call('GET', `/sandbox/customer/${customerId}`)).json.data,
      preferredName: 'Sam',
    });
    expect(updated.json.data.dateOfBirth).toEqual(expect.any(String));
  });
});

describe('GraphQL: the fields of a record beyond its identity need its read scope, wherever it is answered', () => {
  const CLEAR = `mutation($id: ID!) { clearAccountFlag(accountId: $id, flag: FROZEN) { accountId balance { posted } transactions(first: 10) { nodes { transactionId } } } }`;

  it('clearAccountFlag with accounts:controls only: balance and transactions are FORBIDDEN (accounts:read), nothing of the account leaks', async () => {
    const { accountId } = await fundedAccount();
    const res = await graphql(
      service,
      CLEAR,
      { id: accountId },
      { auth: false, headers: bearer(await tokenWith('accounts:controls')) },
    );
    expect(res.status).toBe(200);
    expect(errorCodes(res).length).toBeGreaterThan(0);
    expect(new Set(errorCodes(res))).toEqual(new Set(['FORBIDDEN']));
    for (const error of res.json.errors) {
      expect(error.extensions.challenge).toEqual({ error: 'insufficient_scope', scope: 'accounts:read' });
      expect(['balance', 'transactions']).toContain(error.path.at(-1));
      expect(error.path[0]).toBe('clearAccountFlag');
    }
    // The refused fields are non-null: the answer is null, and holds nothing of the account.
    expect(res.json.data).toBeNull();
    expect(res.text).not.toMatch(/"posted"|"nodes"/);
    // The call itself was made (and audited): the refusal is about its answer.
    expect(await auditRows(accountId, 'account.flag.clear')).toHaveLength(1);
  });

  it('clearAccountFlag with accounts:controls only: the identity is answered', async () => {
    const { accountId } = await fundedAccount();
    const res = await graphql(
      service,
      'mutation($id: ID!) { clearAccountFlag(accountId: $id, flag: FROZEN) { id accountId version } }',
      { id: accountId },
      { auth: false, headers: bearer(await tokenWith('accounts:controls')) },
    );
    expect(res.json.errors, res.text).toBeUndefined();
    expect(res.json.data.clearAccountFlag).toEqual({ id: accountId, accountId, version: expect.any(Number) });
  });

  it.each([
    ['balance { posted }'],
    ['transactions(first: 10) { nodes { transactionId } }'],
    ['flags'],
    ['customerIds'],
    ['amount'],
    ['name'],
  ])('addAccountCustomer with accounts:write only: %s is FORBIDDEN naming accounts:read', async (selection) => {
    const { accountId, customerId } = await fundedAccount();
    const res = await graphql(
      service,
      `mutation($a: ID!, $c: ID!) { addAccountCustomer(accountId: $a, customerId: $c) { accountId ${selection} } }`,
      { a: accountId, c: customerId },
      { auth: false, headers: bearer(await tokenWith('accounts:write')) },
    );
    expect(errorCodes(res)).toEqual(['FORBIDDEN']);
    expect(res.json.errors[0].extensions.challenge).toEqual({ error: 'insufficient_scope', scope: 'accounts:read' });
    expect(res.json.data).toBeNull();
  });

  it.each([['lastName'], ['dateOfBirth'], ['addresses { street }'], ['accountIds']])(
    'updateCustomer with customers:write only: %s is FORBIDDEN naming customers:read; the identity is answered',
    async (selection) => {
      const customerId = await customer();
      const token = await tokenWith('customers:write');
      const UPDATE = (fields: string) =>
        `mutation($id: ID!) { updateCustomer(customerId: $id, input: { preferredName: "Sam" }) { ${fields} } }`;
      const refused = await graphql(
        service,
        UPDATE(`customerId ${selection}`),
        { id: customerId },
        { auth: false, headers: bearer(token) },
      );
      expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
      expect(refused.json.errors[0].extensions.challenge).toEqual({
        error: 'insufficient_scope',
        scope: 'customers:read',
      });
      const identity = await graphql(
        service,
        UPDATE('id customerId version'),
        { id: customerId },
        { auth: false, headers: bearer(token) },
      );
      expect(identity.json.data.updateCustomer).toEqual({ id: customerId, customerId, version: expect.any(Number) });
    },
  );

  it('createCustomer with customers:write only answers the identity, not the fields it would otherwise read back', async () => {
    const token = await tokenWith('customers:write');
    const refused = await graphql(
      service,
      'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId lastName } }',
      { input: buildCustomerInput() },
      { auth: false, headers: bearer(token) },
    );
    expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
    const served = await graphql(
      service,
      'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId version } }',
      { input: buildCustomerInput() },
      { auth: false, headers: bearer(token) },
    );
    expect(served.json.data.createCustomer).toEqual({ customerId: expect.any(String), version: 1 });
  });

  it('a token holding the write and the read scope reads every field of the answer, as before', async () => {
    const { accountId } = await fundedAccount();
    const res = await graphql(
      service,
      CLEAR,
      { id: accountId },
      { auth: false, headers: bearer(await tokenWith('accounts:controls', 'accounts:read')) },
    );
    expect(res.json.errors, res.text).toBeUndefined();
    expect(res.json.data.clearAccountFlag).toEqual({
      accountId,
      balance: { posted: '25' },
      transactions: { nodes: [{ transactionId: expect.any(String) }] },
    });
  });

  it('the ledger mutations answer the posting with transactions:write alone; its account needs accounts:read', async () => {
    const { accountId } = await fundedAccount();
    const token = await tokenWith('transactions:write');
    const POST = (fields: string) =>
      `mutation($id: ID!) { postTransaction(accountId: $id, input: { type: CREDIT, amount: "1" }) { ${fields} } }`;
    const served = await graphql(
      service,
      POST('transactionId amount balanceAfter'),
      { id: accountId },
      { auth: false, headers: bearer(token) },
    );
    expect(served.json.errors, served.text).toBeUndefined();
    expect(served.json.data.postTransaction).toMatchObject({ amount: '1', balanceAfter: '26' });
    const nested = await graphql(
      service,
      POST('transactionId account { accountId name }'),
      { id: accountId },
      { auth: false, headers: bearer(token) },
    );
    expect(errorCodes(nested)).toEqual(['FORBIDDEN']);
    expect(nested.json.errors[0].extensions.challenge).toEqual({ error: 'insufficient_scope', scope: 'accounts:read' });
  });
});
