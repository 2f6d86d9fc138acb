import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { eventually } from '../../support/eventually.js';

/**
 * Deposit products over GraphQL (docs/adr/0112), through HTTP against the real database: `createProduct` and
 * `changeProductRate` with REST's rules and codes (VALIDATION_FAILED naming the field, PRODUCT_CODE_TAKEN,
 * PRODUCT_RATE_NOT_ALLOWED, PRODUCT_NOT_FOUND), idempotent retries, `product` and `products` (paged by code, REST's
 * cursor), the one scope of each field, and nothing written by a refusal.
 */

let service: TestService;
const tokens = { writer: '', reader: '' };
beforeAll(async () => {
  service = await startTestService();
  const { pool } = service.database;
  tokens.writer = (await issueApiToken(pool, { environments: ['sandbox'], scopes: ['products:write'] })).token;
  tokens.reader = (await issueApiToken(pool, { environments: ['sandbox'], scopes: ['products:read'] })).token;
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });

function data(result: CallResult) {
  expect(result.status).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return result.json.data;
}

const RATE = 'effectiveFrom annualRate tiers { minimumBalance annualRate }';
const PRODUCT = `id productId code name accountType currency
  interest { dayCount balanceBasis compounding posting rate { ${RATE} } rateHistory { ${RATE} } }
  fees { monthlyMaintenance { amount waivedAtMinimumDailyBalance } }
  minimumOpeningDeposit minimumBalance limits { dailyWithdrawalTotal withdrawalsPerMonth } createdAt`;
const CREATE = `mutation($input: CreateProductInput!, $key: String) { createProduct(input: $input, idempotencyKey: $key) { ${PRODUCT} } }`;
const CHANGE = `mutation($code: String!, $input: ChangeProductRateInput!) { changeProductRate(code: $code, input: $input) { ${PRODUCT} } }`;
const PRODUCT_QUERY = `query($code: String!) { product(code: $code) { ${PRODUCT} } }`;
const PRODUCTS = `query($first: Int, $after: String) { products(first: $first, after: $after) { edges { cursor node { code } } nodes { code } pageInfo { hasNextPage endCursor } } }`;

let serial = 0;
const newCode = (prefix = 'GQL') => `${prefix}_${++serial}`;
const input = (code = newCode(), overrides: Record<string, unknown> = {}) => ({
  code,
  name: 'Money market',
  accountType: 'MONEY_MARKET',
  currency: 'USD',
  interest: {
    tiers: [
      { minimumBalance: '0', annualRate: '0.005' },
      { minimumBalance: '25000', annualRate: '0.0375' },
    ],
    dayCount: 'ACTUAL_ACTUAL',
    balanceBasis: 'AVERAGE_DAILY',
    compounding: 'DAILY',
    posting: 'MONTHLY',
  },
  fees: { monthlyMaintenance: { amount: '12.00' } },
  limits: { withdrawalsPerMonth: 6 },
  ...overrides,
});

async function snapshot(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*)::text FROM products) AS products, (SELECT count(*)::text FROM product_rates) AS rates,
            (SELECT count(*)::text FROM audit_events) AS audit, (SELECT count(*)::text FROM events) AS events`,
  );
  return rows[0]!;
}

async function expectRefused(request: () => Promise<CallResult>, code: string): Promise<CallResult> {
  const before = await snapshot();
  const result = await request();
  expect(result.status).toBe(200);
  expect(errorCodes(result), result.text).toEqual([code]);
  expect(await snapshot()).toEqual(before);
  return result;
}

async function businessDate(): Promise<string> {
  const result = await graphql(service, '{ clock { businessDate } }');
  return data(result).clock.businessDate as string;
}
const nextDay = (date: string, days = 1) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('createProduct, product and products', () => {
  it('defines a tiered product and reads it back as REST answers it', async () => {
    const today = await businessDate();
    const code = newCode();
    const product = data(await graphql(service, CREATE, { input: input(code) }, as(tokens.writer))).createProduct;
    const rate = {
      effectiveFrom: today,
      annualRate: null,
      tiers: [
        { minimumBalance: '0', annualRate: '0.005' },
        { minimumBalance: '25000', annualRate: '0.0375' },
      ],
    };
    expect(product).toEqual({
      id: product.productId,
      productId: expect.any(String),
      code,
      name: 'Money market',
      accountType: 'MONEY_MARKET',
      currency: 'USD',
      interest: {
        dayCount: 'ACTUAL_ACTUAL',
        balanceBasis: 'AVERAGE_DAILY',
        compounding: 'DAILY',
        posting: 'MONTHLY',
        rate,
        rateHistory: [rate],
      },
      fees: { monthlyMaintenance: { amount: '12', waivedAtMinimumDailyBalance: null } },
      minimumOpeningDeposit: null,
      minimumBalance: null,
      limits: { dailyWithdrawalTotal: null, withdrawalsPerMonth: 6 },
      createdAt: expect.any(String),
    });
    expect(data(await graphql(service, PRODUCT_QUERY, { code }, as(tokens.reader))).product).toEqual(product);
    const rest = await service.call('GET', `/sandbox/product/${code}`);
    expect(rest.json.data.productId).toBe(product.productId);
    expect(rest.json.data.interest).toEqual(product.interest);
  });

  it('replays a creation retried with its idempotencyKey (extensions.idempotentReplayed)', async () => {
    const code = newCode();
    const first = data(await graphql(service, CREATE, { input: input(code), key: `gql-${code}` }, as(tokens.writer)));
    const before = await snapshot();
    const again = await graphql(service, CREATE, { input: input(code), key: `gql-${code}` }, as(tokens.writer));
    expect(data(again)).toEqual(first);
    expect(again.json.extensions.idempotentReplayed).toEqual(['createProduct']);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses what REST refuses, with its codes and the field named; nothing written', async () => {
    const code = newCode();
    data(await graphql(service, CREATE, { input: input(code) }, as(tokens.writer)));
    await expectRefused(
      () => graphql(service, CREATE, { input: input(code) }, as(tokens.writer)),
      'PRODUCT_CODE_TAKEN',
    );
    const tooHigh = await expectRefused(
      () =>
        graphql(
          service,
          CREATE,
          { input: input(newCode(), { interest: { ...input().interest, tiers: undefined, annualRate: '1.25' } }) },
          as(tokens.writer),
        ),
      'VALIDATION_FAILED',
    );
    expect(tooHigh.json.errors[0].extensions.details).toEqual([
      expect.objectContaining({ field: 'interest.annualRate' }),
    ]);
    const cents = await expectRefused(
      () =>
        graphql(
          service,
          CREATE,
          { input: input(newCode(), { fees: { monthlyMaintenance: { amount: '1.005' } } }) },
          as(tokens.writer),
        ),
      'VALIDATION_FAILED',
    );
    expect(cents.json.errors[0].extensions.details).toEqual([
      expect.objectContaining({ field: 'fees.monthlyMaintenance.amount', code: 'TOO_PRECISE' }),
    ]);
    await expectRefused(() => graphql(service, CREATE, { input: input() }, as(tokens.reader)), 'FORBIDDEN');
  });

  it('pages products by code; the cursor is the code, as REST answers it', async () => {
    for (let i = 0; i < 3; i++)
      data(await graphql(service, CREATE, { input: input(newCode('PAGE')) }, as(tokens.writer)));
    const codes: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: {
        edges: { cursor: string; node: { code: string } }[];
        nodes: { code: string }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      } = data(await graphql(service, PRODUCTS, { first: 2, after }, as(tokens.reader))).products;
      expect(page.edges.map((edge) => edge.cursor)).toEqual(page.nodes.map((node) => node.code));
      codes.push(...page.nodes.map((node) => node.code));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(codes).toEqual([...codes].sort());
    expect(codes.filter((code) => code.startsWith('PAGE_'))).toHaveLength(3);
    const rest = await service.call('GET', `/sandbox/product?limit=1&after=${codes[0]}`);
    expect(rest.json.data.products[0].code).toBe(codes[1]);
  });

  it('answers PRODUCT_NOT_FOUND for an unknown code; reading needs products:read', async () => {
    const missing = await graphql(service, PRODUCT_QUERY, { code: 'NO_SUCH_PRODUCT' }, as(tokens.reader));
    expect(errorCodes(missing)).toEqual(['PRODUCT_NOT_FOUND']);
    expect(errorCodes(await graphql(service, PRODUCTS, {}, as(tokens.writer)))).toEqual(['FORBIDDEN']);
  });
});

describe('changeProductRate', () => {
  it('schedules a flat rate after the business date; refuses today, a taken date and an unknown product', async () => {
    const today = await businessDate();
    const code = newCode();
    data(await graphql(service, CREATE, { input: input(code) }, as(tokens.writer)));
    const changed = data(
      await graphql(
        service,
        CHANGE,
        { code, input: { annualRate: '0.04', effectiveFrom: nextDay(today) } },
        as(tokens.writer),
      ),
    ).changeProductRate;
    expect(changed.interest.rate.effectiveFrom).toBe(today);
    expect(changed.interest.rateHistory[0]).toEqual({ effectiveFrom: nextDay(today), annualRate: '0.04', tiers: null });
    for (const effectiveFrom of [today, nextDay(today)]) {
      const refused = await expectRefused(
        () => graphql(service, CHANGE, { code, input: { annualRate: '0.05', effectiveFrom } }, as(tokens.writer)),
        'PRODUCT_RATE_NOT_ALLOWED',
      );
      expect(refused.json.errors[0].extensions.details).toEqual([expect.objectContaining({ field: 'effectiveFrom' })]);
    }
    await expectRefused(
      () => graphql(service, CHANGE, { code, input: { effectiveFrom: nextDay(today, 3) } }, as(tokens.writer)),
      'VALIDATION_FAILED',
    );
    await expectRefused(
      () =>
        graphql(
          service,
          CHANGE,
          { code: 'NO_SUCH_PRODUCT', input: { annualRate: '0.05', effectiveFrom: nextDay(today, 3) } },
          as(tokens.writer),
        ),
      'PRODUCT_NOT_FOUND',
    );
    await expectRefused(
      () =>
        graphql(
          service,
          CHANGE,
          { code, input: { annualRate: '0.05', effectiveFrom: nextDay(today, 3) } },
          as(tokens.reader),
        ),
      'FORBIDDEN',
    );
  });
});

describe('the product events over GraphQL and REST', () => {
  it('product.created and product.rate_changed carry the code (and the date) only; any events:read reader sees them', async () => {
    const today = await businessDate();
    const code = newCode('EVENTS');
    const { productId } = data(await graphql(service, CREATE, { input: input(code) }, as(tokens.writer))).createProduct;
    const effectiveFrom = nextDay(today, 4);
    data(await graphql(service, CHANGE, { code, input: { annualRate: '0.03', effectiveFrom } }, as(tokens.writer)));
    const eventsReader = (
      await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['events:read'] })
    ).token;
    const QUERY =
      '{ events(types: ["product.created", "product.rate_changed"], first: 100) { events { type resourceType resourceId productCode effectiveFrom changedFields } } }';
    // Numbered by the sequencer after commit: a pass is run on demand until both are there.
    const result = await eventually(
      async () => {
        await service.jobs.eventOutbox.runOnce();
        return graphql(service, QUERY, {}, as(eventsReader));
      },
      (answer) =>
        (answer.json?.data?.events?.events ?? []).filter(
          (event: { resourceId: string }) => event.resourceId === productId,
        ).length === 2,
    );
    const mine = data(result).events.events.filter((event: { resourceId: string }) => event.resourceId === productId);
    expect(mine).toEqual([
      {
        type: 'product.created',
        resourceType: 'product',
        resourceId: productId,
        productCode: code,
        effectiveFrom: null,
        changedFields: ['code', 'name', 'accountType', 'currency', 'interest', 'fees', 'limits'],
      },
      {
        type: 'product.rate_changed',
        resourceType: 'product',
        resourceId: productId,
        productCode: code,
        effectiveFrom,
        changedFields: ['annualRate', 'effectiveFrom'],
      },
    ]);
    const rest = await service.call('GET', '/sandbox/event?types=product.rate_changed&limit=100', {
      auth: false,
      headers: { authorization: `Bearer ${eventsReader}` },
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.json.data.events.find((event: { resourceId: string }) => event.resourceId === productId).data).toEqual({
      productId,
      code,
      effectiveFrom,
    });
  });
});
