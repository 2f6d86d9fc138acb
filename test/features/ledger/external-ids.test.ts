import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange as expectNoChangeIn } from '../../support/database.js';
import { eventually } from '../../support/eventually.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * externalId and metadata on transactions and transfers (issue 30): given at creation, answered in every read
 * and event only when set, an externalId unique per environment and kind (409 EXTERNAL_ID_TAKEN, nothing
 * moved), and a retry with the same Idempotency-Key answering the original. Through REST and GraphQL.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);
const expectSoundLedger = async () => expect(await ledgerViolations(service.database.pool)).toEqual([]);

/** The contract's fields of a transaction: a record without externalId and metadata has exactly these. */
const TRANSACTION_KEYS = [
  'transactionId',
  'accountId',
  'type',
  'amount',
  'authorizedAmount',
  'currency',
  'description',
  'status',
  'balanceAfter',
  'createdAt',
  'postedAt',
  'voidedAt',
  'expiresAt',
  'transferId',
  'reversesTransactionId',
].sort();

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;

async function newAccount(environment = 'sandbox', currency = 'USD'): Promise<string> {
  const { customerId } = await createCustomer(service, {}, environment);
  const res = await service.call('POST', `/${environment}/account`, {
    body: { associatedCustomerIds: [customerId], name: 'External ids', currency, type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

const post = (accountId: string, body: unknown, headers: Record<string, string> = {}, environment = 'sandbox') =>
  service.call('POST', `/${environment}/account/${accountId}/transaction`, { body, headers });
const transfer = (body: unknown, headers: Record<string, string> = {}) =>
  service.call('POST', '/sandbox/transfer', { body, headers });

describe('externalId and metadata on a transaction (REST)', () => {
  it('answers them on creation, in reads, in the list and in the event; a transaction without them keeps exactly the contract`s fields', async () => {
    const accountId = await newAccount();
    const externalId = unique('payroll');
    const metadata = { orderId: 'A-1', 'source system': 'payroll' };
    const created = await post(accountId, { type: 'CREDIT', amount: 40, externalId, metadata });
    expectSuccess(created, 'account', 201);
    expect(created.json.data).toMatchObject({ externalId, metadata, amount: 40 });
    const { transactionId } = created.json.data;

    const read = await service.call('GET', `/sandbox/account/${accountId}/transaction/${transactionId}`);
    expect(read.json.data).toEqual(created.json.data);
    const list = await service.call('GET', `/sandbox/account/${accountId}/transaction`);
    expect(list.json.data.transactions).toEqual([created.json.data]);
    const account = await service.call('GET', `/sandbox/account/${accountId}`);
    expect(account.json.data.transactions[0]).toEqual(created.json.data);

    const event = await eventually(
      async () =>
        (
          (await service.call('GET', '/sandbox/event?after=0&limit=100')).json.data.events as {
            resourceId: string;
            data: unknown;
          }[]
        ).find((e) => e.resourceId === transactionId),
      (found) => found !== undefined,
    );
    expect(event!.data).toEqual(created.json.data);

    const plain = await post(accountId, { type: 'DEBIT', amount: 1 });
    expectSuccess(plain, 'account', 201);
    expect(Object.keys(plain.json.data).sort()).toEqual(TRANSACTION_KEYS);
    const plainRead = await service.call(
      'GET',
      `/sandbox/account/${accountId}/transaction/${plain.json.data.transactionId}`,
    );
    expect(Object.keys(plainRead.json.data).sort()).toEqual(TRANSACTION_KEYS);
    await expectSoundLedger();
  });

  it('refuses an externalId another transaction of the environment has: 409, nothing moves; another environment may use it', async () => {
    const accountId = await newAccount();
    const other = await newAccount();
    const externalId = unique('dup');
    expectSuccess(await post(accountId, { type: 'CREDIT', amount: 10, externalId }), 'account', 201);
    const refused = await expectNoChange(() => post(other, { type: 'CREDIT', amount: 10, externalId }));
    expectFailure(refused, 'account', 409, 'EXTERNAL_ID_TAKEN');
    expect(refused.json.error.details).toEqual([
      { field: 'externalId', code: 'EXTERNAL_ID_TAKEN', message: expect.any(String) },
    ]);
    expect(refused.text).not.toContain(externalId);
    // A hold is a transaction too.
    expectFailure(
      await expectNoChange(() => post(accountId, { type: 'DEBIT', amount: 1, hold: true, externalId })),
      'account',
      409,
      'EXTERNAL_ID_TAKEN',
    );

    const elsewhere = await newAccount('production-like');
    expectSuccess(
      await post(elsewhere, { type: 'CREDIT', amount: 10, externalId }, {}, 'production-like'),
      'account',
      201,
    );
    await expectSoundLedger();
  });

  it('a retry with the same Idempotency-Key answers the original; the same externalId under another key is refused', async () => {
    const accountId = await newAccount();
    const body = { type: 'CREDIT', amount: 7, externalId: unique('retry'), metadata: { attempt: '1' } };
    const key = unique('key');
    const first = await post(accountId, body, { 'idempotency-key': key });
    expectSuccess(first, 'account', 201);

    const again = await expectNoChange(() => post(accountId, body, { 'idempotency-key': key }));
    expectSuccess(again, 'account', 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data).toEqual(first.json.data);

    expectFailure(
      await expectNoChange(() => post(accountId, body, { 'idempotency-key': unique('key') })),
      'account',
      409,
      'EXTERNAL_ID_TAKEN',
    );
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.amount).toBe(7);
    await expectSoundLedger();
  });

  it('refuses invalid externalIds and metadata with details that never echo them', async () => {
    const accountId = await newAccount();
    const secret = 'do-not-echo-7781';
    const cases: [unknown, string][] = [
      [{ externalId: '' }, 'externalId'],
      [{ externalId: `${secret}${'x'.repeat(128)}` }, 'externalId'],
      [{ externalId: 42 }, 'externalId'],
      [{ metadata: { [`${secret}${'k'.repeat(40)}`]: 'v' } }, 'metadata'],
      // A value's problem names its key once the key itself is valid (docs/adr/0055-external-ids-and-metadata.md), never the value.
      [{ metadata: { key: `${secret}${'v'.repeat(500)}` } }, 'metadata.key'],
      [{ metadata: { key: 5 } }, 'metadata.key'],
      [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [{ metadata: [secret] }, 'metadata'],
    ];
    for (const [extra, field] of cases) {
      const res = await expectNoChange(() => post(accountId, { type: 'CREDIT', amount: 1, ...(extra as object) }));
      expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
      expect(res.text).not.toContain(secret);
    }
    // The limits themselves are allowed.
    const limits = {
      externalId: 'e'.repeat(128),
      metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}`.padEnd(40, 'k'), 'v'.repeat(500)])),
    };
    expectSuccess(await post(accountId, { type: 'CREDIT', amount: 1, ...limits }), 'account', 201);
  });
});

describe('externalId and metadata on a transfer (REST)', () => {
  it('answers them on the transfer and both of its sides; unique among transfers, apart from transactions', async () => {
    const from = await newAccount();
    const to = await newAccount();
    expectSuccess(await post(from, { type: 'CREDIT', amount: 100 }), 'account', 201);
    const externalId = unique('rent');
    // A transaction may carry the same externalId as a transfer: they are different kinds of record.
    expectSuccess(await post(to, { type: 'CREDIT', amount: 1, externalId }), 'account', 201);

    const res = await transfer({
      fromAccountId: from,
      toAccountId: to,
      amount: 30,
      externalId,
      metadata: { lease: '12' },
    });
    expectSuccess(res, 'account', 201);
    expect(res.json.data).toMatchObject({ externalId, metadata: { lease: '12' } });
    expect(res.json.data.debit).toMatchObject({ externalId, metadata: { lease: '12' } });
    expect(res.json.data.credit).toMatchObject({ externalId, metadata: { lease: '12' } });
    const read = await service.call('GET', `/sandbox/transfer/${res.json.data.transferId}`);
    expect(read.json.data).toEqual(res.json.data);

    const again = await expectNoChange(() => transfer({ fromAccountId: from, toAccountId: to, amount: 5, externalId }));
    expectFailure(again, 'account', 409, 'EXTERNAL_ID_TAKEN');
    expect(again.json.error.message).toMatch(/transfer/);

    const plain = await transfer({ fromAccountId: from, toAccountId: to, amount: 5 });
    expectSuccess(plain, 'account', 201);
    expect(Object.keys(plain.json.data).sort()).toEqual([
      'amount',
      'credit',
      'currency',
      'debit',
      'description',
      'transferId',
    ]);
    expect(Object.keys(plain.json.data.debit).sort()).toEqual(TRANSACTION_KEYS);
    await expectSoundLedger();
  });
});

describe('externalId and metadata over GraphQL', () => {
  const POST = `mutation($accountId: ID!, $input: PostTransactionInput!, $key: String) {
    postTransaction(accountId: $accountId, input: $input, idempotencyKey: $key) { transactionId amount externalId metadata }
  }`;
  const TRANSFER = `mutation($input: TransferInput!) { transfer(input: $input) { transferId externalId metadata debit { externalId metadata } credit { externalId } } }`;

  it('takes and answers them, null when unset; a duplicate is EXTERNAL_ID_TAKEN and moves nothing', async () => {
    const accountId = await newAccount();
    const other = await newAccount();
    const externalId = unique('gql');
    const created = await graphql(service, POST, {
      accountId,
      input: { type: 'CREDIT', amount: '12.5', externalId, metadata: { channel: 'app' } },
    });
    expect(created.json.errors).toBeUndefined();
    expect(created.json.data.postTransaction).toMatchObject({
      amount: '12.5',
      externalId,
      metadata: { channel: 'app' },
    });

    const literal = await graphql(
      service,
      `
        mutation ($a: ID!) {
          postTransaction(accountId: $a, input: { type: CREDIT, amount: "1", metadata: { note: "literal" } }) {
            externalId
            metadata
          }
        }
      `,
      { a: accountId },
    );
    expect(literal.json.data.postTransaction).toEqual({ externalId: null, metadata: { note: 'literal' } });

    const duplicate = await expectNoChange(() =>
      graphql(service, POST, { accountId: other, input: { type: 'CREDIT', amount: '1', externalId } }),
    );
    expect(errorCodes(duplicate)).toEqual(['EXTERNAL_ID_TAKEN']);

    const badMetadata = await expectNoChange(() =>
      graphql(service, POST, { accountId, input: { type: 'CREDIT', amount: '1', metadata: { key: 5 } } }),
    );
    expect(badMetadata.json.errors).toHaveLength(1);
    const tooMany = await expectNoChange(() =>
      graphql(service, POST, {
        accountId,
        input: {
          type: 'CREDIT',
          amount: '1',
          metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
        },
      }),
    );
    expect(errorCodes(tooMany)).toEqual(['VALIDATION_FAILED']);

    await graphql(service, POST, { accountId, input: { type: 'CREDIT', amount: '100' } });
    const moved = await graphql(service, TRANSFER, {
      input: { fromAccountId: accountId, toAccountId: other, amount: '10', externalId, metadata: { why: 'split' } },
    });
    expect(moved.json.errors).toBeUndefined();
    expect(moved.json.data.transfer).toMatchObject({
      externalId,
      metadata: { why: 'split' },
      debit: { externalId, metadata: { why: 'split' } },
      credit: { externalId },
    });
    const movedAgain = await expectNoChange(() =>
      graphql(service, TRANSFER, { input: { fromAccountId: accountId, toAccountId: other, amount: '10', externalId } }),
    );
    expect(errorCodes(movedAgain)).toEqual(['EXTERNAL_ID_TAKEN']);
    await expectSoundLedger();
  });
});
