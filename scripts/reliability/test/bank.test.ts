import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIfRequested } from '../lib/results.js';
import { ledgerViolations } from '../../../test/support/ledger-invariants.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import {
  ACK_STATUS,
  type BankAnswer,
  type BankOp,
  bankProblems,
  type BankSurface,
  openBank,
  restAnswer,
  restSurface,
  runBankClient,
} from '../lib/bank.js';
import { runClients, seededRandom, sleep } from '../lib/concurrency.js';
import { DEFAULT_SEED } from './seed.js';

/**
 * The bank (issue 15, "Correctness under concurrency and faults"): 16 clients move money at random among 6
 * accounts (one with an overdraft limit): transfers, deposits, withdrawals, holds posted for less or voided,
 * reversals, each with an Idempotency-Key, on the same rows on purpose. Meanwhile a reader checks the
 * ledger's invariants in consistent snapshots (ledgerViolations). At the end the tables must be exactly what
 * the acknowledged answers imply (scripts/reliability/lib/bank.ts, bankProblems): nothing lost, nothing
 * duplicated, nothing refused left behind. The fault version is `npm run reliability:bank`.
 */

const CLIENTS = 16;
const OPERATIONS_PER_CLIENT = 32;
const SEED = Number(process.env.RELIABILITY_SEED ?? DEFAULT_SEED);

let service: TestService;
beforeAll(async () => {
  // A connection per client and a patient connection wait: this test is about correctness, and on a busy
  // machine a request queued for a connection would (rightly) answer 503, which fails it.
  service = await startTestService({ DATABASE_POOL_SIZE: '24', DATABASE_CONNECT_TIMEOUT_MS: '10000' });
});
afterAll(async () => service?.stop());

const rest: BankSurface = restSurface(async (method, path, body, headers) => {
  const started = performance.now();
  const res = await service.call(method, path, { body, headers });
  return {
    status: res.status,
    json: res.json,
    text: res.text,
    header: (name) => res.headers.get(name) ?? undefined,
    elapsedMs: performance.now() - started,
  };
});

const TRANSACTION_FIELDS = 'transactionId accountId type amount status reversesTransactionId';

/** A BankOp as the matching GraphQL mutation (the same idempotency key; amounts as Decimal text). */
function graphqlRequest(op: BankOp): { query: string; variables: Record<string, unknown> } {
  const amount = (cents: number) => (cents / 100).toFixed(2);
  const key = { key: op.key };
  switch (op.kind) {
    case 'deposit':
    case 'withdrawal':
    case 'hold':
      return {
        query: `mutation ($account: ID!, $input: PostTransactionInput!, $key: String) { result: postTransaction(accountId: $account, input: $input, idempotencyKey: $key) { ${TRANSACTION_FIELDS} } }`,
        variables: {
          ...key,
          account: op.account,
          input:
            op.kind === 'hold'
              ? { type: op.type, amount: amount(op.cents), hold: true }
              : { type: op.kind === 'deposit' ? 'CREDIT' : 'DEBIT', amount: amount(op.cents) },
        },
      };
    case 'transfer':
      return {
        query: `mutation ($input: TransferInput!, $key: String) { result: transfer(input: $input, idempotencyKey: $key) { debit { ${TRANSACTION_FIELDS} } credit { ${TRANSACTION_FIELDS} } } }`,
        variables: { ...key, input: { fromAccountId: op.from, toAccountId: op.to, amount: amount(op.cents) } },
      };
    case 'post':
      return {
        query: `mutation ($account: ID!, $id: ID!, $amount: Decimal, $key: String) { result: postHold(accountId: $account, transactionId: $id, amount: $amount, idempotencyKey: $key) { ${TRANSACTION_FIELDS} } }`,
        variables: {
          ...key,
          account: op.account,
          id: op.transactionId,
          amount: op.cents === null ? null : amount(op.cents),
        },
      };
    case 'void':
      return {
        query: `mutation ($account: ID!, $id: ID!, $key: String) { result: voidHold(accountId: $account, transactionId: $id, idempotencyKey: $key) { ${TRANSACTION_FIELDS} } }`,
        variables: { ...key, account: op.account, id: op.transactionId },
      };
    case 'reverse':
      return {
        query: `mutation ($account: ID!, $id: ID!, $key: String) { result: reverseTransaction(accountId: $account, transactionId: $id, idempotencyKey: $key) { ${TRANSACTION_FIELDS} } }`,
        variables: { ...key, account: op.account, id: op.transactionId },
      };
  }
}

/**
 * Half the clients move money through GraphQL: the same operations as mutations, mapped onto the REST
 * answer's shape (an error's `extensions.code` and the status REST gives that code), so every check covers
 * both surfaces unchanged.
 */
function graphqlSurface(): BankSurface {
  return async (op) => {
    const { query, variables } = graphqlRequest(op);
    const started = performance.now();
    const res = await service.call('POST', '/sandbox/graphql', { body: { query, variables } });
    const elapsedMs = performance.now() - started;
    const error = res.json?.errors?.[0];
    if (error) {
      const code: string = error.extensions?.code ?? 'INTERNAL_ERROR';
      const status =
        code === 'SERVICE_UNAVAILABLE' ? 503 : code === 'INTERNAL_ERROR' ? 500 : (REFUSAL_STATUS[code] ?? 409);
      return restAnswer(op, status, { error: { code } }, undefined, elapsedMs, []);
    }
    const replayed = (res.json?.extensions?.idempotentReplayed ?? []).includes('result');
    const data = res.json?.data?.result;
    return restAnswer(op, ACK_STATUS[op.kind], { data }, replayed ? 'true' : undefined, elapsedMs, []);
  };
}

/** The REST status of the refusals this workload meets, so GraphQL's answers read like REST's. */
const REFUSAL_STATUS: Record<string, number> = {
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  INSUFFICIENT_FUNDS: 409,
  TRANSACTION_NOT_PENDING: 409,
  TRANSACTION_ALREADY_REVERSED: 409,
  REVERSAL_NOT_REVERSIBLE: 409,
};

/** No fault is injected here: an answer that is not definite (no answer, a 503, a key in progress) is a failure. */
const noRetry = async (answer: BankAnswer) => {
  throw new Error(`no definite answer: ${answer.detail}`);
};

describe('bank: concurrent money movement among a few accounts', () => {
  it(`${CLIENTS} clients, every acknowledged posting there exactly once, invariants in every snapshot, final balances as acknowledged`, async () => {
    const pool = service.database.pool;
    const { model, overdraftAccount } = await openBank(
      (method, path, body) => service.call(method, path, { body }),
      rest,
      {
        accounts: 6,
        overdraftCents: 15_000,
        fundCents: 40_000,
        retry: noRetry,
      },
    );
    const graphql = graphqlSurface();
    const statuses: Record<string, number> = {};
    let running = true;
    let snapshots = 0;
    const snapshotViolations: string[] = [];
    const reader = (async () => {
      while (running) {
        const violations = await ledgerViolations(pool);
        snapshots += 1;
        snapshotViolations.push(...violations);
        await sleep(20);
      }
    })();
    const started = performance.now();
    try {
      await runClients(CLIENTS, (client) =>
        runBankClient(model, client % 2 === 1 ? graphql : rest, seededRandom(SEED * 100 + client), {
          stopped: () => false,
          operations: OPERATIONS_PER_CLIENT,
          replayShare: 0.1,
          retry: noRetry,
          onAnswer: (_op, answer) => {
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          },
        }),
      );
    } finally {
      running = false;
      await reader;
    }
    const seconds = (performance.now() - started) / 1000;

    expect(model.problems, `seed ${SEED}`).toEqual([]);
    expect(snapshotViolations, `invariant violations seen in ${snapshots} snapshots (seed ${SEED})`).toEqual([]);
    expect(
      Object.keys(statuses).filter((status) => Number(status) >= 500),
      'no 5xx answer',
    ).toEqual([]);
    expect(await bankProblems(pool, model, { final: true }), `seed ${SEED}`).toEqual([]);
    expect(snapshots, 'the reader saw the ledger while it moved').toBeGreaterThan(3);
    // The workload did what it is for: every kind of write acknowledged, and contention refused some.
    for (const kind of ['transfer', 'deposit', 'withdrawal', 'hold', 'post', 'void', 'reverse'])
      expect(model.counts[`acknowledged ${kind}`] ?? 0, kind).toBeGreaterThan(0);
    expect(model.refused.size, 'some requests were refused').toBeGreaterThan(0);
    const balances = model.expectedBalances();
    const refusals = Object.entries(model.counts).filter(([name]) => name.startsWith('refused'));
    recordIfRequested({
      id: 'invariant-ledger-bank',
      test: 'Ledger: 16 clients moving money among 6 accounts (REST and GraphQL)',
      operations: `${model.acknowledged.size + model.refused.size} writes in ${seconds.toFixed(1)} s (${model.acknowledged.size} acknowledged, ${model.refused.size} refused), ${model.replaysChecked} replays, ${snapshots} invariant snapshots`,
      faults:
        'transfers, deposits, withdrawals, holds (posted for less, voided) and reversals racing on the same accounts',
      result: `0 invariant violations in ${snapshots} snapshots; 0 5xx; every acknowledged posting stored exactly once, nothing refused stored; final balances = acknowledged operations (overdraft account at ${(balances.get(overdraftAccount)!.posted / 100).toFixed(2)})`,
      passed: true,
      command: 'npx vitest run scripts/reliability/test/bank.test.ts',
      figures: { seed: SEED, counts: model.counts, refusals: Object.fromEntries(refusals), statuses },
    });
    // About 8 s on an idle 2-core machine; the bound leaves room for a machine shared with other work.
  }, 90_000);
});
