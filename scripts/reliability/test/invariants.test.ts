import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIfRequested } from '../lib/results.js';
import { buildAccountInput, buildCustomerInput } from '../../../test/support/factories.js';
import { type CallResult, startTestService, type TestService } from '../../../test/support/service.js';
import { pick, runClients, seededRandom, sleep, type Timed, timed } from '../lib/concurrency.js';
import { checkAccountLinks, type JsonCall, rowCounts, storageProblems } from '../lib/consistency.js';
import { answerOf, envelopeProblems } from '../lib/envelope.js';
import { DEFAULT_SEED } from './seed.js';

/**
 * The five invariants of issue 6, each under at least 16 concurrent clients, over real HTTP against the
 * whole service (startTestService: the composition root of `npm start` on a real port and a fresh
 * PostgreSQL database). Every answer is also checked to be a well-formed envelope.
 */

const CLIENTS = 24;
const SEED = Number(process.env.RELIABILITY_SEED ?? DEFAULT_SEED);

let service: TestService;
beforeAll(async () => {
  // A connection per client and a patient connection wait: these tests are about correctness, and on a busy
  // CI machine a request queued for a connection would otherwise (rightly) answer 503 SERVICE_UNAVAILABLE.
  service = await startTestService({ DATABASE_POOL_SIZE: '32', DATABASE_CONNECT_TIMEOUT_MS: '10000' });
});
afterAll(async () => service?.stop());

async function call(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const res = await service.call(method, path, options);
  const problems = envelopeProblems(answerOf(res), path);
  if (problems.length > 0) throw new Error(`${method} ${path} answered a malformed envelope: ${problems.join('; ')}`);
  return res;
}

const jsonCall: JsonCall = (method, path, body) => call(method, path, { body });

const auditRequestIds = async (resourceId: string, operation: string): Promise<string[]> =>
  (
    await service.database.pool.query<{ request_id: string }>(
      'SELECT request_id FROM audit_events WHERE resource_id = $1 AND operation = $2',
      [resourceId, operation],
    )
  ).rows.map((row) => row.request_id);

describe('invariant 1: parallel creates with one SSN', () => {
  it(`creates exactly one customer out of ${CLIENTS} concurrent requests; the rest are CUSTOMER_ALREADY_EXISTS`, async () => {
    let requests = 0;
    for (let round = 0; round < 3; round++) {
      const ssn = buildCustomerInput().socialSecurityNumber;
      // The same person written both ways (dashes or none) and with other contact data: one SSN all the same.
      const inputs = Array.from({ length: CLIENTS }, (_, i) =>
        buildCustomerInput({
          socialSecurityNumber: i % 2 === 0 ? ssn : ssn.replaceAll('-', ''),
          preferredName: `Racer ${round}-${i}`,
        }),
      );
      const before = await rowCounts(service.database.pool);
      const startedAt = (await service.database.pool.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
      const answers = await runClients(CLIENTS, (i) => call('POST', '/sandbox/customer', { body: inputs[i] }));
      requests += answers.length;

      const winners = answers.flatMap((res, i) => (res.status === 201 ? [i] : []));
      expect(winners, 'exactly one 201').toHaveLength(1);
      const losers = answers.filter((res) => res.status !== 201);
      expect(losers.map((res) => `${res.status} ${res.json.error.code}`)).toEqual(
        Array(CLIENTS - 1).fill('409 CUSTOMER_ALREADY_EXISTS'),
      );

      const after = await rowCounts(service.database.pool);
      expect(after.customers - before.customers).toBe(1);
      // One audit event for the creation, and one for each refusal: a refusal because the SSN is on file is audited
      // too (customer.create.refused, ADR 0082), so that creation cannot be used as a silent SSN look-up.
      expect(after.auditEvents - before.auditEvents).toBe(CLIENTS);
      const refusals = await service.database.pool.query<{ count: string }>(
        "SELECT count(*) FROM audit_events WHERE operation = 'customer.create.refused' AND occurred_at >= $1",
        [startedAt],
      );
      expect(Number(refusals.rows[0]!.count), 'one refusal audited per loser').toBe(CLIENTS - 1);
      const winner = winners[0]!;
      const stored = await call('GET', `/sandbox/customer/${answers[winner]!.json.data.customerId}`);
      expect(stored.json.data.preferredName, 'the stored customer is the one whose request was acknowledged').toBe(
        inputs[winner]!.preferredName,
      );
    }
    recordIfRequested({
      id: 'invariant-1-duplicate-ssn',
      test: 'Invariant 1: parallel creates with one SSN',
      operations: `3 rounds x ${CLIENTS} concurrent POST /customer (${requests} requests)`,
      faults: 'race on the unique SSN',
      result: '1 customer per round, the other 23 answered 409 CUSTOMER_ALREADY_EXISTS, each refusal audited',
      passed: true,
      command: 'npx vitest run scripts/reliability/test/invariants.test.ts',
    });
  });
});

describe('invariant 2: deleting a customer while accounts are being created for it', () => {
  it('never leaves an account linked to a missing customer, and every answer agrees with the final state', async () => {
    const random = seededRandom(SEED);
    const totals = { creations: 0, refusedAfterDeletion: 0, deletionsRefusedForAccounts: 0, rounds: 0 };
    for (let round = 0; round < 4; round++) {
      const target = (await call('POST', '/sandbox/customer', { body: buildCustomerInput() })).json.data
        .customerId as string;
      const coOwner = (await call('POST', '/sandbox/customer', { body: buildCustomerInput() })).json.data
        .customerId as string;
      type Creation = Timed<CallResult> & { customers: string[]; deletion?: CallResult };
      const creations: Creation[] = [];
      const deletions: Timed<CallResult>[] = [];
      const linkers = 16;
      // Counted in refused deletions, not in milliseconds, so the race happens however slow the machine is.
      let refusedDeletions = 0;
      await runClients(linkers + 4, async (client) => {
        if (client >= linkers) {
          // Deleters start once accounts exist, and keep trying; they win once no account links the customer.
          while (creations.filter((c) => c.value.status === 201).length < linkers) await sleep(2);
          for (;;) {
            const attempt = await timed(() => call('DELETE', `/sandbox/customer/${target}`));
            deletions.push(attempt);
            if (attempt.value.status !== 409) return;
            refusedDeletions += 1;
            await sleep(random() * 3);
          }
        }
        // Linkers stop one by one as deletions are refused, so the deletion lands while some are still creating
        // (each of those then gets its 422); the last ones keep going until then, whatever the machine's speed.
        const quota = (client + 1) * 4;
        while (refusedDeletions < quota) {
          const customers = client % 3 === 0 ? [coOwner, target] : [target];
          const creation = {
            ...(await timed(() => call('POST', '/sandbox/account', { body: buildAccountInput(customers) }))),
            customers,
          } as Creation;
          creations.push(creation);
          if (creation.value.status === 422) return;
          expect(creation.value.status, creation.value.text).toBe(201);
          // Each account goes again at once, else the customer could never be deleted.
          creation.deletion = await call('DELETE', `/sandbox/account/${creation.value.json.data.accountId}`);
          expect(creation.deletion.status).toBe(200);
          await sleep(random() * 8);
        }
      });

      const succeeded = deletions.filter((d) => d.value.status === 200);
      expect(succeeded, 'the customer was deleted exactly once').toHaveLength(1);
      expect(deletions.filter((d) => ![200, 404, 409].includes(d.value.status))).toEqual([]);
      const deletion = succeeded[0]!;
      expect((await call('GET', `/sandbox/customer/${target}`)).status).toBe(404);
      for (const creation of creations) {
        if (creation.value.status === 201) {
          // Acknowledged before the deletion finished, and gone (by its own acknowledged delete) now.
          expect(creation.startedAt).toBeLessThan(deletion.endedAt);
          expect(creation.deletion?.status).toBe(200);
          expect((await call('GET', `/sandbox/account/${creation.value.json.data.accountId}`)).status).toBe(404);
        } else {
          // Refused because the customer was gone: only possible once the deletion had begun.
          expect(`${creation.value.status} ${creation.value.json.error.code}`).toBe('422 CUSTOMER_NOT_FOUND');
          expect(creation.endedAt).toBeGreaterThan(deletion.startedAt);
          expect(creation.value.json.error.details).toEqual([
            expect.objectContaining({ message: expect.stringContaining(target) }),
          ]);
        }
      }
      const { rows } = await service.database.pool.query(
        'SELECT account_id FROM account_customers WHERE customer_id = $1',
        [target],
      );
      expect(rows).toEqual([]);
      const links = await checkAccountLinks(
        jsonCall,
        'sandbox',
        [target, coOwner],
        creations.flatMap((c) => (c.value.status === 201 ? [c.value.json.data.accountId] : [])),
      );
      expect(links.problems).toEqual([]);

      totals.rounds += 1;
      totals.creations += creations.length;
      totals.refusedAfterDeletion += creations.filter((c) => c.value.status === 422).length;
      totals.deletionsRefusedForAccounts += deletions.filter((d) => d.value.status === 409).length;
    }
    expect(await storageProblems(service.database.pool)).toEqual([]);
    // The race really happened: deletions were refused while accounts existed, and creations lost to a deletion.
    expect(totals.deletionsRefusedForAccounts).toBeGreaterThan(0);
    expect(totals.refusedAfterDeletion).toBeGreaterThan(0);
    recordIfRequested({
      id: 'invariant-2-delete-while-linking',
      test: 'Invariant 2: delete a customer while accounts are created for it',
      operations: `${totals.rounds} rounds x 20 clients: ${totals.creations} account creations, ${totals.deletionsRefusedForAccounts} refused deletions`,
      faults: 'customer deletion racing account creation',
      result: `0 accounts linked to a missing customer; ${totals.refusedAfterDeletion} creations answered 422 after the deletion, all consistent with the final state`,
      passed: true,
      command: 'npx vitest run scripts/reliability/test/invariants.test.ts',
      figures: { seed: SEED, ...totals },
    });
  });
});

/** One client's random work on accounts over a shared pool of customers; answers are kept for the checks. */
interface AccountOpLog {
  created: Map<string, { customers: string[]; name: string; currency: string }>;
  deletedBy: Map<string, number>;
  updates: Map<string, { name: string; currency: string }[]>;
  requests: number;
}

const CURRENCIES = ['USD', 'EUR', 'GBP', 'CHF', 'JPY'];

describe('invariant 3: accountIds and customers agree after random concurrent account writes', () => {
  it(`holds for every customer after ${CLIENTS} clients create, update and delete accounts over a shared pool`, async () => {
    const pool: string[] = [];
    for (let i = 0; i < 8; i++)
      pool.push((await call('POST', '/sandbox/customer', { body: buildCustomerInput() })).json.data.customerId);
    const log: AccountOpLog = { created: new Map(), deletedBy: new Map(), updates: new Map(), requests: 0 };
    const known: string[] = [];

    await runClients(CLIENTS, async (client) => {
      const random = seededRandom(SEED + client);
      for (let op = 0; op < 30; op++) {
        const roll = random();
        log.requests += 1;
        if (roll < 0.45 || known.length === 0) {
          const customers = [
            ...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, pool))),
          ];
          const input = buildAccountInput(customers, {
            name: `acct-${client}-${op}`,
            currency: pick(random, CURRENCIES),
          });
          const res = await call('POST', '/sandbox/account', { body: input });
          expect(res.status, res.text).toBe(201);
          expect(res.json.data.customers).toEqual(customers);
          log.created.set(res.json.data.accountId, { customers, name: input.name, currency: input.currency });
          known.push(res.json.data.accountId);
        } else if (roll < 0.75) {
          const accountId = pick(random, known);
          const change = { name: `renamed-${client}-${op}`, currency: pick(random, CURRENCIES) };
          const res = await call('PUT', `/sandbox/account/${accountId}`, { body: change });
          if (res.status === 200) {
            expect(res.json.data).toMatchObject(change);
            log.updates.set(accountId, [...(log.updates.get(accountId) ?? []), change]);
          } else expect(`${res.status} ${res.json.error.code}`).toBe('404 ACCOUNT_NOT_FOUND');
        } else if (roll < 0.95) {
          const accountId = pick(random, known);
          const res = await call('DELETE', `/sandbox/account/${accountId}`);
          if (res.status === 200) log.deletedBy.set(accountId, (log.deletedBy.get(accountId) ?? 0) + 1);
          else expect(`${res.status} ${res.json.error.code}`).toBe('404 ACCOUNT_NOT_FOUND');
        } else {
          const res = await call('GET', `/sandbox/customer/${pick(random, pool)}`);
          expect(res.status).toBe(200);
        }
      }
    });

    const report = await checkAccountLinks(jsonCall, 'sandbox', pool, log.created.keys());
    expect(report.problems).toEqual([]);
    for (const [accountId, created] of log.created) {
      const deletions = log.deletedBy.get(accountId) ?? 0;
      expect(deletions, `account ${accountId} acknowledged as deleted at most once`).toBeLessThanOrEqual(1);
      const live = report.accountCustomers.get(accountId);
      if (deletions === 1) {
        expect(live, `deleted account ${accountId} is gone`).toBeUndefined();
        continue;
      }
      expect(live, `acknowledged account ${accountId} exists`).toEqual(created.customers);
      const res = await call('GET', `/sandbox/account/${accountId}`);
      // Name and currency come whole from the creation or from one acknowledged update.
      const candidates = [created, ...(log.updates.get(accountId) ?? [])].map((v) => `${v.name}/${v.currency}`);
      expect(candidates).toContain(`${res.json.data.name}/${res.json.data.currency}`);
    }
    const counts = await rowCounts(service.database.pool);
    const { rows } = await service.database.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM accounts WHERE id = ANY($1::uuid[])',
      [[...log.created.keys()]],
    );
    expect(Number(rows[0]!.n)).toBe(report.liveAccounts);
    expect(await storageProblems(service.database.pool)).toEqual([]);
    expect(report.liveAccounts).toBeGreaterThan(0);
    expect(log.deletedBy.size).toBeGreaterThan(0);
    recordIfRequested({
      id: 'invariant-3-links',
      test: 'Invariant 3: random concurrent account writes over shared customers (REST)',
      operations: `${CLIENTS} clients x 30 operations (${log.requests} requests) over 8 customers`,
      faults: 'concurrent create/update/delete of the same accounts',
      result: `accountIds = accounts listing the customer for all 8 customers; ${report.liveAccounts} live and ${report.goneAccounts} deleted accounts all as acknowledged`,
      passed: true,
      command: 'npx vitest run scripts/reliability/test/invariants.test.ts',
      figures: { seed: SEED, links: report.links, tableLinks: counts.links },
    });
  });
});

describe('invariant 4: concurrent updates of one customer', () => {
  it('ends in exactly one submitted update, whole, with one audit event per acknowledged update', async () => {
    let acknowledged = 0;
    for (let round = 0; round < 3; round++) {
      const customerId = (await call('POST', '/sandbox/customer', { body: buildCustomerInput() })).json.data
        .customerId as string;
      const updates = Array.from({ length: CLIENTS }, (_, i) => ({
        preferredName: `Update ${round}-${i}`,
        emails: [`u${i}@example.com`, `round${round}@example.com`],
        phoneNumbers: Array.from({ length: 1 + (i % 3) }, (_, n) => ({ type: 'MOBILE', number: `+1 555 0${i} ${n}` })),
        addresses: [{ type: 'HOME', street: `${i} Race St`, city: `City ${i}`, state: 'IL', zip: String(10000 + i) }],
      }));
      const answers = await runClients(CLIENTS, (i) =>
        call('PUT', `/sandbox/customer/${customerId}`, { body: updates[i] }),
      );
      answers.forEach((res, i) => {
        expect(res.status, res.text).toBe(200);
        // Each answer shows its own update whole: no field of a concurrent one.
        expect(res.json.data).toMatchObject(updates[i]!);
      });
      const final = (await call('GET', `/sandbox/customer/${customerId}`)).json.data;
      const whole = updates.filter(
        (u) =>
          JSON.stringify([final.preferredName, final.emails, final.phoneNumbers, final.addresses]) ===
          JSON.stringify([u.preferredName, u.emails, u.phoneNumbers, u.addresses]),
      );
      expect(whole, 'the final state is exactly one submitted update').toHaveLength(1);

      const acknowledgedIds = answers.map((res) => res.json.requestId as string).sort();
      expect((await auditRequestIds(customerId, 'customer.update')).sort()).toEqual(acknowledgedIds);
      // The same through the audit API, page by page.
      const listed: string[] = [];
      let after: string | null = null;
      do {
        const page: CallResult = await call(
          'GET',
          `/sandbox/audit-events?resourceId=${customerId}&operation=customer.update&first=10${after ? `&after=${after}` : ''}`,
        );
        listed.push(...page.json.data.events.map((event: { requestId: string }) => event.requestId));
        after = page.json.data.nextAfter;
      } while (after);
      expect(listed.sort()).toEqual(acknowledgedIds);
      acknowledged += answers.length;
    }
    recordIfRequested({
      id: 'invariant-4-concurrent-updates',
      test: 'Invariant 4: concurrent updates of one customer',
      operations: `3 rounds x ${CLIENTS} concurrent PUT /customer/{id} (${acknowledged} requests)`,
      faults: 'concurrent writers of the same row',
      result: `final state = one submitted update, whole; ${acknowledged} acknowledged updates = ${acknowledged} customer.update audit events`,
      passed: true,
      command: 'npx vitest run scripts/reliability/test/invariants.test.ts',
    });
  });
});

describe('invariant 5: concurrent retries with one Idempotency-Key', () => {
  async function retryStorm(path: string, body: unknown, key: string) {
    return runClients(CLIENTS, () => call('POST', path, { body, headers: { 'idempotency-key': key } }));
  }

  function expectOneCreation(answers: CallResult[], idOf: (res: CallResult) => string): string {
    // A duplicate either waits and replays, or (past the wait) is told to retry: never a second record.
    expect(
      answers
        .filter((res) => res.status !== 201)
        .map((res) => `${res.status} ${res.json.error.code}`)
        .filter((a) => a !== '409 IDEMPOTENCY_KEY_IN_PROGRESS'),
    ).toEqual([]);
    const created = answers.filter((res) => res.status === 201);
    expect(new Set(created.map(idOf)).size).toBe(1);
    expect(
      created.filter((res) => res.headers.get('idempotent-replayed') !== 'true'),
      'exactly one original answer',
    ).toHaveLength(1);
    return idOf(created[0]!);
  }

  it('creates one customer and one account however many retries race, and replays them afterwards', async () => {
    const before = await rowCounts(service.database.pool);
    const customerKey = `inv5-customer-${SEED}`;
    const customerInput = buildCustomerInput();
    const customerId = expectOneCreation(
      await retryStorm('/sandbox/customer', customerInput, customerKey),
      (res) => res.json.data.customerId,
    );

    const accountKey = `inv5-account-${SEED}`;
    const accountInput = buildAccountInput([customerId]);
    const accountId = expectOneCreation(
      await retryStorm('/sandbox/account', accountInput, accountKey),
      (res) => res.json.data.accountId,
    );

    const after = await rowCounts(service.database.pool);
    expect({
      customers: after.customers - before.customers,
      accounts: after.accounts - before.accounts,
      keys: after.idempotencyKeys - before.idempotencyKeys,
    }).toEqual({
      customers: 1,
      accounts: 1,
      keys: 2,
    });
    const { rows } = await service.database.pool.query<{ idempotency_key: string; n: string }>(
      'SELECT idempotency_key, count(*) AS n FROM audit_events WHERE idempotency_key = ANY($1) GROUP BY idempotency_key ORDER BY idempotency_key',
      [[customerKey, accountKey]],
    );
    expect(rows.map((row) => [row.idempotency_key, Number(row.n)])).toEqual([
      [accountKey, 1],
      [customerKey, 1],
    ]);

    const replay = await call('POST', '/sandbox/customer', {
      body: customerInput,
      headers: { 'idempotency-key': customerKey },
    });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.json.data.customerId]).toEqual([
      201,
      'true',
      customerId,
    ]);
    const accountReplay = await call('POST', '/sandbox/account', {
      body: accountInput,
      headers: { 'idempotency-key': accountKey },
    });
    expect([
      accountReplay.status,
      accountReplay.headers.get('idempotent-replayed'),
      accountReplay.json.data.accountId,
    ]).toEqual([201, 'true', accountId]);
  });

  it('creates at most one record when racing retries carry one key with different bodies', async () => {
    const before = await rowCounts(service.database.pool);
    const key = `inv5-mixed-${SEED}`;
    const inputs = [buildCustomerInput(), buildCustomerInput()];
    const answers = await runClients(CLIENTS, (i) =>
      call('POST', '/sandbox/customer', { body: inputs[i % 2], headers: { 'idempotency-key': key } }),
    );
    const created = answers.filter((res) => res.status === 201);
    expect(new Set(created.map((res) => res.json.data.customerId)).size).toBe(1);
    const outcomes = new Set(
      answers.filter((res) => res.status !== 201).map((res) => `${res.status} ${res.json.error.code}`),
    );
    for (const outcome of outcomes)
      expect(['422 IDEMPOTENCY_KEY_REUSED', '409 IDEMPOTENCY_KEY_IN_PROGRESS']).toContain(outcome);
    const after = await rowCounts(service.database.pool);
    expect(after.customers - before.customers).toBe(1);
    recordIfRequested({
      id: 'invariant-5-idempotent-retries',
      test: 'Invariant 5: concurrent retries with one Idempotency-Key',
      operations: `${CLIENTS} concurrent POST /customer + ${CLIENTS} POST /account with one key each, ${CLIENTS} with one key and 2 bodies`,
      faults: 'duplicate deliveries racing each other',
      result:
        '1 record per key; 1 original answer, the others replays (Idempotent-Replayed: true), IN_PROGRESS or REUSED',
      passed: true,
      command: 'npx vitest run scripts/reliability/test/invariants.test.ts',
    });
  });
});
