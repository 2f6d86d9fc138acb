import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insufficientFunds } from '../../../src/domain/errors.js';
import { encodeCursor } from '../../../src/graphql/pagination.js';
import { expectNoChange as expectNoChangeIn } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * The ledger over GraphQL (issue 15), against the real service on a real PostgreSQL: the same rules and
 * codes as REST (test/features/ledger/rest.test.ts), each money-moving test ending with the ledger's invariants.
 */
let service: TestService;
beforeAll(async () => {
  // The N+1 query below reads 20 accounts with pages of transactions; the cost limit is not tested here.
  service = await startTestService({ GRAPHQL_MAX_COST: '100000' });
});
afterAll(async () => service?.stop());

const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);
const expectSoundLedger = async () => expect(await ledgerViolations(service.database.pool)).toEqual([]);

const TRANSACTION = `transactionId accountId type amount authorizedAmount currency description status balanceAfter
  createdAt postedAt voidedAt expiresAt transferId reversesTransactionId`;
const BALANCES = 'amount balance { posted pending available } overdraftLimit flags';

const POST = `mutation Post($accountId: ID!, $input: PostTransactionInput!, $key: String) {
  postTransaction(accountId: $accountId, input: $input, idempotencyKey: $key) { ${TRANSACTION} account { accountId ${BALANCES} } }
}`;
const POST_HOLD = `mutation PostHold($accountId: ID!, $transactionId: ID!, $amount: Decimal) {
  postHold(accountId: $accountId, transactionId: $transactionId, amount: $amount) { ${TRANSACTION} account { ${BALANCES} } }
}`;
const VOID_HOLD = `mutation VoidHold($accountId: ID!, $transactionId: ID!) {
  voidHold(accountId: $accountId, transactionId: $transactionId) { ${TRANSACTION} account { ${BALANCES} } }
}`;
const REVERSE = `mutation Reverse($accountId: ID!, $transactionId: ID!, $description: String) {
  reverseTransaction(accountId: $accountId, transactionId: $transactionId, description: $description) { ${TRANSACTION} account { ${BALANCES} } }
}`;
const TRANSFER = `mutation Transfer($input: TransferInput!, $key: String) {
  transfer(input: $input, idempotencyKey: $key) {
    transferId amount currency description
    debit { ${TRANSACTION} account { ${BALANCES} } }
    credit { ${TRANSACTION} account { ${BALANCES} } }
  }
}`;
const ACCOUNT = `query Account($id: ID!, $first: Int, $after: String) {
  account(accountId: $id) {
    accountId ${BALANCES}
    transactions(first: $first, after: $after) { edges { cursor node { ${TRANSACTION} } } nodes { transactionId amount } pageInfo { hasNextPage endCursor } }
  }
}`;

/** The data of an answer that must have succeeded. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(request: Promise<Awaited<ReturnType<typeof graphql>>>): Promise<any> {
  const result = await request;
  expect(result.status).toBe(200);
  expect(errorCodes(result)).toEqual([]);
  return result.json.data;
}

async function newAccount(currency = 'USD', customerIds?: string[]): Promise<string> {
  const owners = customerIds ?? [await createCustomer(service, buildCustomerInput())];
  return createAccount(service, buildAccountInput(owners, { name: 'Ledger test', currency }));
}

const post = (accountId: string, input: Record<string, unknown>, key?: string) =>
  graphql(service, POST, { accountId, input, ...(key !== undefined && { key }) });
const posted = async (accountId: string, input: Record<string, unknown>) =>
  (await ok(post(accountId, input))).postTransaction;
const readAccount = async (id: string, page: { first?: number; after?: string } = {}) =>
  (await ok(graphql(service, ACCOUNT, { id, ...page }))).account;

describe('deposits and withdrawals', () => {
  it('a CREDIT raises the balance, a DEBIT lowers it; each answers the transaction with its running balance', async () => {
    const accountId = await newAccount();
    const credit = await posted(accountId, { type: 'CREDIT', amount: '25.50', description: 'Payroll' });
    expect(credit).toMatchObject({
      accountId,
      type: 'CREDIT',
      amount: '25.5',
      authorizedAmount: '25.5',
      currency: 'USD',
      description: 'Payroll',
      status: 'POSTED',
      balanceAfter: '25.5',
      voidedAt: null,
      expiresAt: null,
      transferId: null,
      reversesTransactionId: null,
      account: { accountId, amount: '25.5', balance: { posted: '25.5', pending: '25.5', available: '25.5' } },
    });
    expect(new Date(credit.postedAt).getTime()).toBeGreaterThan(0);
    const debit = await posted(accountId, { type: 'DEBIT', amount: '0.5' });
    expect(debit).toMatchObject({ type: 'DEBIT', amount: '0.5', balanceAfter: '25', description: '' });

    const account = await readAccount(accountId);
    expect(account).toMatchObject({
      amount: '25',
      balance: { posted: '25', pending: '25', available: '25' },
      overdraftLimit: '0',
      flags: [],
    });
    expect(account.transactions.nodes.map((t: { transactionId: string }) => t.transactionId)).toEqual([
      debit.transactionId,
      credit.transactionId,
    ]);
    expect(account.transactions.pageInfo).toEqual({
      hasNextPage: false,
      endCursor: account.transactions.edges[1].cursor,
    });
    // The same transactions as REST answers, amounts as exact decimal strings instead of JSON numbers.
    const rest = await service.call('GET', `/sandbox/account/${accountId}/transaction`);
    expect(account.transactions.edges.map((edge: { node: Record<string, unknown> }) => edge.node)).toEqual(
      rest.json.data.transactions.map((t: Record<string, unknown>) => ({
        ...t,
        amount: String(t.amount),
        authorizedAmount: String(t.authorizedAmount),
        balanceAfter: String(t.balanceAfter),
      })),
    );
    await expectSoundLedger();
  });

  it('INSUFFICIENT_FUNDS is mapped like every conflict: REST code and message in extensions, data null, nothing written', async () => {
    const accountId = await newAccount();
    await posted(accountId, { type: 'CREDIT', amount: '10' });
    const refused = await expectNoChange(() => post(accountId, { type: 'DEBIT', amount: '10.01' }));
    expect(refused.status).toBe(200);
    expect(refused.json.data).toBeNull();
    expect(refused.json.errors).toEqual([
      {
        message: insufficientFunds().message,
        locations: expect.any(Array),
        path: ['postTransaction'],
        extensions: { code: 'INSUFFICIENT_FUNDS', requestId: refused.headers.get('x-request-id') },
      },
    ]);
    const rest = await expectNoChange(() =>
      service.call('POST', `/sandbox/account/${accountId}/transaction`, { body: { type: 'DEBIT', amount: 10.01 } }),
    );
    expect(rest.status).toBe(409);
    expect({ code: rest.json.error.code, message: rest.json.error.message }).toEqual({
      code: 'INSUFFICIENT_FUNDS',
      message: refused.json.errors[0].message,
    });
    await expectSoundLedger();
  });

  it('refuses amounts with more decimals than the currency has, non-positive ones and unknown accounts, writing nothing', async () => {
    const usd = await newAccount('USD');
    const jpy = await newAccount('JPY');
    for (const [accountId, amount] of [
      [usd, '1.001'],
      [jpy, '1.5'],
      [usd, '0'],
      [usd, '-3'],
    ] as const) {
      const refused = await expectNoChange(() => post(accountId, { type: 'CREDIT', amount }));
      expect(errorCodes(refused), amount).toEqual(['VALIDATION_FAILED']);
      expect(refused.json.errors[0].extensions.details).toMatchObject([{ field: 'amount' }]);
    }
    // Not a decimal at all: the Decimal scalar refuses it before any resolver runs.
    expect(errorCodes(await expectNoChange(() => post(usd, { type: 'CREDIT', amount: 12.5 })))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(errorCodes(await expectNoChange(() => post(usd, { type: 'SEND', amount: '3' })))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(errorCodes(await post('0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', { type: 'CREDIT', amount: '1' }))).toEqual([
      'ACCOUNT_NOT_FOUND',
    ]);
    expect((await posted(jpy, { type: 'CREDIT', amount: '1500' })).amount).toBe('1500');
    await expectSoundLedger();
  });
});

describe('holds', () => {
  it('a DEBIT hold lowers the available balance only; posting it for less releases the rest; a voided hold frees its amount', async () => {
    const accountId = await newAccount();
    await posted(accountId, { type: 'CREDIT', amount: '100' });
    const hold = await posted(accountId, {
      type: 'DEBIT',
      amount: '60',
      hold: true,
      description: 'Card authorisation',
    });
    expect(hold).toMatchObject({
      status: 'PENDING',
      amount: '60',
      authorizedAmount: '60',
      balanceAfter: null,
      postedAt: null,
      account: { amount: '100', balance: { posted: '100', pending: '40', available: '40' } },
    });
    expect(errorCodes(await expectNoChange(() => post(accountId, { type: 'DEBIT', amount: '50' })))).toEqual([
      'INSUFFICIENT_FUNDS',
    ]);

    const settled = (
      await ok(graphql(service, POST_HOLD, { accountId, transactionId: hold.transactionId, amount: '45' }))
    ).postHold;
    expect(settled).toMatchObject({
      transactionId: hold.transactionId,
      status: 'POSTED',
      amount: '45',
      authorizedAmount: '60',
      balanceAfter: '55',
      account: { balance: { posted: '55', pending: '55', available: '55' } },
    });
    const again = await expectNoChange(() =>
      graphql(service, VOID_HOLD, { accountId, transactionId: hold.transactionId }),
    );
    expect(errorCodes(again)).toEqual(['TRANSACTION_NOT_PENDING']);

    const second = await posted(accountId, { type: 'DEBIT', amount: '55', hold: true });
    expect(
      errorCodes(
        await expectNoChange(() =>
          graphql(service, POST_HOLD, { accountId, transactionId: second.transactionId, amount: '56' }),
        ),
      ),
    ).toEqual(['AMOUNT_EXCEEDS_HOLD']);
    const voided = (await ok(graphql(service, VOID_HOLD, { accountId, transactionId: second.transactionId }))).voidHold;
    expect(voided).toMatchObject({
      status: 'VOIDED',
      balanceAfter: null,
      account: { balance: { posted: '55', pending: '55', available: '55' } },
    });
    expect(voided.voidedAt).not.toBeNull();
    expect(
      errorCodes(
        await graphql(service, POST_HOLD, { accountId, transactionId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e' }),
      ),
    ).toEqual(['TRANSACTION_NOT_FOUND']);

    // A whole hold posts without `amount`.
    const third = await posted(accountId, { type: 'DEBIT', amount: '5', hold: true });
    expect(
      (await ok(graphql(service, POST_HOLD, { accountId, transactionId: third.transactionId }))).postHold,
    ).toMatchObject({ status: 'POSTED', amount: '5', balanceAfter: '50' });
    const read = await graphql(
      service,
      'query ($a: ID!, $t: ID!) { transaction(accountId: $a, transactionId: $t) { transactionId status amount } }',
      { a: accountId, t: third.transactionId },
    );
    expect(read.json.data.transaction).toEqual({ transactionId: third.transactionId, status: 'POSTED', amount: '5' });
    const elsewhere = await graphql(
      service,
      'query ($t: ID!) { transaction(accountId: "0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e", transactionId: $t) { transactionId } }',
      { t: third.transactionId },
    );
    expect(elsewhere.json.data.transaction).toBeNull();
    // An explicit null `amount` means the same (the bank test found it refused once).
    const fourth = await posted(accountId, { type: 'DEBIT', amount: '5', hold: true });
    expect(
      (await ok(graphql(service, POST_HOLD, { accountId, transactionId: fourth.transactionId, amount: null })))
        .postHold,
    ).toMatchObject({ status: 'POSTED', amount: '5', balanceAfter: '45' });
    await expectSoundLedger();
  });

  it('an expiry is only for holds, and at most 30 days ahead', async () => {
    const accountId = await newAccount();
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect(
      errorCodes(await expectNoChange(() => post(accountId, { type: 'CREDIT', amount: '1', expiresAt: inAWeek }))),
    ).toEqual(['VALIDATION_FAILED']);
    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
    expect(
      errorCodes(
        await expectNoChange(() => post(accountId, { type: 'CREDIT', amount: '1', hold: true, expiresAt: inAYear })),
      ),
    ).toEqual(['VALIDATION_FAILED']);
    const hold = await posted(accountId, { type: 'CREDIT', amount: '1', hold: true, expiresAt: inAWeek });
    expect(hold).toMatchObject({
      status: 'PENDING',
      expiresAt: inAWeek,
      account: { balance: { posted: '0', pending: '1', available: '0' } },
    });
    await expectSoundLedger();
  });
});

describe('reversals and transfers', () => {
  it('a reversal undoes a posted transaction once; a reversal is not reversible', async () => {
    const accountId = await newAccount();
    const credit = await posted(accountId, { type: 'CREDIT', amount: '30' });
    const reversal = (
      await ok(
        graphql(service, REVERSE, { accountId, transactionId: credit.transactionId, description: 'Duplicate payment' }),
      )
    ).reverseTransaction;
    expect(reversal).toMatchObject({
      accountId,
      type: 'DEBIT',
      amount: '30',
      status: 'POSTED',
      balanceAfter: '0',
      description: 'Duplicate payment',
      reversesTransactionId: credit.transactionId,
      account: { amount: '0' },
    });
    expect(
      errorCodes(
        await expectNoChange(() => graphql(service, REVERSE, { accountId, transactionId: credit.transactionId })),
      ),
    ).toEqual(['TRANSACTION_ALREADY_REVERSED']);
    expect(
      errorCodes(
        await expectNoChange(() => graphql(service, REVERSE, { accountId, transactionId: reversal.transactionId })),
      ),
    ).toEqual(['REVERSAL_NOT_REVERSIBLE']);
    const hold = await posted(accountId, { type: 'CREDIT', amount: '3', hold: true });
    expect(
      errorCodes(
        await expectNoChange(() => graphql(service, REVERSE, { accountId, transactionId: hold.transactionId })),
      ),
    ).toEqual(['TRANSACTION_NOT_POSTED']);
    // Without a description, the domain's default.
    const other = await posted(accountId, { type: 'CREDIT', amount: '2' });
    expect(
      (await ok(graphql(service, REVERSE, { accountId, transactionId: other.transactionId }))).reverseTransaction
        .description,
    ).toBe(`Reversal of ${other.transactionId}`);
    await expectSoundLedger();
  });

  it('a transfer moves money between two accounts in one posting, and reverses on both sides', async () => {
    const from = await newAccount();
    const to = await newAccount();
    await posted(from, { type: 'CREDIT', amount: '50' });
    const transfer = (
      await ok(
        graphql(service, TRANSFER, {
          input: { fromAccountId: from, toAccountId: to, amount: '20', description: 'Rent' },
        }),
      )
    ).transfer;
    expect(transfer).toMatchObject({
      amount: '20',
      currency: 'USD',
      description: 'Rent',
      debit: {
        accountId: from,
        type: 'DEBIT',
        amount: '20',
        balanceAfter: '30',
        transferId: transfer.transferId,
        account: { amount: '30' },
      },
      credit: {
        accountId: to,
        type: 'CREDIT',
        amount: '20',
        balanceAfter: '20',
        transferId: transfer.transferId,
        account: { amount: '20' },
      },
    });
    await expectSoundLedger();

    const reversal = (
      await ok(graphql(service, REVERSE, { accountId: to, transactionId: transfer.credit.transactionId }))
    ).reverseTransaction;
    expect(reversal).toMatchObject({
      accountId: to,
      type: 'DEBIT',
      balanceAfter: '0',
      reversesTransactionId: transfer.credit.transactionId,
      account: { amount: '0' },
    });
    expect((await readAccount(from)).amount).toBe('50');
    await expectSoundLedger();
  });

  it('refuses a transfer beyond the funds, between currencies, to itself or to an unknown account, moving nothing', async () => {
    const from = await newAccount();
    const to = await newAccount();
    const euros = await newAccount('EUR');
    await posted(from, { type: 'CREDIT', amount: '5' });
    const transfer = (input: Record<string, unknown>) =>
      expectNoChange(() =>
        graphql(service, TRANSFER, { input: { fromAccountId: from, toAccountId: to, amount: '1', ...input } }),
      );
    expect(errorCodes(await transfer({ amount: '5.01' }))).toEqual(['INSUFFICIENT_FUNDS']);
    expect(errorCodes(await transfer({ toAccountId: euros }))).toEqual(['CURRENCY_MISMATCH']);
    expect(errorCodes(await transfer({ toAccountId: from }))).toEqual(['VALIDATION_FAILED']);
    const unknown = await transfer({ toAccountId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e' });
    expect(errorCodes(unknown)).toEqual(['ACCOUNT_NOT_FOUND']);
    expect(unknown.json.errors[0].extensions.details).toMatchObject([
      { field: 'toAccountId', code: 'ACCOUNT_NOT_FOUND' },
    ]);
    await expectSoundLedger();
  });
});

describe('account controls', () => {
  const SET_FLAG =
    'mutation($id: ID!, $flag: AccountFlag!) { setAccountFlag(accountId: $id, flag: $flag) { accountId flags } }';
  const CLEAR_FLAG =
    'mutation($id: ID!, $flag: AccountFlag!) { clearAccountFlag(accountId: $id, flag: $flag) { accountId flags } }';

  it('flags: DEBITS_BLOCKED stops debits only, FROZEN every posting; setting twice or clearing changes what it says', async () => {
    const accountId = await newAccount();
    await posted(accountId, { type: 'CREDIT', amount: '5' });
    expect(
      (await ok(graphql(service, SET_FLAG, { id: accountId, flag: 'DEBITS_BLOCKED' }))).setAccountFlag.flags,
    ).toEqual(['DEBITS_BLOCKED']);
    expect(errorCodes(await expectNoChange(() => post(accountId, { type: 'DEBIT', amount: '1' })))).toEqual([
      'DEBITS_BLOCKED',
    ]);
    await posted(accountId, { type: 'CREDIT', amount: '1' });
    expect((await ok(graphql(service, SET_FLAG, { id: accountId, flag: 'FROZEN' }))).setAccountFlag.flags).toEqual([
      'DEBITS_BLOCKED',
      'FROZEN',
    ]);
    expect((await ok(graphql(service, SET_FLAG, { id: accountId, flag: 'FROZEN' }))).setAccountFlag.flags).toEqual([
      'DEBITS_BLOCKED',
      'FROZEN',
    ]);
    expect(errorCodes(await expectNoChange(() => post(accountId, { type: 'CREDIT', amount: '1' })))).toEqual([
      'ACCOUNT_FROZEN',
    ]);
    expect((await ok(graphql(service, CLEAR_FLAG, { id: accountId, flag: 'FROZEN' }))).clearAccountFlag.flags).toEqual([
      'DEBITS_BLOCKED',
    ]);
    expect(
      (await ok(graphql(service, CLEAR_FLAG, { id: accountId, flag: 'DEBITS_BLOCKED' }))).clearAccountFlag.flags,
    ).toEqual([]);
    expect((await posted(accountId, { type: 'DEBIT', amount: '6' })).balanceAfter).toBe('0');
    // An unknown flag is not a value of the enum: refused before any resolver runs.
    expect(errorCodes(await graphql(service, SET_FLAG, { id: accountId, flag: 'CLOSED' }))).toEqual(['BAD_USER_INPUT']);
    expect(
      errorCodes(await graphql(service, SET_FLAG, { id: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', flag: 'FROZEN' })),
    ).toEqual(['ACCOUNT_NOT_FOUND']);
    await expectSoundLedger();
  });

  it('an overdraft limit lets the available balance go below zero, down to it', async () => {
    const accountId = await newAccount();
    const SET_LIMIT =
      'mutation($id: ID!, $limit: Decimal!) { setOverdraftLimit(accountId: $id, overdraftLimit: $limit) { accountId overdraftLimit } }';
    expect(
      (await ok(graphql(service, SET_LIMIT, { id: accountId, limit: '100' }))).setOverdraftLimit.overdraftLimit,
    ).toBe('100');
    expect(errorCodes(await graphql(service, SET_LIMIT, { id: accountId, limit: '1.001' }))).toEqual([
      'VALIDATION_FAILED',
    ]);
    expect((await posted(accountId, { type: 'DEBIT', amount: '100' })).account).toMatchObject({
      amount: '-100',
      balance: { posted: '-100', available: '-100' },
      overdraftLimit: '100',
    });
    expect(errorCodes(await expectNoChange(() => post(accountId, { type: 'DEBIT', amount: '0.01' })))).toEqual([
      'INSUFFICIENT_FUNDS',
    ]);
    await expectSoundLedger();
  });

  it('joint holders: a customer is added (once) and removed, never the last', async () => {
    const ADD =
      'mutation($id: ID!, $customerId: ID!) { addAccountCustomer(accountId: $id, customerId: $customerId) { customerIds customers { customerId accountIds } } }';
    const REMOVE =
      'mutation($id: ID!, $customerId: ID!) { removeAccountCustomer(accountId: $id, customerId: $customerId) { customerIds customers { customerId } } }';
    const first = await createCustomer(service, buildCustomerInput());
    const second = await createCustomer(service, buildCustomerInput());
    const accountId = await newAccount('USD', [first]);
    const added = (await ok(graphql(service, ADD, { id: accountId, customerId: second }))).addAccountCustomer;
    expect(added).toEqual({
      customerIds: [first, second],
      customers: [
        { customerId: first, accountIds: [accountId] },
        { customerId: second, accountIds: [accountId] },
      ],
    });
    expect(
      (await ok(graphql(service, ADD, { id: accountId, customerId: second }))).addAccountCustomer.customerIds,
    ).toEqual([first, second]);
    expect(
      errorCodes(await graphql(service, ADD, { id: accountId, customerId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e' })),
    ).toEqual(['CUSTOMER_NOT_FOUND']);
    expect((await ok(graphql(service, REMOVE, { id: accountId, customerId: first }))).removeAccountCustomer).toEqual({
      customerIds: [second],
      customers: [{ customerId: second }],
    });
    expect(errorCodes(await graphql(service, REMOVE, { id: accountId, customerId: first }))).toEqual([
      'CUSTOMER_NOT_FOUND',
    ]);
    expect(errorCodes(await graphql(service, REMOVE, { id: accountId, customerId: second }))).toEqual([
      'ACCOUNT_NEEDS_A_CUSTOMER',
    ]);
  });
});

describe('idempotent replay', () => {
  it('a posting sent again with the same idempotencyKey is replayed, not posted twice; another input with the key is refused', async () => {
    const accountId = await newAccount();
    const first = await post(accountId, { type: 'CREDIT', amount: '7' }, 'gql-deposit-1');
    expect(first.json.extensions?.idempotentReplayed).toBeUndefined();
    const again = await post(accountId, { type: 'CREDIT', amount: '7' }, 'gql-deposit-1');
    expect(errorCodes(again)).toEqual([]);
    expect(again.json.extensions.idempotentReplayed).toEqual(['postTransaction']);
    expect(again.json.data).toEqual(first.json.data);
    expect((await readAccount(accountId)).amount).toBe('7');
    expect(
      errorCodes(await expectNoChange(() => post(accountId, { type: 'CREDIT', amount: '8' }, 'gql-deposit-1'))),
    ).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    // The key is shared with REST's Idempotency-Key header.
    const viaRest = await service.call('POST', `/sandbox/account/${accountId}/transaction`, {
      body: { type: 'CREDIT', amount: 7 },
      headers: { 'idempotency-key': 'gql-deposit-1' },
    });
    expect(viaRest.headers.get('idempotent-replayed')).toBe('true');
    expect(viaRest.json.data.transactionId).toBe(first.json.data.postTransaction.transactionId);
    await expectSoundLedger();
  });

  it('a transfer replayed under its alias is reported by that alias', async () => {
    const from = await newAccount();
    const to = await newAccount();
    await posted(from, { type: 'CREDIT', amount: '10' });
    const aliased = TRANSFER.replace('transfer(input', 'rent: transfer(input');
    const input = { fromAccountId: from, toAccountId: to, amount: '4' };
    const first = await ok(graphql(service, aliased, { input, key: 'gql-transfer-1' }));
    const again = await graphql(service, aliased, { input, key: 'gql-transfer-1' });
    expect(again.json.extensions.idempotentReplayed).toEqual(['rent']);
    expect(again.json.data.rent.transferId).toBe(first.rent.transferId);
    expect((await readAccount(from)).amount).toBe('6');
    await expectSoundLedger();
  });
});

describe('Account.transactions', () => {
  it('pages newest first: up to 10 from the account row, more or after a cursor from the ledger', async () => {
    const accountId = await newAccount();
    for (let i = 1; i <= 12; i++) await posted(accountId, { type: 'CREDIT', amount: String(i) });
    const amounts = (page: { nodes: { amount: string }[] }) => page.nodes.map((t) => Number(t.amount));

    service.statements.count = 0;
    const ten = (await readAccount(accountId)).transactions;
    expect(service.statements.count).toBe(1); // the account, its 10 newest transactions with it
    expect(amounts(ten)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(ten.pageInfo.hasNextPage).toBe(true);

    const five = (await readAccount(accountId, { first: 5 })).transactions;
    expect(amounts(five)).toEqual([12, 11, 10, 9, 8]);
    service.statements.count = 0;
    const next = (await readAccount(accountId, { first: 5, after: five.pageInfo.endCursor })).transactions;
    expect(service.statements.count).toBe(2); // the account, then the ledger's page
    expect(amounts(next)).toEqual([7, 6, 5, 4, 3]);
    expect(next.pageInfo.hasNextPage).toBe(true);
    const last = (await readAccount(accountId, { first: 5, after: next.pageInfo.endCursor })).transactions;
    expect(amounts(last)).toEqual([2, 1]);
    expect(last.pageInfo).toEqual({ hasNextPage: false, endCursor: last.edges[1].cursor });
    expect(amounts((await readAccount(accountId, { first: 20 })).transactions)).toEqual([
      12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
    ]);

    // Exactly 10: the row holds them all, and knows no older page follows.
    const exactlyTen = await newAccount();
    for (let i = 1; i <= 10; i++) await posted(exactlyTen, { type: 'CREDIT', amount: String(i) });
    expect((await readAccount(exactlyTen, { first: 10 })).transactions.pageInfo.hasNextPage).toBe(false);
    expect((await readAccount(exactlyTen, { first: 9 })).transactions.pageInfo.hasNextPage).toBe(true);
  });

  it('refuses a page size outside 1–100 and a cursor of another connection with VALIDATION_FAILED', async () => {
    const accountId = await newAccount();
    for (const page of [
      { first: 0 },
      { first: 101 },
      { after: encodeCursor('account', accountId) },
      { after: 'not a cursor' },
    ]) {
      const result = await graphql(service, ACCOUNT, { id: accountId, ...page });
      expect(errorCodes(result), JSON.stringify(page)).toEqual(['VALIDATION_FAILED']);
    }
  });
});

describe('no N+1', () => {
  const PAGE = `query($first: Int!, $after: String) {
    accounts(first: $first, after: $after) {
      nodes {
        accountId amount overdraftLimit balance { posted pending available }
        customers { customerId }
        transactions(first: 10) {
          edges { cursor node { transactionId amount status balanceAfter account { accountId balance { available } } } }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }`;

  /** `count` accounts created after a marker account, each with a credit, a debit and a pending hold. */
  async function accountsWithTransactions(count: number): Promise<string> {
    const owner = await createCustomer(service, buildCustomerInput());
    const marker = await newAccount('USD', [owner]);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await newAccount('USD', [owner]));
    await Promise.all(
      ids.map(async (accountId) => {
        await posted(accountId, { type: 'CREDIT', amount: '10' });
        await posted(accountId, { type: 'DEBIT', amount: '2.5' });
        await posted(accountId, { type: 'DEBIT', amount: '1', hold: true });
      }),
    );
    return encodeCursor('account', marker);
  }

  async function statementsFor(count: number): Promise<number> {
    const after = await accountsWithTransactions(count);
    service.statements.count = 0;
    const result = await graphql(service, PAGE, { first: count, after });
    const statements = service.statements.count;
    expect(errorCodes(result)).toEqual([]);
    const nodes = result.json.data.accounts.nodes;
    expect(nodes).toHaveLength(count);
    for (const account of nodes) {
      expect(account.balance).toEqual({ posted: '7.5', pending: '6.5', available: '6.5' });
      expect(account.transactions.edges.map((edge: { node: { status: string } }) => edge.node.status)).toEqual([
        'PENDING',
        'POSTED',
        'POSTED',
      ]);
      expect(account.transactions.edges[0].node.account).toEqual({
        accountId: account.accountId,
        balance: { available: '6.5' },
      });
      expect(account.transactions.pageInfo.hasNextPage).toBe(false);
    }
    return statements;
  }

  it('a page of accounts with balances, customers and their newest transactions is the same few statements for 1 account and for 20', async () => {
    const one = await statementsFor(1);
    const twenty = await statementsFor(20);
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThanOrEqual(2); // the accounts with their transactions; their customers
    expect(twenty).toBe(one);
    await expectSoundLedger();
  }, 120_000);
});
