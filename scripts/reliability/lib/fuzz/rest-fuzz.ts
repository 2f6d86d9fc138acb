import fc from 'fast-check';
import { createRawClient, jsonRequest, type RawClient, type RawResponse } from '../http-client.js';
import { ledgerViolations } from '../../../../test/support/ledger-invariants.js';
import { type RowCounts, rowCounts, storageProblems } from '../consistency.js';
import { type FuzzOptions, type FuzzReport, runOnWorkers } from './fuzz-run.js';
import { answerOf, envelopeProblems } from '../envelope.js';
import { describeFuzzRequest, type FuzzContext, type FuzzRequest, restRequest } from './rest-requests.js';
import { buildAccountInput, buildCustomerInput } from '../../../../test/support/factories.js';

/**
 * Runs the REST fuzzer against a running service: `requests` generated requests from `workers` parallel
 * fast-check properties (each with its own seed; a failure is shrunk to a minimal request and reported
 * with the seed that replays it). Every answer must be below 500, a well-formed envelope with a
 * documented code (or a health answer), and carry none of the request's personal values. Afterwards the
 * tables must have changed by exactly what the acknowledged writes did, as told by the audit trail:
 * a rejected request stored nothing.
 */

export type RestFuzzOptions = FuzzOptions;

export interface RestFuzzReport extends FuzzReport {
  /** 2xx answers to writes: the only changes the tables may show. */
  acknowledgedWrites: number;
}

const increment = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

const isHealthPath = (path: string) => /^\/(healthz|readyz)\/?(\?.*)?$/i.test(path);

/** Everything wrong with one answer; empty when it is fine. */
export function restAnswerProblems(request: FuzzRequest, response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status}`);
  for (const secret of request.secrets)
    if (response.text.includes(secret))
      problems.push('the answer contains an SSN or document locator number of the request');
  if (request.method === 'HEAD') {
    if (response.text !== '') problems.push('a HEAD answer with a body');
    return problems;
  }
  const body = response.json as Record<string, unknown> | undefined;
  if (isHealthPath(request.path) && body && typeof body.status === 'string' && !('success' in body)) return problems;
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  problems.push(...envelopeProblems(answerOf({ ...response, headers: response.headers }), request.path));
  if (header('x-request-id') === undefined) problems.push('no X-Request-Id header');
  return problems;
}

/** A few real records in sandbox, so that generated requests can reach existing rows. */
async function seed(client: RawClient, token: string): Promise<{ context: FuzzContext; links: Map<string, number> }> {
  const customerIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await client.send(jsonRequest('POST', '/sandbox/customer', token, buildCustomerInput()));
    if (res.status !== 201) throw new Error(`seeding a customer failed: ${res.status} ${res.text.slice(0, 200)}`);
    customerIds.push((res.json as { data: { customerId: string } }).data.customerId);
  }
  const accountIds: string[] = [];
  const links = new Map<string, number>();
  for (const customers of [[customerIds[0]!], [customerIds[0]!, customerIds[1]!], [customerIds[2]!]]) {
    const res = await client.send(jsonRequest('POST', '/sandbox/account', token, buildAccountInput(customers)));
    if (res.status !== 201) throw new Error(`seeding an account failed: ${res.status} ${res.text.slice(0, 200)}`);
    const id = (res.json as { data: { accountId: string } }).data.accountId;
    accountIds.push(id);
    links.set(id, customers.length);
  }
  return { context: { token, customerIds, accountIds }, links };
}

/** Writes that are audited only when they change something (a no-op answers 200 without an audit event). */
const AUDITED_WHEN_CHANGED = /\/(flags\/[^/?]*|overdraft-limit)\/?(\?|$)/i;

export async function runRestFuzz(options: RestFuzzOptions): Promise<RestFuzzReport> {
  const client = createRawClient(options.baseUrl, { maxSockets: options.workers * 2, timeoutMs: 15_000 });
  try {
    const { context, links } = await seed(client, options.token);
    const before = await rowCounts(options.pool);
    const entriesBefore = Number(
      (await options.pool.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries')).rows[0]!.n,
    );
    const auditBefore = new Set(
      (await options.pool.query<{ id: string }>('SELECT id::text AS id FROM audit_events')).rows.map((row) => row.id),
    );
    const report: RestFuzzReport = {
      requests: 0,
      statusCounts: {},
      errorCodes: {},
      kinds: {},
      acknowledgedWrites: 0,
      serverErrors: 0,
      maxLatencyMs: 0,
      before,
      after: before,
      problems: [],
      seed: options.seed,
    };
    // Request ids of acknowledged writes (callers may send the same X-Request-Id twice: counted apart).
    /** Request id of each acknowledged write → what it was, to name the ones a check finds wrong. */
    const acknowledged = new Map<string, string>();
    const changedOrNot = new Set<string>();
    // fast-check's reports carry the counterexample; these first failures say what was wrong, briefly.
    const failures: string[] = [];

    const property = fc.asyncProperty(restRequest(context), async (request) => {
      let response: RawResponse;
      try {
        response = await client.send(request);
      } catch (error) {
        throw new Error(`no answer (${(error as Error).message}) to ${describeFuzzRequest(request)}`, { cause: error });
      }
      report.requests += 1;
      if (report.requests % 1000 === 0) options.onProgress?.(report.requests);
      increment(report.statusCounts, String(response.status));
      increment(report.kinds, request.kind.split(':').slice(0, 2).join(':'));
      const code = (response.json as { error?: { code?: string } } | undefined)?.error?.code;
      if (code) increment(report.errorCodes, code);
      if (response.status >= 500) report.serverErrors += 1;
      report.maxLatencyMs = Math.max(report.maxLatencyMs, response.elapsedMs);
      const wrote =
        response.status >= 200 &&
        response.status < 300 &&
        ['POST', 'PUT', 'DELETE'].includes(request.method) &&
        response.headers['idempotent-replayed'] !== 'true';
      // Setting a flag that is set, clearing one that is not, or the same overdraft limit again answers 200
      // and changes nothing: audited only when it changes something (docs/adr/0027-double-entry-ledger.md, "Flags").
      if (wrote && AUDITED_WHEN_CHANGED.test(request.path)) changedOrNot.add(String(response.headers['x-request-id']));
      else if (wrote) {
        acknowledged.set(
          String(response.headers['x-request-id']),
          `${response.status} to ${describeFuzzRequest(request).slice(0, 300)}`,
        );
        report.acknowledgedWrites += 1;
        const data = (response.json as { data?: { accountId?: string; customers?: string[] } } | undefined)?.data;
        if (request.method === 'POST' && data?.accountId && data.customers)
          links.set(data.accountId, data.customers.length);
      }
      const problems = restAnswerProblems(request, response);
      if (problems.length > 0)
        failures.push(
          `${problems.join('; ')} (HTTP ${response.status}) for ${describeFuzzRequest(request).slice(0, 600)}`,
        );
      if (problems.length > 0)
        throw new Error(
          `${problems.join('; ')}\n  answer: ${response.status} ${response.text.slice(0, 300)}\n  request: ${describeFuzzRequest(request)}`,
        );
    });

    await runOnWorkers(property, options, report, failures);

    // What the tables should have become: exactly the acknowledged writes, each of which left one audit event.
    report.after = await rowCounts(options.pool);
    const rows = (
      await options.pool.query<{
        id: string;
        request_id: string;
        principal_id: string;
        operation: string;
        resource_id: string;
        idempotency_key: string | null;
      }>(
        'SELECT id::text AS id, request_id, principal_id, operation, resource_id::text AS resource_id, idempotency_key FROM audit_events',
      )
    ).rows.filter((row) => !auditBefore.has(row.id));
    // The service's own write: the hold-expiry job voids a hold whose expiresAt has passed (the fuzzer sends
    // expiries from an hour ago to 40 days ahead, some a few seconds ahead). Explained only when that hold
    // really had expired and is voided now.
    const expiries = rows.filter(
      (row) => row.principal_id === 'system:hold-expiry' && row.operation === 'transaction.expire',
    );
    const expired = new Set(
      (
        await options.pool.query<{ id: string }>(
          "SELECT id::text AS id FROM ledger_entries WHERE id = ANY($1::uuid[]) AND status = 'VOIDED' AND expires_at <= now()",
          [expiries.map((row) => row.resource_id)],
        )
      ).rows.map((row) => row.id),
    );
    const systemWrites = new Set(expiries.filter((row) => expired.has(row.resource_id)).map((row) => row.id));
    const audited = new Set(rows.map((row) => row.request_id));
    const unacknowledged = rows.filter(
      (row) => !acknowledged.has(row.request_id) && !changedOrNot.has(row.request_id) && !systemWrites.has(row.id),
    );
    if (unacknowledged.length > 0)
      report.problems.push(
        `${unacknowledged.length} writes stored without a 2xx answer (${unacknowledged
          .slice(0, 3)
          .map((r) => r.operation)
          .join(', ')})`,
      );
    const unaudited = [...acknowledged].filter(([id]) => !audited.has(id));
    if (unaudited.length > 0)
      report.problems.push(
        `${unaudited.length} acknowledged writes without an audit event, e.g. ${unaudited
          .slice(0, 3)
          .map(([, what]) => what)
          .join('; ')}`,
      );
    const count = (operation: string) => rows.filter((row) => row.operation === operation).length;
    const linksOf = (operation: string) =>
      rows
        .filter((row) => row.operation === operation)
        .reduce((sum, row) => sum + (links.get(row.resource_id) ?? Number.NaN), 0);
    const expected: RowCounts = {
      customers: before.customers + count('customer.create') - count('customer.delete'),
      accounts: before.accounts + count('account.create') - count('account.delete'),
      links: before.links + linksOf('account.create') - linksOf('account.delete'),
      auditEvents:
        before.auditEvents +
        report.acknowledgedWrites +
        rows.filter((row) => changedOrNot.has(row.request_id)).length +
        systemWrites.size,
      idempotencyKeys: before.idempotencyKeys + rows.filter((row) => row.idempotency_key !== null).length,
    };
    if (JSON.stringify(expected) !== JSON.stringify(report.after)) {
      report.problems.push(
        `row counts ${JSON.stringify(report.after)} differ from what the acknowledged writes explain ${JSON.stringify(expected)}`,
      );
    }
    const entries = Number(
      (await options.pool.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries')).rows[0]!.n,
    );
    const postings = count('transaction.create') + count('transfer.create') + count('transaction.reverse');
    if (entries !== entriesBefore + 2 * postings)
      report.problems.push(`${entries - entriesBefore} ledger entries for ${postings} acknowledged postings (2 each)`);
    report.problems.push(...(await ledgerViolations(options.pool)));
    report.problems.push(...(await storageProblems(options.pool)));
    const health = await client.send({ method: 'GET', path: '/healthz' });
    if (health.status !== 200) report.problems.push(`the service is not healthy after the run: ${health.status}`);
    return report;
  } finally {
    client.close();
  }
}
