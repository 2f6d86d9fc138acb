import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DomainHarness, createDomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { databaseState, detailFields, expectRejectedWithoutChange } from '../../support/db-state.js';

let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness();
});
afterAll(async () => h.close());

const accounts = () => h.services.accounts;

async function newCustomerId(environment = 'sandbox'): Promise<string> {
  return (await h.services.customers.create(h.caller(environment), buildCustomerInput())).value.customerId;
}

/** A well-formed id that no customer has (UUIDv4 while the service hands out v7). */
const unknownId = () => randomUUID();

describe('creating an account', () => {
  it('links the customers in the order given, with amount 0, no transactions and no flags', async () => {
    const [first, second] = [await newCustomerId(), await newCustomerId()];
    const { value: account } = await accounts().create(
      h.caller(),
      buildAccountInput([second, first], { name: 'Joint', currency: 'EUR', type: 'MONEY_MARKET' }),
    );
    expect(account).toEqual({
      accountId: expect.any(String),
      type: 'MONEY_MARKET',
      name: 'Joint',
      amount: '0',
      currency: 'EUR',
      customerIds: [second, first],
      transactions: [],
      transactionCount: 0,
      flags: [],
      balance: { posted: '0', pending: '0', available: '0' },
      overdraftLimit: '0',
      version: 1,
    });
    expect(await accounts().get(h.caller(), account.accountId)).toEqual(account);
    for (const customerId of [first, second]) {
      expect((await h.services.customers.get(h.caller(), customerId)).accountIds).toEqual([account.accountId]);
    }
    const { rows } = await h.pool.query<{ amount: string }>('SELECT amount::text FROM accounts WHERE id = $1', [
      account.accountId,
    ]);
    expect(rows[0]?.amount).toBe('0.000000');
  });

  it.each([
    ['empty', []],
    ['not a list', 'abc'],
    ['a number', [42]],
  ])('rejects associatedCustomerIds that is %s', async (_case, associatedCustomerIds) => {
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().create(h.caller(), { ...buildAccountInput([]), associatedCustomerIds }),
      { code: 'VALIDATION_FAILED' },
    );
    expect(detailFields(error).some((field) => field?.startsWith('associatedCustomerIds'))).toBe(true);
  });

  it('answers CUSTOMER_NOT_FOUND for an id of the wrong shape, like a well-formed unknown id, without echoing it', async () => {
    const existing = await newCustomerId();
    const unknown = unknownId();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().create(h.caller(), buildAccountInput([existing, 'not-a-uuid-123-45-6789', unknown])),
      { code: 'CUSTOMER_NOT_FOUND', kind: 'unprocessable_reference' },
    );
    expect(error.details?.map((detail) => detail.message)).toEqual([
      'No customer has this id: it is not an id the service issued.',
      `No customer ${unknown} in this environment.`,
    ]);
    expect(JSON.stringify(error)).not.toContain('123-45-6789');
  });

  it('rejects the same customer twice, whatever the letter case', async () => {
    const customerId = await newCustomerId();
    for (const ids of [
      [customerId, customerId],
      [customerId, customerId.toUpperCase()],
    ]) {
      const error = await expectRejectedWithoutChange(
        h.pool,
        () => accounts().create(h.caller(), buildAccountInput(ids)),
        { code: 'VALIDATION_FAILED' },
      );
      expect(detailFields(error)).toContain('associatedCustomerIds');
    }
  });

  it('answers CUSTOMER_NOT_FOUND listing exactly the missing ids and creates nothing', async () => {
    const existing = await newCustomerId();
    const missing = [unknownId(), unknownId()];
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().create(h.caller(), buildAccountInput([missing[0]!, existing, missing[1]!])),
      { code: 'CUSTOMER_NOT_FOUND', kind: 'unprocessable_reference' },
    );
    const listed = (error.details ?? []).map((detail) => /[0-9a-f-]{36}/.exec(detail.message)?.[0]);
    expect(listed).toEqual(missing);
    expect(JSON.stringify(error)).not.toContain(existing);
    expect((await h.services.customers.get(h.caller(), existing)).accountIds).toEqual([]);
  });

  it('treats a customer of another environment as missing', async () => {
    const local = await newCustomerId('sandbox');
    const foreign = await newCustomerId('production-like');
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().create(h.caller('sandbox'), buildAccountInput([local, foreign])),
      {
        code: 'CUSTOMER_NOT_FOUND',
      },
    );
    expect(error.details).toHaveLength(1);
    expect(error.details?.[0]?.message).toContain(foreign);
  });

  it.each(['USD', 'EUR', 'JPY', 'CHF', 'BHD'])('accepts the active currency %s', async (currency) => {
    const { value: account } = await accounts().create(
      h.caller(),
      buildAccountInput([await newCustomerId()], { currency }),
    );
    expect(account.currency).toBe(currency);
  });

  it.each([
    ['lower case', 'usd'],
    ['mixed case', 'Usd'],
    ['the testing code XTS', 'XTS'],
    ['"no currency" XXX', 'XXX'],
    ['gold XAU', 'XAU'],
    ['the SDR', 'XDR'],
    ['an unassigned code', 'ABC'],
    ['a withdrawn code', 'DEM'],
    ['two letters', 'US'],
    ['four letters', 'USDT'],
    ['a number', 840],
    ['an empty string', ''],
  ])('rejects a currency that is %s', async (_case, currency) => {
    const customerId = await newCustomerId();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().create(h.caller(), { ...buildAccountInput([customerId]), currency }),
      {
        code: 'VALIDATION_FAILED',
      },
    );
    expect(detailFields(error)).toEqual(['currency']);
  });

  it.each(['CHECKING', 'MONEY_MARKET', 'CD_12_MONTHS', 'IRA2'])('accepts the type %s', async (type) => {
    const { value: account } = await accounts().create(
      h.caller(),
      buildAccountInput([await newCustomerId()], { type }),
    );
    expect(account.type).toBe(type);
  });

  it.each([
    ['lower case', 'checking'],
    ['mixed case', 'Checking'],
    ['a dash', 'MONEY-MARKET'],
    ['a space', 'MONEY MARKET'],
    ['a double underscore', 'MONEY__MARKET'],
    ['a leading underscore', '_CHECKING'],
    ['a trailing underscore', 'CHECKING_'],
    ['a leading digit', '1CHECKING'],
    ['more than 64 characters', `A${'_B'.repeat(32)}`],
    ['an empty string', ''],
  ])('rejects a type with %s', async (_case, type) => {
    const customerId = await newCustomerId();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().create(h.caller(), buildAccountInput([customerId], { type })),
      {
        code: 'VALIDATION_FAILED',
      },
    );
    expect(detailFields(error)).toEqual(['type']);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['over 100 characters', 'x'.repeat(101)],
  ])('rejects a name that is %s', async (_case, name) => {
    const customerId = await newCustomerId();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().create(h.caller(), buildAccountInput([customerId], { name })),
      {
        code: 'VALIDATION_FAILED',
      },
    );
    expect(detailFields(error)).toEqual(['name']);
  });

  it.each(['associatedCustomerIds', 'name', 'currency', 'type'])('requires %s', async (field) => {
    const { [field as 'name']: _omitted, ...input } = buildAccountInput([await newCustomerId()]);
    const error = await expectRejectedWithoutChange(h.pool, () => accounts().create(h.caller(), input), {
      code: 'VALIDATION_FAILED',
    });
    expect(detailFields(error)).toEqual([field]);
  });

  it.each([
    ['amount', 100],
    ['flags', ['FROZEN']],
    ['accountId', randomUUID()],
    ['__proto__', { admin: true }],
  ])('rejects the unknown or read-only field %s', async (field, value) => {
    const customerId = await newCustomerId();
    // Built through JSON.parse, as a request body is: that is how "__proto__" becomes an own key.
    const json = JSON.stringify(buildAccountInput([customerId]));
    const input: unknown = JSON.parse(`${json.slice(0, -1)},${JSON.stringify(field)}:${JSON.stringify(value)}}`);
    const error = await expectRejectedWithoutChange(h.pool, () => accounts().create(h.caller(), input), {
      code: 'VALIDATION_FAILED',
    });
    expect(detailFields(error)).toEqual([field]);
  });
});

describe('updating an account', () => {
  async function newAccount() {
    const customerId = await newCustomerId();
    return (await accounts().create(h.caller(), buildAccountInput([customerId]))).value;
  }

  it('changes name and currency and nothing else', async () => {
    const account = await newAccount();
    const updated = await accounts().update(h.caller(), account.accountId, { name: 'Travel', currency: 'GBP' });
    expect(updated).toEqual({ ...account, name: 'Travel', currency: 'GBP', version: account.version + 1 });
    expect(await accounts().get(h.caller(), account.accountId)).toEqual(updated);
  });

  it.each([
    ['only a name', { name: 'Travel' }, 'currency'],
    ['only a currency', { currency: 'GBP' }, 'name'],
    ['nothing', {}, 'name'],
    ['an inactive currency', { name: 'Travel', currency: 'XTS' }, 'currency'],
    ['a lower-case currency', { name: 'Travel', currency: 'gbp' }, 'currency'],
    ['a blank name', { name: ' ', currency: 'GBP' }, 'name'],
    ['an unknown field', { name: 'Travel', currency: 'GBP', nickname: 'x' }, 'nickname'],
  ])('rejects %s with VALIDATION_FAILED and changes nothing', async (_case, changes, field) => {
    const account = await newAccount();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().update(h.caller(), account.accountId, changes),
      { code: 'VALIDATION_FAILED' },
    );
    expect(detailFields(error)).toContain(field);
    expect(await accounts().get(h.caller(), account.accountId)).toEqual(account);
  });

  it.each([
    ['type', 'SAVINGS'],
    ['type (unchanged value)', 'CHECKING'],
    ['amount', 1000],
    ['associatedCustomerIds', []],
    ['flags', []],
  ])('refuses %s with FIELD_NOT_UPDATABLE and changes nothing', async (label, value) => {
    const field = label.split(' ')[0]!;
    const account = await newAccount();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => accounts().update(h.caller(), account.accountId, { name: 'Travel', currency: 'GBP', [field]: value }),
      { code: 'FIELD_NOT_UPDATABLE', kind: 'invalid_input' },
    );
    expect(detailFields(error)).toEqual([field]);
    expect(await accounts().get(h.caller(), account.accountId)).toEqual(account);
  });

  it('answers ACCOUNT_NOT_FOUND for an unknown, malformed or other-environment id', async () => {
    const account = await newAccount();
    for (const [environment, id] of [
      ['sandbox', randomUUID()],
      ['sandbox', 'nope'],
      ['production-like', account.accountId],
    ] as const) {
      await expectRejectedWithoutChange(
        h.pool,
        () => accounts().update(h.caller(environment), id, { name: 'X', currency: 'USD' }),
        {
          code: 'ACCOUNT_NOT_FOUND',
          kind: 'not_found',
        },
      );
    }
  });
});

describe('deleting an account', () => {
  it('removes the account and its links; its customers no longer list it, other accounts stay', async () => {
    const [a, b] = [await newCustomerId(), await newCustomerId()];
    const { value: joint } = await accounts().create(h.caller(), buildAccountInput([a, b]));
    const { value: own } = await accounts().create(h.caller(), buildAccountInput([a]));
    const before = await databaseState(h.pool);

    await accounts().delete(h.caller(), joint.accountId);

    const after = await databaseState(h.pool);
    expect(after.counts).toEqual({
      ...before.counts,
      accounts: before.counts.accounts! - 1,
      links: before.counts.links! - 2,
    });
    expect(
      (await h.pool.query('SELECT 1 FROM account_customers WHERE account_id = $1', [joint.accountId])).rows,
    ).toEqual([]);
    expect((await h.services.customers.get(h.caller(), a)).accountIds).toEqual([own.accountId]);
    expect((await h.services.customers.get(h.caller(), b)).accountIds).toEqual([]);
    await expect(accounts().get(h.caller(), joint.accountId)).rejects.toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
    // b has no account left, so it can now be deleted; a still cannot.
    await h.services.customers.delete(h.caller(), b);
    await expect(h.services.customers.delete(h.caller(), a)).rejects.toMatchObject({ code: 'CUSTOMER_HAS_ACCOUNTS' });
  });

  it('answers ACCOUNT_NOT_FOUND the second time, for another environment and for a malformed id', async () => {
    const { value: account } = await accounts().create(h.caller(), buildAccountInput([await newCustomerId()]));
    await expectRejectedWithoutChange(h.pool, () => accounts().delete(h.caller('production-like'), account.accountId), {
      code: 'ACCOUNT_NOT_FOUND',
    });
    await accounts().delete(h.caller(), account.accountId);
    await expectRejectedWithoutChange(h.pool, () => accounts().delete(h.caller(), account.accountId), {
      code: 'ACCOUNT_NOT_FOUND',
    });
    await expectRejectedWithoutChange(h.pool, () => accounts().delete(h.caller(), 'nope'), {
      code: 'ACCOUNT_NOT_FOUND',
    });
  });
});
