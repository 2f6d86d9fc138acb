import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luhnValid } from '../../../src/features/account-numbers/index.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Account and routing numbers over REST (docs/adr/0107), against the real database: a number issued in the account's
 * creation statement (12 digits, Luhn-valid, unique), the scoped and audited full list, the last four elsewhere,
 * adding, status and inbound ACH debit changes with their refusals (nothing changed), and the inbound look-up.
 */

let service: TestService;
const tokens = { numbersReader: '', accountsReader: '', controls: '', lookup: '' };
const principals = { numbersReader: '', lookup: '' };

beforeAll(async () => {
  service = await startTestService({ ROUTING_NUMBERS: 'production-like=021000021' });
  const { pool } = service.database;
  const reader = await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:numbers:read'] });
  tokens.numbersReader = reader.token;
  principals.numbersReader = reader.principalId;
  tokens.accountsReader = (
    await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:read', 'accounts:controls'] })
  ).token;
  tokens.controls = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:controls'] })).token;
  const lookup = await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:numbers:lookup'] });
  tokens.lookup = lookup.token;
  principals.lookup = lookup.principalId;
});
afterAll(async () => service?.stop());

const newAccount = async (environment = 'sandbox') => {
  const { customerId } = await createCustomer(service, {}, environment);
  const account = await createAccount(service, [customerId], environment);
  return account.accountId as string;
};
const numbersPath = (accountId: string, environment = 'sandbox') =>
  `/${environment}/account/${accountId}/account-numbers`;
const list = (accountId: string, token = tokens.numbersReader, environment = 'sandbox') =>
  service.call('GET', numbersPath(accountId, environment), { headers: bearer(token) });
const lookup = (body: unknown, token = tokens.lookup, environment = 'sandbox') =>
  service.call('POST', `/${environment}/account-numbers/lookup`, { headers: bearer(token), body });
const update = (accountId: string, id: string, body: unknown, token = tokens.controls) =>
  service.call('PUT', `${numbersPath(accountId)}/${id}`, { headers: bearer(token), body });

async function counts(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*)::text FROM account_numbers) AS numbers, (SELECT count(*)::text FROM audit_events) AS audit,
            (SELECT count(*)::text FROM events) AS events,
            (SELECT string_agg(id::text || status || inbound_ach_debits || updated_at::text, ',' ORDER BY id) FROM account_numbers) AS state`,
  );
  return rows[0]!;
}

describe('issuance at creation', () => {
  it('gives every new account one ACTIVE number, 12 digits with a valid Luhn check digit, written with the account', async () => {
    const accountId = await newAccount();
    const { rows } = await service.database.pool.query(
      'SELECT count(*)::int AS n FROM account_numbers WHERE account_id = $1',
      [accountId],
    );
    expect(rows[0].n).toBe(1);
    const res = await list(accountId);
    expectSuccess(res, 'account', 200);
    expect(res.json.data.routingNumber).toBe('011000015');
    const [number] = res.json.data.accountNumbers;
    expect(res.json.data.accountNumbers).toHaveLength(1);
    expect(number.accountNumber).toMatch(/^[1-9]\d{11}$/);
    expect(luhnValid(number.accountNumber)).toBe(true);
    expect(number.last4).toBe(number.accountNumber.slice(-4));
    expect(number).toMatchObject({
      accountId,
      status: 'ACTIVE',
      inboundAchDebits: 'ALLOWED',
      routingNumber: '011000015',
    });
  });

  it("answers each environment's configured routing number", async () => {
    const accountId = await newAccount('production-like');
    const res = await list(accountId, tokens.numbersReader, 'production-like');
    expectSuccess(res, 'account', 200);
    expect(res.json.data.routingNumber).toBe('021000021');
  });

  it('issues numbers unique per environment (the blind index is unique)', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => newAccount()));
    const numbers = new Set<string>();
    for (const id of ids) for (const n of (await list(id)).json.data.accountNumbers) numbers.add(n.accountNumber);
    expect(numbers.size).toBe(ids.length);
    const { rows } = await service.database.pool.query(
      'SELECT count(*)::int AS n, count(DISTINCT (environment, number_blind_index))::int AS d FROM account_numbers',
    );
    expect(rows[0].n).toBe(rows[0].d);
    // The database itself refuses a second row with the same blind index.
    await expect(
      service.database.pool.query(
        `INSERT INTO account_numbers (id, environment, account_id, pii_key_id, number_ciphertext, number_blind_index, last4)
         SELECT gen_random_uuid(), environment, account_id, pii_key_id, number_ciphertext, number_blind_index, last4
           FROM account_numbers WHERE account_id = $1`,
        [ids[0]],
      ),
    ).rejects.toThrow(/account_numbers_environment_number_blind_index_key/);
  });

  it('issues the first number of an account that has none (opened before account numbers) on its first full read', async () => {
    const accountId = await newAccount();
    await service.database.pool.query('DELETE FROM account_numbers WHERE account_id = $1', [accountId]);
    const res = await list(accountId);
    expectSuccess(res, 'account', 200);
    expect(res.json.data.accountNumbers).toHaveLength(1);
    expect(luhnValid(res.json.data.accountNumbers[0].accountNumber)).toBe(true);
    const again = await list(accountId);
    expect(again.json.data.accountNumbers).toEqual(res.json.data.accountNumbers);
  });
});

describe('the full list', () => {
  it('needs accounts:numbers:read (accounts:read is not enough) and changes nothing when refused', async () => {
    const accountId = await newAccount();
    const before = await counts();
    expectFailure(await list(accountId, tokens.accountsReader), 'account', 403, 'FORBIDDEN');
    expect(await counts()).toEqual(before);
  });

  it('audits every read: the account, the reader, never the digits', async () => {
    const accountId = await newAccount();
    const res = await list(accountId);
    const digits = res.json.data.accountNumbers[0].accountNumber as string;
    await list(accountId);
    const { rows } = await service.database.pool.query(
      `SELECT principal_id, resource_type, resource_id::text, changed_fields, to_jsonb(a)::text AS row
         FROM audit_events a WHERE operation = 'account.account_number.read' AND resource_id = $1`,
      [accountId],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      principal_id: principals.numbersReader,
      resource_type: 'account',
      resource_id: accountId,
    });
    for (const row of rows) expect(row.row).not.toContain(digits);
  });

  it('answers ACCOUNT_NOT_FOUND for an account of no one, or a malformed id', async () => {
    expectFailure(await list('0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32'), 'account', 404, 'ACCOUNT_NOT_FOUND');
    expectFailure(await list('not-an-id'), 'account', 404, 'ACCOUNT_NOT_FOUND');
  });

  it('leaves the account answers as they were: no number, no last four', async () => {
    const accountId = await newAccount();
    const res = await service.call('GET', `/sandbox/account/${accountId}`);
    expectSuccess(res, 'account', 200);
    expect(res.text).not.toMatch(/accountNumber|last4|routingNumber/);
  });
});

describe('adding and controls', () => {
  it('adds another ACTIVE number under accounts:controls, answering its last four only, audited', async () => {
    const accountId = await newAccount();
    const before = await counts();
    const res = await service.call('POST', numbersPath(accountId), {
      headers: bearer(tokens.controls),
      body: { inboundAchDebits: 'BLOCKED' },
    });
    expectSuccess(res, 'account', 201);
    expect(res.json.data).toMatchObject({ accountId, status: 'ACTIVE', inboundAchDebits: 'BLOCKED' });
    expect(res.json.data.last4).toMatch(/^\d{4}$/);
    expect(res.json.data.accountNumber).toBeUndefined();
    const after = await counts();
    expect(Number(after.numbers) - Number(before.numbers)).toBe(1);
    expect(Number(after.audit) - Number(before.audit)).toBe(1);
    expect(after.events).toBe(before.events);
    const listed = (await list(accountId)).json.data.accountNumbers;
    expect(listed).toHaveLength(2);
    expect(listed[1].accountNumber.slice(-4)).toBe(res.json.data.last4);
    // Without accounts:controls: refused, nothing written.
    const refused = await counts();
    expectFailure(
      await service.call('POST', numbersPath(accountId), { headers: bearer(tokens.numbersReader), body: {} }),
      'account',
      403,
      'FORBIDDEN',
    );
    expectFailure(
      await service.call('POST', numbersPath(accountId), {
        headers: bearer(tokens.controls),
        body: { inboundAchDebits: 'MAYBE' },
      }),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expect(await counts()).toEqual(refused);
  });

  it('sets status and inbound ACH debits; CANCELED is final; bad values are coded and change nothing', async () => {
    const accountId = await newAccount();
    const [number] = (await list(accountId)).json.data.accountNumbers;
    const id = number.accountNumberId;

    const disabled = await update(accountId, id, { status: 'DISABLED', inboundAchDebits: 'BLOCKED' });
    expectSuccess(disabled, 'account', 200);
    expect(disabled.json.data).toMatchObject({ accountNumberId: id, status: 'DISABLED', inboundAchDebits: 'BLOCKED' });
    expect(disabled.json.data.accountNumber).toBeUndefined();
    const { rows: audited } = await service.database.pool.query(
      "SELECT changed_fields FROM audit_events WHERE operation = 'account.account_number.update' AND resource_id = $1",
      [id],
    );
    expect(audited.map((row) => row.changed_fields)).toEqual([['status', 'inboundAchDebits']]);

    expectSuccess(await update(accountId, id, { status: 'ACTIVE' }), 'account', 200);

    const other = await newAccount();
    const before = await counts();
    for (const body of [
      { status: 'PAUSED' },
      { inboundAchDebits: 'SOMETIMES' },
      {},
      { status: 'ACTIVE', last4: '1234' },
    ])
      expectFailure(await update(accountId, id, body), 'account', 400, 'VALIDATION_FAILED');
    expectFailure(
      await update(accountId, id, { status: 'DISABLED' }, tokens.numbersReader),
      'account',
      403,
      'FORBIDDEN',
    );
    expectFailure(
      await update(accountId, '0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32', { status: 'DISABLED' }),
      'account',
      404,
      'ACCOUNT_NUMBER_NOT_FOUND',
    );
    // Another account's number is not found through this account.
    expectFailure(await update(other, id, { status: 'DISABLED' }), 'account', 404, 'ACCOUNT_NUMBER_NOT_FOUND');
    expect(await counts()).toEqual(before);

    expectSuccess(await update(accountId, id, { status: 'CANCELED' }), 'account', 200);
    const canceled = await counts();
    for (const body of [{ status: 'ACTIVE' }, { status: 'CANCELED' }, { inboundAchDebits: 'ALLOWED' }]) {
      const res = await update(accountId, id, body);
      expectFailure(res, 'account', 422, 'ACCOUNT_NUMBER_CANCELED');
    }
    expect(await counts()).toEqual(canceled);
    // The table keeps the rule too, whatever statement tries.
    await expect(
      service.database.pool.query("UPDATE account_numbers SET status = 'ACTIVE' WHERE id = $1", [id]),
    ).rejects.toThrow(/final/);
  });
});

describe('the inbound look-up', () => {
  it('finds the account, with the number controls, audited; a disabled number is found with its status', async () => {
    const accountId = await newAccount();
    const [number] = (await list(accountId)).json.data.accountNumbers;
    const found = await lookup({ routingNumber: '011000015', accountNumber: number.accountNumber });
    expectSuccess(found, 'account', 200);
    expect(found.json.data).toEqual({
      accountId,
      accountNumberId: number.accountNumberId,
      status: 'ACTIVE',
      inboundAchDebits: 'ALLOWED',
    });
    await update(accountId, number.accountNumberId, { status: 'DISABLED', inboundAchDebits: 'BLOCKED' });
    const disabled = await lookup({ routingNumber: '011000015', accountNumber: number.accountNumber });
    expectSuccess(disabled, 'account', 200);
    expect(disabled.json.data).toMatchObject({ accountId, status: 'DISABLED', inboundAchDebits: 'BLOCKED' });
    const { rows } = await service.database.pool.query(
      "SELECT principal_id, changed_fields FROM audit_events WHERE operation = 'account_number.lookup' AND resource_id = $1",
      [number.accountNumberId],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ principal_id: principals.lookup, changed_fields: ['found'] });
  });

  it("answers one ACCOUNT_NOT_FOUND-like 404 for an unknown number, another environment's routing number or number", async () => {
    const accountId = await newAccount();
    const [number] = (await list(accountId)).json.data.accountNumbers;
    const before = await service.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'account_number.lookup'",
    );
    const answers = [
      await lookup({ routingNumber: '011000015', accountNumber: '123456789015' }),
      await lookup({ routingNumber: '021000021', accountNumber: number.accountNumber }),
      await lookup(
        { routingNumber: '021000021', accountNumber: number.accountNumber },
        tokens.lookup,
        'production-like',
      ),
      await lookup({
        routingNumber: '011000015',
        accountNumber: `${number.accountNumber.slice(0, 11)}${(Number(number.accountNumber.at(-1)) + 1) % 10}`,
      }),
    ];
    for (const res of answers) expectFailure(res, 'account', 404, 'ACCOUNT_NUMBER_NOT_FOUND');
    expect(new Set(answers.map((res) => JSON.stringify({ ...res.json.error })))).toHaveProperty('size', 1);
    const after = await service.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'account_number.lookup'",
    );
    expect(after.rows[0].n - before.rows[0].n).toBe(answers.length);
  });

  it('refuses malformed input (coded, nothing looked up) and a token without its scope', async () => {
    for (const body of [
      { routingNumber: '11000015', accountNumber: '123456789015' },
      { routingNumber: '011000015', accountNumber: '12345' },
      { routingNumber: '011000015', accountNumber: 123456789015 },
      { routingNumber: '011000015' },
    ])
      expectFailure(await lookup(body), 'account', 400, 'VALIDATION_FAILED');
    expectFailure(
      await lookup({ routingNumber: '011000015', accountNumber: '123456789015' }, tokens.numbersReader),
      'account',
      403,
      'FORBIDDEN',
    );
  });
});

describe('the look-up budget', () => {
  it('answers 429 ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED with Retry-After once the minute is spent', async () => {
    const limited = await startTestService({ ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const body = { routingNumber: '011000015', accountNumber: '123456789015' };
      expectFailure(
        await limited.call('POST', '/sandbox/account-numbers/lookup', { body }),
        'account',
        404,
        'ACCOUNT_NUMBER_NOT_FOUND',
      );
      expectFailure(
        await limited.call('POST', '/sandbox/account-numbers/lookup', { body }),
        'account',
        404,
        'ACCOUNT_NUMBER_NOT_FOUND',
      );
      const refused = await limited.call('POST', '/sandbox/account-numbers/lookup', { body });
      expectFailure(refused, 'account', 429, 'ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const { rows } = await limited.database.pool.query(
        "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'account_number.lookup'",
      );
      expect(rows[0].n).toBe(2);
    } finally {
      await limited.stop();
    }
  });
});
