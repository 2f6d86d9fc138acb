import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import {
  type AccountInput,
  buildAccountInput,
  buildCustomerInput,
  type CustomerInput,
} from '../../test/support/factories.js';
import { checkAccountLinks, storageProblems } from './lib/consistency.js';
import { pick, seededRandom } from './lib/concurrency.js';
import { startDedicatedPostgres } from './lib/postgres.js';
import { startClients } from './lib/load.js';
import { formatCount } from './lib/results.js';
import {
  type Api,
  type ApiAnswer,
  conclude,
  createApi,
  log,
  options,
  RECORD_OPTION,
  runScript,
  SEED_OPTION,
} from './lib/script.js';
import { buildOnce, runSecrets, type ServiceProcess, startServiceProcess } from './lib/service-process.js';

/**
 * Crash: a write-heavy mixed load (every creation with an Idempotency-Key), `kill -9` of the service in
 * mid-flight, a restart on the same database, then proof that nothing acknowledged was lost, nothing
 * was half written, invariant 3 holds, and the interrupted creations, retried with their keys, complete
 * exactly once. Several crash cycles, state carried over. Loopback only; about a minute.
 */

const opts = options(
  {
    cycles: { default: '3', help: 'kill -9 / restart cycles' },
    clients: { default: '32', help: 'concurrent clients' },
    writes: { default: '1000', help: 'acknowledged writes per cycle (about) before the kill' },
    ...SEED_OPTION,
    ...RECORD_OPTION,
  },
  'npm run reliability:crash -- [options]',
);

type Contact = Pick<CustomerInput, 'preferredName' | 'emails' | 'phoneNumbers' | 'addresses'>;
interface Customer {
  id: string;
  key: string;
  body: CustomerInput;
  contact: Contact;
}
interface Account {
  id: string;
  key: string;
  body: AccountInput;
  name: string;
  currency: string;
  deleted: boolean;
}
type Op =
  | { kind: 'createCustomer'; key: string; body: CustomerInput }
  | { kind: 'createAccount'; key: string; body: AccountInput }
  | { kind: 'updateCustomer'; customer: Customer; contact: Contact }
  | { kind: 'updateAccount'; account: Account; name: string; currency: string }
  | { kind: 'deleteAccount'; account: Account };

const contactOf = (c: Contact): Contact => ({
  preferredName: c.preferredName,
  emails: c.emails,
  phoneNumbers: c.phoneNumbers,
  addresses: c.addresses,
});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CHF'];

class Model {
  readonly pool: Customer[] = [];
  readonly customers = new Map<string, Customer>();
  readonly accounts = new Map<string, Account>();
  /** Per client: the records it owns (only its owner updates or deletes a record, so per-record order is known). */
  readonly owned = new Map<number, { customers: Customer[]; accounts: Account[] }>();
  readonly problems: string[] = [];
  acknowledgedWrites = 0;

  of(client: number) {
    if (!this.owned.has(client)) this.owned.set(client, { customers: [], accounts: [] });
    return this.owned.get(client)!;
  }

  /** Applies an acknowledged answer to the model; an unexpected answer is a problem. */
  acknowledge(client: number, op: Op, res: ApiAnswer): void {
    const fail = () => {
      this.problems.push(`${op.kind} answered ${res.status} ${res.json?.error?.code ?? res.text.slice(0, 100)}`);
    };
    switch (op.kind) {
      case 'createCustomer': {
        if (res.status !== 201) return fail();
        const customer = { id: res.json.data.customerId, key: op.key, body: op.body, contact: contactOf(op.body) };
        this.customers.set(customer.id, customer);
        this.of(client).customers.push(customer);
        // Every client may make it a holder (no customer is deleted in this workload).
        this.pool.push(customer);
        break;
      }
      case 'createAccount': {
        if (res.status !== 201) return fail();
        const account = {
          id: res.json.data.accountId,
          key: op.key,
          body: op.body,
          name: op.body.name,
          currency: op.body.currency,
          deleted: false,
        };
        this.accounts.set(account.id, account);
        this.of(client).accounts.push(account);
        break;
      }
      case 'updateCustomer':
        if (res.status !== 200) return fail();
        op.customer.contact = op.contact;
        break;
      case 'updateAccount':
        if (res.status !== 200) return fail();
        op.account.name = op.name;
        op.account.currency = op.currency;
        break;
      case 'deleteAccount':
        if (res.status !== 200) return fail();
        op.account.deleted = true;
        break;
    }
    this.acknowledgedWrites += 1;
  }
}

const RECENT_OWNERS = 40;

function nextOp(model: Model, client: number, random: () => number): Op {
  const mine = model.of(client);
  const liveAccounts = mine.accounts.filter((a) => !a.deleted);
  const roll = random();
  if (roll < 0.25 || model.pool.length === 0)
    return { kind: 'createCustomer', key: randomUUID(), body: buildCustomerInput({ preferredName: `c${client}` }) };
  if (roll < 0.6 || liveAccounts.length === 0) {
    // Owners among the newest customers: a customer holds at most 100 accounts (CUSTOMER_ACCOUNT_LIMIT), and a
    // long run would otherwise pile every account onto the first customers.
    const recent = model.pool.slice(-RECENT_OWNERS);
    const mineRecent = mine.customers.slice(-RECENT_OWNERS);
    const owners = [
      ...new Set([
        pick(random, recent).id,
        pick(random, recent).id,
        ...(mineRecent.length > 0 && random() < 0.5 ? [pick(random, mineRecent).id] : []),
      ]),
    ];
    return {
      kind: 'createAccount',
      key: randomUUID(),
      body: buildAccountInput(owners, { name: `acct ${client}`, currency: pick(random, CURRENCIES) }),
    };
  }
  if (roll < 0.75)
    return {
      kind: 'updateAccount',
      account: pick(random, liveAccounts),
      name: `renamed ${client} ${Math.floor(random() * 1e6)}`,
      currency: pick(random, CURRENCIES),
    };
  if (roll < 0.87) return { kind: 'deleteAccount', account: pick(random, liveAccounts) };
  if (mine.customers.length === 0) return { kind: 'createCustomer', key: randomUUID(), body: buildCustomerInput() };
  const n = Math.floor(random() * 1e6);
  return {
    kind: 'updateCustomer',
    customer: pick(random, mine.customers),
    contact: {
      preferredName: `p${n}`,
      emails: [`e${n}@example.com`],
      phoneNumbers: [{ type: 'MOBILE', number: `+1 555 ${n}` }],
      addresses: [{ type: 'HOME', street: `${n} Main St`, city: 'Springfield', state: 'IL', zip: '62701' }],
    },
  };
}

function send(api: Api, op: Op): Promise<ApiAnswer> {
  switch (op.kind) {
    case 'createCustomer':
      return api.send('POST', '/sandbox/customer', op.body, { 'idempotency-key': op.key });
    case 'createAccount':
      return api.send('POST', '/sandbox/account', op.body, { 'idempotency-key': op.key });
    case 'updateCustomer':
      return api.send('PUT', `/sandbox/customer/${op.customer.id}`, op.contact);
    case 'updateAccount':
      return api.send('PUT', `/sandbox/account/${op.account.id}`, { name: op.name, currency: op.currency });
    case 'deleteAccount':
      return api.send('DELETE', `/sandbox/account/${op.account.id}`);
  }
}

interface CycleFigures {
  acknowledgedWrites: number;
  inFlightAtKill: Record<string, number>;
  retriedCreates: number;
  committedBeforeCrash: number;
  createdOnRetry: number;
  restartMs: number;
}

/** Settles the requests the crash interrupted: every one must be in its before or after state, then completes by retrying. */
async function settleInFlight(
  api: Api,
  model: Model,
  inFlight: Map<number, Op>,
  figures: CycleFigures,
  db: pg.Pool,
): Promise<void> {
  await Promise.all(
    [...inFlight].map(async ([client, op]) => {
      figures.inFlightAtKill[op.kind] = (figures.inFlightAtKill[op.kind] ?? 0) + 1;
      if (op.kind === 'createCustomer' || op.kind === 'createAccount') {
        figures.retriedCreates += 1;
        // Two retries racing, as an impatient client would send them.
        let answers: ApiAnswer[] = await Promise.all([
          untilServed(() => send(api, op)),
          untilServed(() => send(api, op)),
        ]);
        for (let attempt = 0; attempt < 5 && answers.some((a) => a.status === 409); attempt++) {
          await sleep(200);
          answers = await Promise.all(
            answers.map((a) => (a.status === 409 ? untilServed(() => send(api, op)) : Promise.resolve(a))),
          );
        }
        const ids = new Set(
          answers.map((a) => (op.kind === 'createCustomer' ? a.json?.data?.customerId : a.json?.data?.accountId)),
        );
        if (answers.some((a) => a.status !== 201) || ids.size !== 1) {
          model.problems.push(
            `retry of an interrupted ${op.kind} answered ${answers.map((a) => `${a.status} ${a.json?.error?.code ?? ''}`).join(', ')} with ${ids.size} ids`,
          );
          return;
        }
        const originals = answers.filter((a) => a.headers['idempotent-replayed'] !== 'true').length;
        if (originals === 0) figures.committedBeforeCrash += 1;
        else figures.createdOnRetry += 1;
        if (originals > 1) model.problems.push(`an interrupted ${op.kind} was created twice by its retries`);
        const { rows } = await db.query<{ n: string }>(
          'SELECT count(*) AS n FROM audit_events WHERE idempotency_key = $1',
          [op.key],
        );
        if (Number(rows[0]!.n) !== 1)
          model.problems.push(`idempotency key of an interrupted ${op.kind} has ${rows[0]!.n} creation events`);
        model.acknowledge(client, op, answers[0]!);
        return;
      }
      if (op.kind === 'updateCustomer') {
        const now = await untilServed(() => api.json('GET', `/sandbox/customer/${op.customer.id}`));
        if (now.status !== 200) {
          model.problems.push(
            `customer ${op.customer.id}, interrupted while updated, answers ${now.status} ${now.json?.error?.code ?? ''} after the restart`,
          );
          return;
        }
        const state = contactOf(now.json.data);
        if (!same(state, op.customer.contact) && !same(state, op.contact))
          model.problems.push(`an interrupted customer update left a mixed state on ${op.customer.id}`);
      } else if (op.kind === 'updateAccount') {
        const now = await untilServed(() => api.json('GET', `/sandbox/account/${op.account.id}`));
        if (now.status !== 200) {
          model.problems.push(
            `account ${op.account.id}, interrupted while updated, answers ${now.status} ${now.json?.error?.code ?? ''} after the restart`,
          );
          return;
        }
        const state = `${now.json.data.name}/${now.json.data.currency}`;
        if (state !== `${op.account.name}/${op.account.currency}` && state !== `${op.name}/${op.currency}`)
          model.problems.push(`an interrupted account update left a mixed state on ${op.account.id}`);
      }
      const retry = await untilServed(() => send(api, op));
      if (op.kind === 'deleteAccount' && retry.status === 404) {
        retry.status = 200; // the interrupted delete had committed: the retry finds it done
      }
      model.acknowledge(client, op, retry);
    }),
  );
}

/**
 * A request right after the restart: a loaded machine may still answer 503 SERVICE_UNAVAILABLE (its pool
 * reconnecting), which tells a client to retry, as the script's clients do; anything else is the answer.
 */
async function untilServed<T extends { status: number }>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await request();
    if (answer.status !== 503 || attempt >= 40) return answer;
    await sleep(250);
  }
}

/** Everything acknowledged is there as acknowledged; nothing else is. */
async function verify(
  api: Api,
  model: Model,
  db: pg.Pool,
): Promise<{ checkedCustomers: number; checkedAccounts: number; replaysChecked: number }> {
  const problems = model.problems;
  const customers = [...model.customers.values()];
  const accounts = [...model.accounts.values()];
  await Promise.all(
    customers.map(async (customer) => {
      const res = await api.json('GET', `/sandbox/customer/${customer.id}`);
      if (res.status !== 200) problems.push(`acknowledged customer ${customer.id} answers ${res.status}`);
      else if (!same(contactOf(res.json.data), customer.contact) || res.json.data.firstName !== customer.body.firstName)
        problems.push(`customer ${customer.id} differs from its last acknowledged write`);
    }),
  );
  await Promise.all(
    accounts.map(async (account) => {
      const res = await api.json('GET', `/sandbox/account/${account.id}`);
      if (account.deleted) {
        if (res.status !== 404) problems.push(`deleted account ${account.id} answers ${res.status}`);
      } else if (res.status !== 200) problems.push(`acknowledged account ${account.id} answers ${res.status}`);
      else if (
        res.json.data.name !== account.name ||
        res.json.data.currency !== account.currency ||
        !same(res.json.data.customers, account.body.associatedCustomerIds)
      ) {
        problems.push(`account ${account.id} differs from its last acknowledged write`);
      }
    }),
  );
  // Acknowledged creations replay with the same id when retried with their key.
  const sample = [...customers.slice(-10), ...accounts.slice(-10)];
  for (const record of sample) {
    const isCustomer = 'contact' in record;
    const res = await api.send('POST', isCustomer ? '/sandbox/customer' : '/sandbox/account', record.body, {
      'idempotency-key': record.key,
    });
    const id = isCustomer ? res.json?.data?.customerId : res.json?.data?.accountId;
    if (res.status !== 201 || res.headers['idempotent-replayed'] !== 'true' || id !== record.id)
      problems.push(`retry of acknowledged creation ${record.id} answered ${res.status} ${id}`);
  }
  const links = await checkAccountLinks(
    api.json,
    'sandbox',
    customers.map((c) => c.id),
    accounts.map((a) => a.id),
  );
  problems.push(...links.problems);
  problems.push(...(await storageProblems(db)));
  const stored = await db.query<{ kind: string; id: string }>(
    "SELECT 'customer' AS kind, id::text AS id FROM customers UNION ALL SELECT 'account', id::text FROM accounts",
  );
  const unknown = stored.rows.filter((row) =>
    row.kind === 'customer' ? !model.customers.has(row.id) : !model.accounts.has(row.id),
  );
  if (unknown.length > 0) problems.push(`${unknown.length} stored records no client was told about`);
  const deletions = await db.query(
    "SELECT resource_id FROM audit_events WHERE operation = 'account.delete' GROUP BY resource_id HAVING count(*) <> 1",
  );
  if (deletions.rows.length > 0) problems.push(`${deletions.rows.length} accounts deleted more than once`);
  return { checkedCustomers: customers.length, checkedAccounts: accounts.length, replaysChecked: sample.length };
}

runScript('crash', async () => {
  const cycles = Number(opts.cycles);
  const clients = Number(opts.clients);
  const writesPerCycle = Number(opts.writes);
  const random = seededRandom(Number(opts.seed));
  buildOnce(log);
  const postgres = await startDedicatedPostgres();
  const db = new pg.Pool({ connectionString: postgres.databaseUrl, max: 4 });
  db.on('error', (error) => log(`monitoring connection failed: ${error.message}`));
  const secrets = runSecrets();
  const env = { DATABASE_URL: postgres.databaseUrl, DATABASE_POOL_SIZE: '20', ...secrets };
  const port = await freePort();
  let service: ServiceProcess | undefined;
  const model = new Model();
  const figures: CycleFigures[] = [];
  let verified = { checkedCustomers: 0, checkedAccounts: 0, replaysChecked: 0 };
  try {
    service = await startServiceProcess({ name: 'crash', env, port });
    let api = createApi(service.url, secrets.API_TOKENS!, clients * 2);
    for (let i = 0; i < 10; i++) {
      const op: Op = { kind: 'createCustomer', key: randomUUID(), body: buildCustomerInput() };
      model.acknowledge(-1, op, await send(api, op));
    }

    for (let cycle = 1; cycle <= cycles; cycle++) {
      const cycleFigures: CycleFigures = {
        acknowledgedWrites: 0,
        inFlightAtKill: {},
        retriedCreates: 0,
        committedBeforeCrash: 0,
        createdOnRetry: 0,
        restartMs: 0,
      };
      const startWrites = model.acknowledgedWrites;
      const killAt = startWrites + Math.round(writesPerCycle * (0.7 + 0.3 * random()));
      const inFlight = new Map<number, Op>();
      const load = startClients(
        clients,
        (client) => Number(opts.seed) * 1000 + cycle * 100 + client,
        (client, clientRandom) => async () => {
          const op = nextOp(model, client, clientRandom);
          inFlight.set(client, op);
          const res = await send(api, op);
          if (res.status === 0) return 'stop'; // the crash: this request stays in flight, unresolved
          inFlight.delete(client);
          model.acknowledge(client, op, res);
        },
      );
      while (model.acknowledgedWrites < killAt && model.problems.length === 0) await sleep(2);
      const current = service;
      current.signal('SIGKILL');
      const stopped = load.stop();
      const exit = await current.exited;
      await stopped;
      cycleFigures.acknowledgedWrites = model.acknowledgedWrites - startWrites;
      log(
        `cycle ${cycle}: kill -9 after ${cycleFigures.acknowledgedWrites} acknowledged writes (${exit.signal}); ${inFlight.size} requests in flight`,
      );
      api.client.close();

      const restarted = performance.now();
      service = await startServiceProcess({ name: 'crash', env, port });
      cycleFigures.restartMs = Math.round(performance.now() - restarted);
      api = createApi(service.url, secrets.API_TOKENS!, clients * 2);
      await settleInFlight(api, model, inFlight, cycleFigures, db);
      verified = await verify(api, model, db);
      log(
        `cycle ${cycle}: restarted in ${cycleFigures.restartMs} ms; ${cycleFigures.retriedCreates} interrupted creations retried (${cycleFigures.committedBeforeCrash} had committed, ${cycleFigures.createdOnRetry} created on retry); ${model.problems.length} problems so far`,
      );
      figures.push(cycleFigures);
      if (model.problems.length > 0) break;
    }
  } finally {
    await service?.stop();
    await db.end();
    await postgres.dispose();
  }

  const total = figures.reduce((sum, f) => sum + f.acknowledgedWrites, 0);
  const inFlightTotal = figures.reduce((sum, f) => sum + Object.values(f.inFlightAtKill).reduce((a, b) => a + b, 0), 0);
  const retried = figures.reduce((sum, f) => sum + f.retriedCreates, 0);
  return conclude({
    problems: model.problems,
    complete: figures.length === cycles,
    passSummary: () =>
      `0 acknowledged writes lost, 0 partial records, invariant 3 holds; ${retried} interrupted creations retried with their keys, each created exactly once`,
    record: opts.record === 'true',
    row: {
      id: 'fault-crash',
      test: 'Crash: kill -9 under write-heavy load, restart on the same database',
      operations: `${figures.length} crashes during ${formatCount(total)} acknowledged writes (${clients} clients); ${inFlightTotal} requests in flight at the kills`,
      faults: 'SIGKILL of the service mid-flight',
      command: 'npm run reliability:crash',
      figures: { cycles: figures, verified, seed: Number(opts.seed) },
    },
  });
});
