import { isDeepStrictEqual } from 'node:util';
import type pg from 'pg';
import { PiiCipher } from '../../src/pii/pii-cipher.js';
import { POSTGRAPHILE_NESTED_QUERY, RequestFactory, SERVICE_NESTED_QUERY } from '../load/requests.js';
import type { BenchContext } from './context.js';
import type { RunningServer } from './processes.js';
import { BENCH_ENVIRONMENT } from './seed.js';
import { ledgerViolations } from '../../test/support/ledger-invariants.js';

/**
 * Before a contender's numbers mean anything, its answers must be the same data: the floors must return the
 * same JSON as the service, the service and PostGraphile the same nested tree (checked against the tables
 * directly), and every contender's writes must leave the same rows. A failed check is reported beside the
 * figures, never hidden.
 */

/** A contender under check, by the name its failures are reported under. */
export interface NamedServer {
  name: string;
  server: RunningServer;
}

interface HttpAnswer {
  status: number;
  body: unknown;
}

async function call(
  ctx: BenchContext,
  server: RunningServer,
  method: 'GET' | 'POST' | 'PUT',
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const response = await fetch(server.baseUrl + urlPath, {
    method,
    headers: { authorization: `Bearer ${server.bearer ?? ctx.token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

const describeFailure = (name: string, answer: HttpAnswer): string => {
  if (typeof answer.body !== 'object' || answer.body === null)
    return `${name} answered HTTP ${answer.status} (not JSON)`;
  const code = (answer.body as { error?: { code?: string } }).error?.code;
  const errors = (answer.body as { errors?: { message?: string }[] }).errors;
  return `${name} answered HTTP ${answer.status}${code ? ` ${code}` : ''}${errors?.[0]?.message ? `: ${errors[0].message}` : ''}`;
};

/**
 * A floor's answers to the same requests as the service's (reads by id, a list page, a search): both 200, the same
 * envelope keys and the same data, in the same order. A floor that answers other data measures other work.
 */
export async function checkSameAnswers(
  ctx: BenchContext,
  contender: NamedServer,
  reference: NamedServer,
  requests: { method: 'GET' | 'POST'; path: string; body?: unknown }[],
): Promise<string> {
  for (const request of requests) {
    const [ours, theirs] = await Promise.all([
      call(ctx, contender.server, request.method, request.path, request.body),
      call(ctx, reference.server, request.method, request.path, request.body),
    ]);
    if (theirs.status !== 200) return describeFailure(reference.name, theirs);
    if (ours.status !== 200) return describeFailure(contender.name, ours);
    const keys = (answer: HttpAnswer) => Object.keys(answer.body as object).sort();
    if (!isDeepStrictEqual(keys(ours), keys(theirs)))
      return `envelope keys differ: ${contender.name} [${keys(ours).join(', ')}], ${reference.name} [${keys(theirs).join(', ')}]`;
    const data = (answer: HttpAnswer) => (answer.body as { data: unknown }).data;
    if (!isDeepStrictEqual(data(ours), data(theirs))) return `data differs for ${request.method} ${request.path}`;
    if ((data(theirs) as { customers?: unknown[] }).customers?.length === 0)
      return `${reference.name} found nothing for ${request.method} ${request.path}: nothing was compared`;
  }
  return `same JSON as the ${reference.name} (${requests.length} requests)`;
}

export interface NestedTree {
  customerId: string;
  accounts: { accountId: string; customers: { customerId: string }[] }[];
}

export async function expectedNestedTree(pool: pg.Pool, customerId: string): Promise<NestedTree> {
  const { rows } = await pool.query<{ account_id: string; customer_id: string; position: number; created_at: Date }>(
    'SELECT account_id::text, customer_id::text, position, created_at FROM account_customers WHERE environment = $1',
    [BENCH_ENVIRONMENT],
  );
  const accountsOf = (id: string) =>
    rows
      .filter((row) => row.customer_id === id)
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.account_id.localeCompare(b.account_id))
      .map((row) => row.account_id);
  const customersOf = (id: string) =>
    rows
      .filter((row) => row.account_id === id)
      .sort((a, b) => a.position - b.position)
      .map((row) => row.customer_id);
  return {
    customerId,
    accounts: accountsOf(customerId).map((accountId) => ({
      accountId,
      customers: customersOf(accountId).map((id) => ({ customerId: id })),
    })),
  };
}

interface ServiceNested {
  customerId: string;
  accounts: { accountId: string; customers: { customerId: string }[] }[];
}

interface PostGraphileNested {
  rowId: string;
  accountCustomersByCustomerIdAndEnvironment: {
    nodes: {
      accountByAccountIdAndEnvironment: {
        rowId: string;
        accountCustomersByAccountIdAndEnvironment: {
          nodes: { customerByCustomerIdAndEnvironment: { rowId: string } }[];
        };
      };
    }[];
  };
}

function fromService(customer: ServiceNested): NestedTree {
  return {
    customerId: customer.customerId,
    accounts: customer.accounts.map((account) => ({
      accountId: account.accountId,
      customers: account.customers.map((c) => ({ customerId: c.customerId })),
    })),
  };
}

function fromPostGraphile(customer: PostGraphileNested): NestedTree {
  return {
    customerId: customer.rowId,
    accounts: customer.accountCustomersByCustomerIdAndEnvironment.nodes.map(
      ({ accountByAccountIdAndEnvironment: account }) => ({
        accountId: account.rowId,
        customers: account.accountCustomersByAccountIdAndEnvironment.nodes.map(
          ({ customerByCustomerIdAndEnvironment: c }) => ({ customerId: c.rowId }),
        ),
      }),
    ),
  };
}

/** Sorted at every level: "same data" whatever order a server lists it in. */
function canonical(tree: NestedTree): NestedTree {
  return {
    customerId: tree.customerId,
    accounts: tree.accounts
      .map((a) => ({
        accountId: a.accountId,
        customers: [...a.customers].sort((x, y) => x.customerId.localeCompare(y.customerId)),
      }))
      .sort((x, y) => x.accountId.localeCompare(y.accountId)),
  };
}

export type GraphqlFlavour = 'service' | 'postgraphile';

export function nestedRequest(
  flavour: GraphqlFlavour,
  customerId: string,
): { query: string; variables: { id: string } } {
  return {
    query: flavour === 'service' ? SERVICE_NESTED_QUERY : POSTGRAPHILE_NESTED_QUERY,
    variables: { id: customerId },
  };
}

export async function checkNestedTree(
  ctx: BenchContext,
  server: RunningServer,
  flavour: GraphqlFlavour,
  customerIds: string[],
): Promise<string> {
  for (const customerId of customerIds) {
    const answer = await call(ctx, server, 'POST', `/${BENCH_ENVIRONMENT}/graphql`, nestedRequest(flavour, customerId));
    const body = answer.body as {
      data?: { customer?: ServiceNested | null; customerByRowId?: PostGraphileNested | null };
      errors?: unknown[];
    } | null;
    if (answer.status !== 200 || body?.errors !== undefined || !body?.data) return describeFailure(flavour, answer);
    const node = flavour === 'service' ? body.data.customer : body.data.customerByRowId;
    if (!node) return `${flavour} returned no customer for ${customerId}`;
    const tree =
      flavour === 'service' ? fromService(node as ServiceNested) : fromPostGraphile(node as PostGraphileNested);
    const expected = await expectedNestedTree(ctx.benchPool, customerId);
    if (isDeepStrictEqual(tree, expected)) continue;
    if (isDeepStrictEqual(canonical(tree), canonical(expected)))
      return `same data as the tables, in another order (customer ${customerId})`;
    return `data differs from the tables for customer ${customerId}`;
  }
  return `same nested data as the tables (${customerIds.length} customers)`;
}

interface StoredCustomer {
  ssn_ciphertext: Buffer;
  ssn_blind_index: Buffer;
  document_locator_number_ciphertext: Buffer;
  pii_key_id: string;
  audit_events: number;
  /** `customer.created` events of the customer whose payload carries its last name and neither its SSN nor its document locator number. */
  outbox_events: number;
}

/**
 * One create through a contender, sent twice with its Idempotency-Key, before the write scenario. It must answer
 * 201 with an id, replay that id for the same key, and leave a row whose SSN, document locator number and blind
 * index are what the service's own PiiCipher makes of the input (so every contender does the same cryptographic
 * work), with one audit event and one customer.created event.
 */
export async function checkWrites(ctx: BenchContext, contender: NamedServer): Promise<string> {
  const { name, server } = contender;
  const factory = new RequestFactory(
    BENCH_ENVIRONMENT,
    { customerIds: ctx.data.customerIds, accountIds: [], nestedCustomerIds: [] },
    ctx.nextSsnSequence,
  );
  const request = factory.build('rest-post-customer');
  ctx.nextSsnSequence = factory.ssnSequencesUsed + 1;
  const sent = JSON.parse(request.body as string) as {
    socialSecurityNumber: string;
    documentLocatorNumber: number;
  };
  const headers = request.headers as Record<string, string> | undefined;
  const answer = await call(ctx, server, 'POST', request.path!, sent, headers);
  const data = (answer.body as { data?: { customerId?: string } } | null)?.data;
  if (answer.status !== 201 || typeof data?.customerId !== 'string') return describeFailure(name, answer);
  const customerId = data.customerId;
  const replay = await call(ctx, server, 'POST', request.path!, sent, headers);
  const replayedId = (replay.body as { data?: { customerId?: string } } | null)?.data?.customerId;
  if (replay.status !== 201 || replayedId !== customerId)
    return `the same Idempotency-Key again: ${describeFailure(name, replay)}, id ${replayedId ?? 'none'} (first ${customerId})`;
  const { rows } = await ctx.benchPool.query<StoredCustomer>(
    `SELECT ssn_ciphertext, ssn_blind_index, document_locator_number_ciphertext, pii_key_id,
            (SELECT count(*)::int FROM audit_events a WHERE a.resource_id = c.id AND a.operation = 'customer.create') AS audit_events,
            (SELECT count(*)::int FROM events e WHERE e.resource_id = c.id AND e.type = 'customer.created' AND e.payload->>'lastName' = c.last_name
               AND strpos(e.payload::text, $2) = 0 AND strpos(e.payload::text, $3) = 0) AS outbox_events
     FROM customers c WHERE id = $1`,
    [customerId, sent.socialSecurityNumber.replaceAll('-', ''), String(sent.documentLocatorNumber)],
  );
  const row = rows[0];
  if (!row) return `created ${customerId} but no row found`;
  const cipher = new PiiCipher({
    keys: new Map([[ctx.keys.keyId, ctx.keys.key]]),
    activeKeyId: ctx.keys.keyId,
    blindIndexKey: ctx.keys.blindIndexKey,
  });
  const binding = { environment: BENCH_ENVIRONMENT, customerId };
  const ssn = sent.socialSecurityNumber.replaceAll('-', '');
  try {
    if (cipher.open(binding, 'ssn', row.pii_key_id, row.ssn_ciphertext) !== ssn)
      return `created ${customerId} but its SSN does not decrypt to the one sent`;
    if (
      cipher.open(binding, 'document_locator_number', row.pii_key_id, row.document_locator_number_ciphertext) !==
      String(sent.documentLocatorNumber)
    ) {
      return `created ${customerId} but its document locator number does not decrypt to the one sent`;
    }
  } catch (error) {
    return `created ${customerId} but its personal data does not open with the service's keys (${(error as Error).message})`;
  }
  if (!cipher.blindIndex(BENCH_ENVIRONMENT, ssn).equals(row.ssn_blind_index))
    return `created ${customerId} but its SSN blind index is not the service's`;
  if (row.audit_events !== 1) return `created ${customerId} with ${row.audit_events} audit events`;
  if (row.outbox_events !== 1)
    return `created ${customerId} with ${row.outbox_events} customer.created events carrying it (and no SSN or document locator number)`;
  return 'created: 201, replayed by key, PII sealed as the service seals it, 1 audit event, 1 customer.created event';
}

/**
 * The mixed workload's update (`PUT /{env}/customer/{id} {preferredName, emails}`) on `contender`: answered 200 with
 * the changes applied, its answer is what `reference` (the service) reads of the customer after it, and it wrote one
 * audit event and one customer.updated event. Each contender updates a customer of its own (`index` of the seed's).
 */
export async function checkUpdate(
  ctx: BenchContext,
  contender: NamedServer,
  reference: NamedServer,
  index: number,
): Promise<string> {
  const customerId = ctx.data.customerIds[index % ctx.data.customerIds.length]!;
  const urlPath = `/${BENCH_ENVIRONMENT}/customer/${customerId}`;
  const body = { preferredName: `Check ${contender.name}`, emails: [`check.${index}@example.com`] };
  const written = async () =>
    (
      await ctx.benchPool.query<{ audits: number; events: number }>(
        `SELECT (SELECT count(*)::int FROM audit_events WHERE resource_id = $1 AND operation = 'customer.update') AS audits,
                (SELECT count(*)::int FROM events WHERE resource_id = $1 AND type = 'customer.updated') AS events`,
        [customerId],
      )
    ).rows[0]!;
  const before = await written();
  const answer = await call(ctx, contender.server, 'PUT', urlPath, body);
  if (answer.status !== 200) return describeFailure(contender.name, answer);
  const read = await call(ctx, reference.server, 'GET', urlPath);
  if (read.status !== 200) return describeFailure(reference.name, read);
  const data = (a: HttpAnswer) => (a.body as { data?: { preferredName?: string; emails?: string[] } }).data;
  if (data(answer)?.preferredName !== body.preferredName || !isDeepStrictEqual(data(answer)?.emails, body.emails))
    return `${contender.name}: the update's answer does not carry the changes sent`;
  if (!isDeepStrictEqual(data(answer), data(read)))
    return `${contender.name}: the update's answer differs from the ${reference.name}'s read of the customer after it`;
  const after = await written();
  if (after.audits - before.audits !== 1 || after.events - before.events !== 1)
    return `${contender.name}: the update wrote ${after.audits - before.audits} audit events and ${after.events - before.events} customer.updated events`;
  return `updated: 200, the answer is the ${reference.name}'s read after it, 1 audit event, 1 customer.updated event`;
}

export interface StatementProbe {
  accounts: number;
  statements: number | null;
  status: number;
}

/**
 * SQL statements one request costs, for customers with 1, 2, … accounts: constant is the goal. The count is
 * of the whole database, so a tick of the service's own jobs (the event sequencer every 100 ms, webhook and
 * hold-expiry polls) that falls inside the request adds its statements: each probe is sent 3 times and the
 * fewest counted is the request's (a job can only add). One run of 2026-11-24 showed "4 accounts → 3" that way.
 */
const PROBE_ATTEMPTS = 3;

export async function probeStatements(
  ctx: BenchContext,
  server: RunningServer,
  request: (customerId: string) => { method: 'GET' | 'POST'; path: string; body?: unknown },
): Promise<StatementProbe[]> {
  const probes: StatementProbe[] = [];
  if (!ctx.db.statements.exact) return probes;
  for (const { accounts, customerId } of ctx.data.probeCustomers) {
    const { method, path, body } = request(customerId);
    let fewest: StatementProbe | undefined;
    for (let attempt = 0; attempt < PROBE_ATTEMPTS; attempt++) {
      await ctx.db.statements.reset();
      const answer = await call(ctx, server, method, path, body);
      const statements = await ctx.db.statements.read();
      if (!fewest || (statements !== null && (fewest.statements === null || statements < fewest.statements)))
        fewest = { accounts, statements, status: answer.status };
    }
    probes.push(fewest!);
  }
  return probes;
}

/**
 * One transfer through the service before the transfer scenarios, built as the load generator builds it:
 * it must answer 201 with both transactions, answer the same transfer again (Idempotent-Replayed) for the
 * same Idempotency-Key without moving money twice, and leave both balances moved by the amount, two
 * entries and one audit event. A second transfer with a fresh key is then sent alone, between two readings
 * of pg_stat_statements: the statements one transfer costs when no other request shares its reads.
 */
export async function checkTransfer(ctx: BenchContext, server: RunningServer, hot: boolean): Promise<string> {
  const ledger = ctx.ledger;
  if (!ledger) return 'no ledger seed';
  const factory = new RequestFactory(
    BENCH_ENVIRONMENT,
    { customerIds: [], accountIds: [], nestedCustomerIds: [], ...ledger },
    0,
  );
  const balances = async (ids: string[]) => {
    const { rows } = await ctx.benchPool.query<{ id: string; amount: string }>(
      'SELECT id::text, amount::text FROM accounts WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((row) => [row.id, Number(row.amount)]));
  };
  const request = factory.transfer(hot);
  const sent = JSON.parse(request.body as string) as { fromAccountId: string; toAccountId: string; amount: number };
  const headers = request.headers as Record<string, string>;
  const before = await balances([sent.fromAccountId, sent.toAccountId]);
  const answer = await call(ctx, server, 'POST', request.path!, sent, headers);
  const data = (
    answer.body as {
      data?: { transferId?: string; debit?: { transactionId: string }; credit?: { transactionId: string } };
    } | null
  )?.data;
  if (answer.status !== 201 || typeof data?.transferId !== 'string') return describeFailure('service', answer);
  const replay = await fetch(server.baseUrl + request.path!, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(sent),
  });
  const replayed = (await replay.json()) as { data?: { transferId?: string } };
  if (
    replay.status !== 201 ||
    replayed.data?.transferId !== data.transferId ||
    replay.headers.get('idempotent-replayed') !== 'true'
  ) {
    return `the same Idempotency-Key again answered HTTP ${replay.status}, transfer ${replayed.data?.transferId ?? 'none'} (first ${data.transferId})`;
  }
  const after = await balances([sent.fromAccountId, sent.toAccountId]);
  const moved = (id: string) =>
    Math.round(((after.get(id) ?? Number.NaN) - (before.get(id) ?? Number.NaN)) * 100) / 100;
  if (moved(sent.fromAccountId) !== -sent.amount || moved(sent.toAccountId) !== sent.amount) {
    return `balances moved by ${moved(sent.fromAccountId)} / ${moved(sent.toAccountId)}, expected -${sent.amount} / ${sent.amount}`;
  }
  const { rows } = await ctx.benchPool.query<{ entries: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM ledger_entries WHERE transfer_id = $1::uuid) AS entries,
            (SELECT count(*)::int FROM audit_events WHERE resource_id = $1::uuid AND operation = 'transfer.create') AS events`,
    [data.transferId],
  );
  if (rows[0]?.entries !== 2 || rows[0]?.events !== 1)
    return `transfer ${data.transferId} left ${rows[0]?.entries} entries and ${rows[0]?.events} audit events`;

  return 'transferred: 201, replayed by key, both balances moved once, 2 entries, 1 audit event';
}

/**
 * After a transfer scenario's runs (the service and the transfer floor both moved money): the ledger's invariants (test/support/ledger-invariants.ts) over the ledger's accounts, i.e.
 * posted balances sum to zero per environment and currency with the settlement accounts, every balance is the sum
 * of its entries, every posting is balanced. The seed's other accounts hold opening balances without entries and
 * are left out. Answers the check's line for the report.
 */
export async function checkLedgerAfterRuns(pool: pg.Pool): Promise<string> {
  const violations = await ledgerViolations(pool, { onlyAccountsWithEntries: true });
  if (violations.length === 0)
    return "ledger after the runs: balances sum to zero per environment and currency, every balance is its entries' sum, every posting balanced";
  return `LEDGER NOT SOUND after the runs (${violations.length} violations): ${violations.slice(0, 3).join('; ')}`;
}

/**
 * The busy account's answers against its entries, read from the table: the balance as of a few moments of
 * its history (the balance_after of the last entry posted at or before it, 0 before the first), and a month's
 * JSON statement (its transactions, in posting order, and the closing balance).
 */
export async function checkBusyAccount(
  ctx: BenchContext,
  server: RunningServer,
  scenario: 'rest-balance-as-of' | 'rest-statement',
): Promise<string> {
  const growth = ctx.growth;
  if (!growth) return 'no data-growth seed';
  const ids = {
    customerIds: [],
    accountIds: [],
    nestedCustomerIds: [],
    busyAccountId: growth.busyAccountId,
    busyFrom: growth.from,
    busyTo: growth.to,
  };
  const factory = new RequestFactory(BENCH_ENVIRONMENT, ids, 0);
  const balanceAt = async (at: string, inclusive: boolean) => {
    const { rows } = await ctx.benchPool.query<{ balance: string }>(
      `SELECT e.balance_after::text AS balance FROM ledger_entries e WHERE e.account_id = $1 AND e.status = 'POSTED' AND e.posted_at ${inclusive ? '<=' : '<'} $2
       ORDER BY e.posted_at DESC, e.posting_seq DESC LIMIT 1`,
      [growth.busyAccountId, at],
    );
    return Number(rows[0]?.balance ?? 0);
  };
  const samples = 5;
  for (let i = 0; i < samples; i++) {
    const request = factory.build(scenario);
    const answer = await call(
      ctx,
      server,
      'GET',
      request.path!,
      undefined,
      (request.headers ?? {}) as Record<string, string>,
    );
    if (answer.status !== 200) return describeFailure('service', answer);
    const url = new URL(request.path!, 'http://bench');
    if (scenario === 'rest-balance-as-of') {
      const posted = (answer.body as { data?: { posted?: number } }).data?.posted;
      const expected = await balanceAt(url.searchParams.get('asOf')!, true);
      if (posted !== expected)
        return `balance as of ${url.searchParams.get('asOf')}: ${posted}, the entries say ${expected}`;
    } else {
      const from = url.searchParams.get('from')!;
      const to = url.searchParams.get('to')!;
      const data = (answer.body as { data?: { closingBalance?: number; entries?: unknown[] } }).data;
      const { rows } = await ctx.benchPool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ledger_entries e WHERE e.account_id = $1 AND e.status = 'POSTED' AND e.posted_at >= $2 AND e.posted_at < $3`,
        [growth.busyAccountId, from, to],
      );
      const closing = await balanceAt(to, false);
      if (data?.entries?.length !== rows[0]!.n || data.closingBalance !== closing) {
        return `statement ${from}–${to}: ${data?.entries?.length} transactions closing at ${data?.closingBalance}, the entries say ${rows[0]!.n} closing at ${closing}`;
      }
    }
  }
  return scenario === 'rest-balance-as-of'
    ? `${samples} balances as of random moments equal the entries' balance_after`
    : `${samples} monthly statements: every posted transaction of the month, closing balance as the entries say`;
}
