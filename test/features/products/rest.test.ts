import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { type CallOptions, type CallResult, startTestService, type TestService } from '../../support/service.js';

/**
 * Deposit products over REST (docs/adr/0112), against the real database: defining products (flat and tiered rates,
 * fees, minimums, limits; exact decimals, normalised), the account envelope, every coded refusal with nothing
 * written, codes taken for ever, idempotent retries, forward-only rates by the environment's business date (and the
 * rate in force once the clock passes it), reading and paging, the one scope of each operation, the audit rows and
 * the events.
 */

let service: TestService;
let writer: string;
let reader: string;
beforeAll(async () => {
  service = await startTestService();
  const { pool } = service.database;
  writer = (await issueApiToken(pool, { environments: ['*'], scopes: ['products:write'] })).token;
  reader = (await issueApiToken(pool, { environments: ['*'], scopes: ['products:read'] })).token;
});
afterAll(async () => service?.stop());

let serial = 0;
/** A code no other product of the run has. */
const newCode = (prefix = 'SAVINGS') => `${prefix}_${++serial}`;

const flat = (code = newCode(), overrides: Record<string, unknown> = {}) => ({
  code,
  name: 'Everyday savings',
  accountType: 'SAVINGS',
  currency: 'USD',
  interest: {
    annualRate: '0.0150',
    dayCount: 'ACTUAL_365',
    balanceBasis: 'END_OF_DAY',
    compounding: 'DAILY',
    posting: 'MONTHLY',
  },
  ...overrides,
});

const create = (body: unknown, options: CallOptions = {}) =>
  service.call('POST', '/sandbox/product', { headers: bearer(writer), ...options, body });
const changeRate = (code: string, body: unknown, options: CallOptions = {}) =>
  service.call('POST', `/sandbox/product/${code}/rate`, { headers: bearer(writer), ...options, body });
const get = (code: string, options: CallOptions = {}) =>
  service.call('GET', `/sandbox/product/${code}`, { headers: bearer(reader), ...options });

async function businessDate(): Promise<string> {
  const res = await service.call('GET', '/sandbox/clock');
  expect(res.status, res.text).toBe(200);
  return res.json.data.businessDate as string;
}

const nextDay = (date: string, days = 1) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Products, their rates, the audit trail, the events and the idempotency keys: a refusal leaves all as they were. */
async function snapshot(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*)::text FROM products) AS products, (SELECT count(*)::text FROM product_rates) AS rates,
            (SELECT count(*)::text FROM audit_events) AS audit, (SELECT count(*)::text FROM events) AS events,
            (SELECT count(*)::text FROM idempotency_keys) AS keys`,
  );
  return rows[0]!;
}

async function expectRefused(
  request: () => Promise<CallResult>,
  status: number,
  code: string,
  field?: string,
): Promise<CallResult> {
  const before = await snapshot();
  const res = await request();
  expectFailure(res, 'account', status, code);
  if (field !== undefined)
    expect(
      res.json.error.details.map((detail: { field?: string }) => detail.field),
      res.text,
    ).toContain(field);
  expect(await snapshot()).toEqual(before);
  return res;
}

async function eventsOf(productId: string) {
  const { rows } = await service.database.pool.query<{ type: string; resource_type: string; payload: unknown }>(
    'SELECT type, resource_type, payload FROM events WHERE resource_id = $1 ORDER BY occurred_at, id',
    [productId],
  );
  return rows;
}

async function auditOf(productId: string) {
  const { rows } = await service.database.pool.query<{
    operation: string;
    resource_type: string;
    changed_fields: string[];
  }>(
    'SELECT operation, resource_type, changed_fields FROM audit_events WHERE resource_id = $1 ORDER BY occurred_at, id',
    [productId],
  );
  return rows;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /{environment}/product', () => {
  it('defines a product with a flat rate, in force from the business date; the account envelope; audited; product.created', async () => {
    const today = await businessDate();
    const code = newCode();
    const res = await create(flat(code));
    expectSuccess(res, 'account', 201);
    expect(res.headers.get('location')).toBe(`/sandbox/product/${code}`);
    const rate = { effectiveFrom: today, annualRate: '0.015', tiers: null };
    expect(res.json.data).toEqual({
      productId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      code,
      name: 'Everyday savings',
      accountType: 'SAVINGS',
      currency: 'USD',
      interest: {
        dayCount: 'ACTUAL_365',
        balanceBasis: 'END_OF_DAY',
        compounding: 'DAILY',
        posting: 'MONTHLY',
        rate,
        rateHistory: [rate],
      },
      fees: null,
      minimumOpeningDeposit: null,
      minimumBalance: null,
      limits: null,
      createdAt: expect.stringMatching(ISO_UTC),
    });
    const { productId } = res.json.data;
    expect(await auditOf(productId)).toEqual([
      {
        operation: 'product.create',
        resource_type: 'product',
        changed_fields: ['code', 'name', 'accountType', 'currency', 'interest'],
      },
    ]);
    expect(await eventsOf(productId)).toEqual([
      { type: 'product.created', resource_type: 'product', payload: { productId, code } },
    ]);
    const read = await get(code);
    expectSuccess(read, 'account', 200);
    expect(read.json.data).toEqual(res.json.data);
  });

  it('keeps tiers, fees, minimums and limits exact, as normalised decimal strings (numbers as the ledger takes them too)', async () => {
    const code = newCode();
    const res = await create({
      code,
      name: 'High-yield savings',
      accountType: 'SAVINGS',
      currency: 'USD',
      interest: {
        tiers: [
          { minimumBalance: '0', annualRate: '0.0100' },
          { minimumBalance: '10000.00', annualRate: '0.042500' },
          { minimumBalance: 250000, annualRate: '0' },
        ],
        dayCount: 'ACTUAL_360',
        balanceBasis: 'AVERAGE_DAILY',
        compounding: 'MONTHLY',
        posting: 'QUARTERLY',
      },
      fees: { monthlyMaintenance: { amount: '5.00', waivedAtMinimumDailyBalance: '500' } },
      minimumOpeningDeposit: '100.50',
      minimumBalance: '0',
      limits: { dailyWithdrawalTotal: '2500', withdrawalsPerMonth: 6 },
    });
    expectSuccess(res, 'account', 201);
    const data = res.json.data;
    expect(data.interest.rate.annualRate).toBeNull();
    expect(data.interest.rate.tiers).toEqual([
      { minimumBalance: '0', annualRate: '0.01' },
      { minimumBalance: '10000', annualRate: '0.0425' },
      { minimumBalance: '250000', annualRate: '0' },
    ]);
    expect(data.fees).toEqual({ monthlyMaintenance: { amount: '5', waivedAtMinimumDailyBalance: '500' } });
    expect(data.minimumOpeningDeposit).toBe('100.5');
    expect(data.minimumBalance).toBe('0');
    expect(data.limits).toEqual({ dailyWithdrawalTotal: '2500', withdrawalsPerMonth: 6 });
  });

  it('defines a product without interest: interest null, and its rate cannot change', async () => {
    const code = newCode('CHECKING');
    const res = await create({
      code,
      name: 'Basic checking',
      accountType: 'CHECKING',
      currency: 'JPY',
      minimumBalance: 1000,
    });
    expectSuccess(res, 'account', 201);
    expect(res.json.data.interest).toBeNull();
    const today = await businessDate();
    const refused = await expectRefused(
      () => changeRate(code, { annualRate: '0.01', effectiveFrom: nextDay(today) }),
      422,
      'PRODUCT_RATE_NOT_ALLOWED',
      'interest',
    );
    expect(refused.json.error.details[0].code).toBe('NO_INTEREST');
  });

  it('refuses a second product with a code (409 PRODUCT_CODE_TAKEN), whatever its terms; nothing written', async () => {
    const code = newCode();
    expectSuccess(await create(flat(code)), 'account', 201);
    await expectRefused(() => create(flat(code, { name: 'Another' })), 409, 'PRODUCT_CODE_TAKEN', 'code');
  });

  it('replays a creation retried with its Idempotency-Key; the key with another body is IDEMPOTENCY_KEY_REUSED', async () => {
    const code = newCode();
    const key = `product-${code}`;
    const first = await create(flat(code), { headers: { ...bearer(writer), 'Idempotency-Key': key } });
    expectSuccess(first, 'account', 201);
    const before = await snapshot();
    const again = await create(flat(code), { headers: { ...bearer(writer), 'Idempotency-Key': key } });
    expectSuccess(again, 'account', 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data).toEqual(first.json.data);
    expect(await snapshot()).toEqual(before);
    await expectRefused(
      () => create(flat(code, { name: 'Changed' }), { headers: { ...bearer(writer), 'Idempotency-Key': key } }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  const interest = flat().interest;
  it.each([
    ['a rate of 1', { interest: { ...interest, annualRate: '1' } }, 'interest.annualRate'],
    ['a rate above 1', { interest: { ...interest, annualRate: '1.5' } }, 'interest.annualRate'],
    ['a rate with 7 decimals', { interest: { ...interest, annualRate: '0.0123456' } }, 'interest.annualRate'],
    ['a negative rate', { interest: { ...interest, annualRate: '-0.01' } }, 'interest.annualRate'],
    ['a rate as a number', { interest: { ...interest, annualRate: 0.015 } }, 'interest.annualRate'],
    [
      'both a rate and tiers',
      { interest: { ...interest, tiers: [{ minimumBalance: '0', annualRate: '0.01' }] } },
      'interest.annualRate',
    ],
    ['neither a rate nor tiers', { interest: { ...interest, annualRate: undefined } }, 'interest.annualRate'],
    [
      'tiers not from 0',
      { interest: { ...interest, annualRate: undefined, tiers: [{ minimumBalance: '100', annualRate: '0.01' }] } },
      'interest.tiers.0.minimumBalance',
    ],
    [
      'tiers not ascending',
      {
        interest: {
          ...interest,
          annualRate: undefined,
          tiers: [
            { minimumBalance: '0', annualRate: '0.01' },
            { minimumBalance: '500', annualRate: '0.02' },
            { minimumBalance: '500.00', annualRate: '0.03' },
          ],
        },
      },
      'interest.tiers.2.minimumBalance',
    ],
    ['no tiers', { interest: { ...interest, annualRate: undefined, tiers: [] } }, 'interest.tiers'],
    ['an unknown day count', { interest: { ...interest, dayCount: '30_360' } }, 'interest.dayCount'],
    ['no posting', { interest: { ...interest, posting: undefined } }, 'interest.posting'],
    [
      'a fee with a tenth of a cent',
      { fees: { monthlyMaintenance: { amount: '5.001' } } },
      'fees.monthlyMaintenance.amount',
    ],
    ['a fee of 0', { fees: { monthlyMaintenance: { amount: '0' } } }, 'fees.monthlyMaintenance.amount'],
    ['yen with decimals', { currency: 'JPY', minimumOpeningDeposit: '100.5' }, 'minimumOpeningDeposit'],
    ['a negative minimum balance', { minimumBalance: -5 }, 'minimumBalance'],
    ['no withdrawals a month', { limits: { withdrawalsPerMonth: 0 } }, 'limits.withdrawalsPerMonth'],
    ['an unknown currency', { currency: 'XYZ' }, 'currency'],
    ['a lower-case code', { code: 'savings' }, 'code'],
    ['a code too long', { code: `S${'A'.repeat(32)}` }, 'code'],
    ['no account type', { accountType: undefined }, 'accountType'],
    ['an unknown field', { overdraft: true }, 'overdraft'],
    [
      'an unknown field of a limit',
      { limits: { dailyWithdrawalTotal: '10', perTransaction: '5' } },
      'limits.perTransaction',
    ],
  ])('refuses %s with VALIDATION_FAILED naming the field; nothing written', async (_what, overrides, field) => {
    await expectRefused(() => create(flat(newCode(), overrides)), 400, 'VALIDATION_FAILED', field);
  });

  it('needs products:write (a reader is FORBIDDEN, nothing written)', async () => {
    const res = await expectRefused(() => create(flat(), { headers: bearer(reader) }), 403, 'FORBIDDEN');
    expect(res.json.error.message).toContain('products:write');
  });
});

describe('POST /{environment}/product/{code}/rate', () => {
  it('schedules a rate from a later business date; the one in force stays until the clock reaches it; audited; product.rate_changed', async () => {
    const today = await businessDate();
    const code = newCode();
    const created = await create(flat(code));
    expectSuccess(created, 'account', 201);
    const { productId } = created.json.data;
    const effectiveFrom = nextDay(today, 2);
    const res = await changeRate(code, { annualRate: '0.0200', effectiveFrom });
    expectSuccess(res, 'account', 200);
    const old = { effectiveFrom: today, annualRate: '0.015', tiers: null };
    const scheduled = { effectiveFrom, annualRate: '0.02', tiers: null };
    expect(res.json.data.interest.rate).toEqual(old);
    expect(res.json.data.interest.rateHistory).toEqual([scheduled, old]);
    expect(await auditOf(productId)).toEqual([
      expect.objectContaining({ operation: 'product.create' }),
      { operation: 'product.rate.change', resource_type: 'product', changed_fields: ['annualRate', 'effectiveFrom'] },
    ]);
    expect((await eventsOf(productId)).map((event) => [event.type, event.payload])).toEqual([
      ['product.created', { productId, code }],
      ['product.rate_changed', { productId, code, effectiveFrom }],
    ]);
    // A tiered rate from another date; the same date twice is refused.
    const tiered = await changeRate(code, {
      tiers: [
        { minimumBalance: '0', annualRate: '0.01' },
        { minimumBalance: '1000', annualRate: '0.03' },
      ],
      effectiveFrom: nextDay(today, 5),
    });
    expectSuccess(tiered, 'account', 200);
    expect(tiered.json.data.interest.rateHistory.map((rate: { effectiveFrom: string }) => rate.effectiveFrom)).toEqual([
      nextDay(today, 5),
      effectiveFrom,
      today,
    ]);
    const refused = await expectRefused(
      () => changeRate(code, { annualRate: '0.05', effectiveFrom }),
      422,
      'PRODUCT_RATE_NOT_ALLOWED',
      'effectiveFrom',
    );
    expect(refused.json.error.details[0].code).toBe('ALREADY_SCHEDULED');
    // The clock moves on: the scheduled rate is the one in force from its date.
    expectSuccess(await service.call('POST', '/sandbox/clock/advance', { body: { days: 2 } }), 'customer', 200);
    const later = await get(code);
    expectSuccess(later, 'account', 200);
    expect(later.json.data.interest.rate).toEqual(scheduled);
    // Today's date is no longer in the future either.
    await expectRefused(
      () => changeRate(code, { annualRate: '0.05', effectiveFrom: nextDay(today, 2) }),
      422,
      'PRODUCT_RATE_NOT_ALLOWED',
      'effectiveFrom',
    );
  });

  it.each([
    ['today', 0],
    ['yesterday', -1],
  ])(
    'refuses a rate from %s (422 PRODUCT_RATE_NOT_ALLOWED, NOT_AFTER_BUSINESS_DATE); nothing written',
    async (_what, days) => {
      const code = newCode();
      expectSuccess(await create(flat(code)), 'account', 201);
      const today = await businessDate();
      const res = await expectRefused(
        () => changeRate(code, { annualRate: '0.02', effectiveFrom: nextDay(today, days) }),
        422,
        'PRODUCT_RATE_NOT_ALLOWED',
        'effectiveFrom',
      );
      expect(res.json.error.details[0].code).toBe('NOT_AFTER_BUSINESS_DATE');
    },
  );

  it.each([
    ['no date', { annualRate: '0.02' }, 'effectiveFrom'],
    ['a date that is none', { annualRate: '0.02', effectiveFrom: '2027-02-30' }, 'effectiveFrom'],
    ['a rate of 1', { annualRate: '1', effectiveFrom: '2099-01-01' }, 'annualRate'],
    ['neither form', { effectiveFrom: '2099-01-01' }, 'annualRate'],
    [
      'tiers not ascending',
      {
        tiers: [
          { minimumBalance: '0', annualRate: '0.01' },
          { minimumBalance: '0', annualRate: '0.02' },
        ],
        effectiveFrom: '2099-01-01',
      },
      'tiers.1.minimumBalance',
    ],
    ['another field', { annualRate: '0.02', effectiveFrom: '2099-01-01', dayCount: 'ACTUAL_360' }, 'dayCount'],
  ])('refuses %s with VALIDATION_FAILED naming the field; nothing written', async (_what, body, field) => {
    const code = newCode();
    expectSuccess(await create(flat(code)), 'account', 201);
    await expectRefused(() => changeRate(code, body), 400, 'VALIDATION_FAILED', field);
  });

  it('answers PRODUCT_NOT_FOUND for an unknown code; needs products:write', async () => {
    await expectRefused(
      () => changeRate('NO_SUCH_PRODUCT', { annualRate: '0.02', effectiveFrom: '2099-01-01' }),
      404,
      'PRODUCT_NOT_FOUND',
    );
    const code = newCode();
    expectSuccess(await create(flat(code)), 'account', 201);
    await expectRefused(
      () => changeRate(code, { annualRate: '0.02', effectiveFrom: '2099-01-01' }, { headers: bearer(reader) }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /{environment}/product', () => {
  it('pages products by code; the cursor is the last code; another environment has none of them', async () => {
    const codes = [newCode('PAGED_A'), newCode('PAGED_B'), newCode('PAGED_C')];
    for (const code of codes) expectSuccess(await create(flat(code)), 'account', 201);
    const all: string[] = [];
    let after: string | null = null;
    do {
      const query: string = `?limit=2${after ? `&after=${after}` : ''}`;
      const page = await service.call('GET', `/sandbox/product${query}`, { headers: bearer(reader) });
      expectSuccess(page, 'account', 200);
      expect(page.json.data.products.length).toBeLessThanOrEqual(2);
      all.push(...page.json.data.products.map((product: { code: string }) => product.code));
      after = page.json.data.nextAfter;
    } while (after !== null);
    expect(all).toEqual([...all].sort());
    for (const code of codes) expect(all).toContain(code);
    const other = await service.call('GET', '/production-like/product', { headers: bearer(reader) });
    expectSuccess(other, 'account', 200);
    expect(other.json.data).toEqual({ products: [], nextAfter: null });
    expectFailure(
      await service.call('GET', `/production-like/product/${codes[0]}`, { headers: bearer(reader) }),
      'account',
      404,
      'PRODUCT_NOT_FOUND',
    );
  });

  it.each([
    ['a limit of 0', '?limit=0', 'limit'],
    ['a limit of 101', '?limit=101', 'limit'],
    ['a cursor that is no code', '?after=not-a-code', 'after'],
  ])('refuses %s with VALIDATION_FAILED', async (_what, query, field) => {
    const res = await service.call('GET', `/sandbox/product${query}`, { headers: bearer(reader) });
    expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details.map((detail: { field?: string }) => detail.field)).toContain(field);
  });

  it('answers PRODUCT_NOT_FOUND for an unknown or malformed code; reading needs products:read', async () => {
    expectFailure(await get('NO_SUCH_PRODUCT'), 'account', 404, 'PRODUCT_NOT_FOUND');
    expectFailure(await get('not a code'), 'account', 404, 'PRODUCT_NOT_FOUND');
    const code = newCode();
    expectSuccess(await create(flat(code)), 'account', 201);
    expectFailure(await get(code, { headers: bearer(writer) }), 'account', 403, 'FORBIDDEN');
    expectFailure(
      await service.call('GET', '/sandbox/product', { headers: bearer(writer) }),
      'account',
      403,
      'FORBIDDEN',
    );
  });

  it('a product and its rates never change in the database, whatever statement tries', async () => {
    const code = newCode();
    expectSuccess(await create(flat(code)), 'account', 201);
    await expect(
      service.database.pool.query("UPDATE products SET name = 'Renamed' WHERE code = $1", [code]),
    ).rejects.toThrow(/never change/);
    await expect(
      service.database.pool.query(
        'UPDATE product_rates SET annual_rate = 0.5 WHERE product_id = (SELECT id FROM products WHERE code = $1)',
        [code],
      ),
    ).rejects.toThrow(/never change/);
  });
});
