import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIfRequested } from '../lib/results.js';
import { buildAccountInput, buildCustomerInput } from '../../../test/support/factories.js';
import { type CallResult, startTestService, type TestService } from '../../../test/support/service.js';
import { pick, runClients, seededRandom } from '../lib/concurrency.js';
import { checkAccountLinks, storageProblems } from '../lib/consistency.js';
import {
  ACCOUNT_LINKS,
  CREATE_ACCOUNT,
  CUSTOMER_LINKS,
  DELETE_ACCOUNT,
  dataOf,
  errorCodes,
  graphql,
  requireGraphqlEndpoint,
  UPDATE_ACCOUNT,
} from '../lib/graphql.js';
import { DEFAULT_SEED } from './seed.js';

/**
 * Invariant 3 through GraphQL (issue 4's schema): half the clients write through GraphQL mutations, half
 * through REST, over one pool of customers; at the end both surfaces must show, for every customer,
 * `accountIds` equal to the set of accounts whose customers list it, and the same relation from the
 * account side. Fails loudly while the GraphQL endpoint is not mounted.
 */

const CLIENTS = 24;
const SEED = Number(process.env.RELIABILITY_SEED ?? DEFAULT_SEED);
const CURRENCIES = ['USD', 'EUR', 'GBP'];

let service: TestService;
beforeAll(async () => {
  // A connection per client and a patient connection wait: these tests are about correctness, and on a busy
  // CI machine a request queued for a connection would otherwise (rightly) answer 503 SERVICE_UNAVAILABLE.
  service = await startTestService({ DATABASE_POOL_SIZE: '32', DATABASE_CONNECT_TIMEOUT_MS: '10000' });
  await requireGraphqlEndpoint((path, body) => service.call('POST', path, { body }));
});
afterAll(async () => service?.stop());

describe('invariant 3 through GraphQL', () => {
  it(`holds on both surfaces after ${CLIENTS} clients (half GraphQL, half REST) write accounts concurrently`, async () => {
    const pool: string[] = [];
    for (let i = 0; i < 8; i++)
      pool.push((await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() })).json.data.customerId);
    const known: string[] = [];
    const created = new Map<string, string[]>();
    const deleted = new Set<string>();
    let requests = 0;

    await runClients(CLIENTS, async (client) => {
      const random = seededRandom(SEED + client);
      const viaGraphql = client % 2 === 0;
      for (let op = 0; op < 25; op++) {
        requests += 1;
        const roll = random();
        if (roll < 0.5 || known.length === 0) {
          const customers = [...new Set([pick(random, pool), pick(random, pool)])];
          const input = buildAccountInput(customers, { name: `g-${client}-${op}`, currency: pick(random, CURRENCIES) });
          let accountId: string;
          if (viaGraphql) {
            const account = dataOf(await graphql(service, CREATE_ACCOUNT, { input })).createAccount;
            expect(account.customerIds).toEqual(customers);
            accountId = account.accountId;
          } else {
            const res = await service.call('POST', '/sandbox/account', { body: input });
            expect(res.status, res.text).toBe(201);
            accountId = res.json.data.accountId;
          }
          created.set(accountId, customers);
          known.push(accountId);
        } else if (roll < 0.75) {
          const id = pick(random, known);
          const input = { name: `u-${client}-${op}`, currency: pick(random, CURRENCIES) };
          if (viaGraphql) {
            const result = await graphql(service, UPDATE_ACCOUNT, { id, input });
            if (result.json?.errors) expect(errorCodes(result)).toEqual(['ACCOUNT_NOT_FOUND']);
          } else {
            const res = await service.call('PUT', `/sandbox/account/${id}`, { body: input });
            expect([200, 404]).toContain(res.status);
          }
        } else {
          const id = pick(random, known);
          let ok: boolean;
          if (viaGraphql) {
            const result: CallResult = await graphql(service, DELETE_ACCOUNT, { id });
            ok = !result.json?.errors;
            if (ok) expect(result.json.data.deleteAccount).toBe(id);
            else expect(errorCodes(result)).toEqual(['ACCOUNT_NOT_FOUND']);
          } else {
            const res = await service.call('DELETE', `/sandbox/account/${id}`);
            expect([200, 404]).toContain(res.status);
            ok = res.status === 200;
          }
          if (ok) {
            expect(deleted.has(id), `account ${id} acknowledged as deleted twice`).toBe(false);
            deleted.add(id);
          }
        }
      }
    });

    const rest = await checkAccountLinks(
      (method, path, body) => service.call(method, path, { body }),
      'sandbox',
      pool,
      created.keys(),
    );
    expect(rest.problems).toEqual([]);

    // The same relation, read through GraphQL from both sides.
    const expectedByCustomer = new Map<string, string[]>(pool.map((id) => [id, []]));
    for (const [accountId, customers] of created) {
      if (deleted.has(accountId)) {
        expect(dataOf(await graphql(service, ACCOUNT_LINKS, { id: accountId })).account).toBeNull();
        continue;
      }
      const account = dataOf(await graphql(service, ACCOUNT_LINKS, { id: accountId })).account;
      expect(account.customerIds).toEqual(customers);
      expect(account.customers.map((c: { customerId: string }) => c.customerId)).toEqual(customers);
      for (const customer of account.customers as { customerId: string; accountIds: string[] }[])
        expect(customer.accountIds).toContain(accountId);
      for (const customerId of customers) expectedByCustomer.get(customerId)!.push(accountId);
    }
    for (const [customerId, accounts] of expectedByCustomer) {
      const customer = dataOf(await graphql(service, CUSTOMER_LINKS, { id: customerId })).customer;
      expect([...customer.accountIds].sort()).toEqual([...accounts].sort());
      expect(customer.accounts.map((a: { accountId: string }) => a.accountId)).toEqual(customer.accountIds);
      expect(customer.accountIds).toEqual(rest.customerAccounts.get(customerId));
    }
    expect(await storageProblems(service.database.pool)).toEqual([]);
    recordIfRequested({
      id: 'invariant-3-links-graphql',
      test: 'Invariant 3: random concurrent account writes over shared customers (GraphQL + REST)',
      operations: `${CLIENTS} clients x 25 operations (${requests} requests, half through GraphQL mutations) over 8 customers`,
      faults: 'concurrent create/update/delete of the same accounts on both surfaces',
      result: `accountIds = accounts listing the customer on REST and GraphQL for all 8 customers; ${rest.liveAccounts} live, ${deleted.size} deleted as acknowledged`,
      passed: true,
      command: 'npx vitest run scripts/reliability/test/invariants.graphql.test.ts',
      figures: { seed: SEED },
    });
  });
});
