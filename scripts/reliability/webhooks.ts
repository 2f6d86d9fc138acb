import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import { notNumbered } from '../../src/features/events/event-round-fragments.js';
import { buildAccountInput, buildCustomerInput } from '../../test/support/factories.js';
import { storageProblems } from './lib/consistency.js';
import { pick, seededRandom } from './lib/concurrency.js';
import { startDedicatedPostgres } from './lib/postgres.js';
import { formatCount, recordResult } from './lib/results.js';
import {
  type Api,
  type ApiAnswer,
  createApi,
  log,
  maximum,
  options,
  percentile,
  round,
  runScript,
} from './lib/script.js';
import { buildOnce, runSecrets, type ServiceProcess, startServiceProcess } from './lib/service-process.js';
import {
  type AnswerKind,
  type Arrival,
  arrivals,
  startWebhookReceiver,
  type WebhookReceiver,
} from './lib/webhook-receivers.js';

/**
 * Webhooks under kill -9 (issue 16): the service as a child process on its own PostgreSQL, three webhook
 * endpoints on local receivers (two that answer 200, one that sometimes answers 500, 429 with Retry-After,
 * slowly or too slowly), a write load of customers, accounts, deposits and transfers, and `kill -9` of the
 * service again and again while deliveries are in flight (at least once while a receiver holds a request
 * open), each time restarted on the same database; for the second half of the run two instances share the
 * database (claims with FOR UPDATE SKIP LOCKED) and the kills alternate between them. Then, load stopped
 * and everything drained, what the receivers got is checked against the events the database holds:
 *
 * - every event reached every endpoint that takes its type, accepted (2xx) at least once;
 * - every request verified with the `standardwebhooks` library, its body the event exactly as
 *   GET /{environment}/event answers it, and no request for an event that does not exist or of a type
 *   the endpoint does not take;
 * - first arrivals per endpoint in sequence order (the guarantee of docs/adr/0036-webhooks-standard-at-least-once.md: the
 *   first attempt of event n starts only after the first attempt of every earlier event the endpoint takes
 *   has finished; with receivers that are always up, the first whole request of n therefore arrives after
 *   the first whole request of every earlier one);
 * - every event accepted twice explained by a kill between the two (at least once, never a duplicate
 *   without a crash); a 429's Retry-After honoured; sequence numbers gapless; no delivery left undelivered;
 *   storageProblems() empty.
 */

const opts = options(
  {
    kills: { default: '8', help: 'kill -9 / restart cycles' },
    between: { default: '3', help: 'seconds of load between a restart and the next kill' },
    'two-instances-from': {
      default: '5',
      help: 'from this kill on, a second instance runs beside the first and the kills alternate between them',
    },
    clients: { default: '2', help: 'concurrent writing clients' },
    pause: {
      default: '80',
      help: 'milliseconds each client waits between two writes: keeps the event rate (about 25/s) below what one endpoint takes on this loaded machine, so delays show the kills, not a queue',
    },
    'drain-timeout': { default: '120', help: 'seconds allowed for every delivery to arrive once the load stops' },
    seed: { default: String(Date.now() % 1_000_000), help: 'random seed of the workload and of the flaky receiver' },
    record: { default: 'true', help: 'write the result to docs/reliability-results.json' },
  },
  'npm run reliability:webhooks -- [options]',
);

const ENVIRONMENT = 'sandbox';
const TIMEOUT_MS = 1000;
/** The service's lease margin (src/features/webhooks/webhook-delivery.job.ts): an interrupted attempt is due again after timeout + 10 s. */
const LEASE_MS = TIMEOUT_MS + 10_000;
const RETRY_AFTER_SECONDS = 1;
const RETRY_SCHEDULE = '250ms,500ms,1s,2s,3s,5s,5s,5s,5s,5s';

interface Endpoint {
  name: string;
  receiver: WebhookReceiver;
  path: string;
  /** Empty: every type. */
  eventTypes: string[];
  endpointId: string;
}

/** An event as GET /{environment}/event answers it. */
type ApiEvent = {
  eventId: string;
  type: string;
  sequence: number;
  occurredAt: string;
  resourceType: string;
  resourceId: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
};

interface Kill {
  kill: number;
  /** Date.now() of the SIGKILL. */
  at: number;
  /** Date.now() once this script saw the killed instance exit. */
  exitedAt: number;
  instance: string;
  instancesRunning: number;
  /** A receiver held a request of this instance open when it was killed. */
  whileHolding: boolean;
  /** Deliveries claimed (leased) when the instance died, and of those still leased 1.5 s later: the dead instance's. */
  leasedAtKill: number;
  orphanedLeases: number;
  restartMs: number;
}

const accepted = (arrival: Arrival) => arrival.answer === 'ok' || arrival.answer === 'slow-ok';
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

runScript('webhooks', async () => {
  const kills = Number(opts.kills);
  const between = Number(opts.between) * 1000;
  const twoFrom = Number(opts['two-instances-from']);
  const clients = Number(opts.clients);
  const pause = Number(opts.pause);
  const seed = Number(opts.seed);
  const problems: string[] = [];
  buildOnce(log);

  // The flaky receiver: a first request fails 1 time in 8 (500), answers 429 + Retry-After 1 in 25 and slowly
  // (200 ms) in 25; a few first requests (at most 4 per run) answer after the service's time-out. From the
  // third request of an event on, it accepts, so every event is accepted in the end.
  const flakyRandom = seededRandom(seed + 7);
  let tooSlowLeft = 4;
  const flakyAnswer = (_path: string, nth: number): AnswerKind => {
    if (nth >= 3) return 'ok';
    const roll = flakyRandom();
    if (roll < 0.12) return 'error-500';
    if (roll < 0.16) return 'retry-after-429';
    if (roll < 0.2) return 'slow-ok';
    if (roll < 0.205 && tooSlowLeft > 0) {
      tooSlowLeft -= 1;
      return 'too-slow';
    }
    return 'ok';
  };
  const verifying = await startWebhookReceiver('verifying');
  const flaky = await startWebhookReceiver('flaky', {
    behaviour: { answer: flakyAnswer },
    slowMs: 200,
    tooSlowMs: TIMEOUT_MS + 1000,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });

  const postgres = await startDedicatedPostgres();
  const db = new pg.Pool({ connectionString: postgres.databaseUrl, max: 3 });
  db.on('error', (error) => log(`monitoring connection failed: ${error.message}`));
  const secrets = runSecrets();
  const env = {
    ...secrets,
    DATABASE_URL: postgres.databaseUrl,
    DATABASE_POOL_SIZE: '10',
    // Receivers on 127.0.0.1 need WEBHOOKS_ALLOW_PRIVATE_NETWORKS, which production refuses.
    NODE_ENV: 'test',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOKS_RETRY_SCHEDULE: RETRY_SCHEDULE,
    WEBHOOKS_POLL_INTERVAL_MS: '200',
    EVENT_SEQUENCER_INTERVAL_MS: '50',
  };
  const ports = [await freePort(), await freePort()];
  const names = ['A', 'B'];
  const instances: (ServiceProcess | undefined)[] = [undefined, undefined];
  const apis: Api[] = ports.map((port) => createApi(`http://127.0.0.1:${port}`, secrets.API_TOKENS!, clients * 2));
  const start = async (slot: number) => {
    instances[slot] = await startServiceProcess({ name: `webhooks-${names[slot]}`, env, port: ports[slot]! });
  };

  const endpoints: Endpoint[] = [];
  const killLog: Kill[] = [];
  /** "endpointId eventId" of deliveries a killed instance had claimed and never recorded, to the kill. */
  const cutByKill = new Map<string, Kill>();
  const statuses: Record<string, number> = {};
  let acknowledgedWrites = 0;
  let running = true;
  let twoInstancesSince: number | undefined;
  let twoInstancesUntil: number | undefined;
  let loadStoppedAt: number | undefined;
  let drainedAt: number | undefined;
  const events: ApiEvent[] = [];
  /** "endpointId eventId" of attempts the service recorded as timed out (no status code). */
  const timedOut = new Set<string>();

  try {
    await start(0);
    const { rows: before } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    if (before[0]!.n !== 0) problems.push(`${before[0]!.n} events existed before the endpoints were registered`);
    for (const [name, receiver, path, eventTypes] of [
      ['all types, verifying receiver', verifying, '/all', []],
      [
        'account and transaction types, verifying receiver',
        verifying,
        '/money',
        ['account.created', 'transaction.posted', 'transaction.pending'],
      ],
      ['all types, flaky receiver (500, 429, slow)', flaky, '/flaky', []],
    ] as const) {
      const res = await apis[0]!.send('POST', `/${ENVIRONMENT}/webhook-endpoint`, {
        url: receiver.url(path),
        eventTypes,
      });
      if (res.status !== 201) throw new Error(`registering ${path} answered ${res.status} ${res.text.slice(0, 200)}`);
      receiver.setSecret(path, res.json.data.secret as string);
      endpoints.push({
        name,
        receiver,
        path,
        eventTypes: [...eventTypes],
        endpointId: res.json.data.endpointId as string,
      });
    }
    log(`3 endpoints registered; load: ${clients} clients, ${pause} ms between writes`);

    // ---- the write load: customers, accounts, deposits, transfers, updates; every creation with its key
    const accounts: string[] = [];
    /** The same request until a definite answer (none, 503 and a key in progress are not), as a client following Retry-After would. */
    const definite = async (
      client: number,
      method: string,
      path: string,
      body: unknown,
      headers: Record<string, string> = {},
    ): Promise<ApiAnswer> => {
      for (let attempt = 0; ; attempt++) {
        // Both running: half the clients each; one restarting: the other (or, alone, the one coming back).
        const api = apis[instances[0] && instances[1] ? client % 2 : instances[1] ? 1 : 0]!;
        const res = await api.send(method, path, body, headers, 15_000);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const again =
          res.status === 0 ||
          res.status === 503 ||
          (res.status === 409 && res.json?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS');
        if (!again) {
          // The workload sends only valid requests: a refusal other than a transfer's insufficient funds is a problem.
          const refusedTransfer = res.json?.error?.code === 'INSUFFICIENT_FUNDS';
          if (res.status >= 400 && !refusedTransfer)
            problems.push(
              `${method} ${path.replace(/[0-9a-f-]{36}/g, '{id}')} answered ${res.status} ${res.json?.error?.code ?? res.text.slice(0, 80)}`,
            );
          if (res.status >= 200 && res.status < 300) acknowledgedWrites += 1;
          return res;
        }
        if (attempt > 600) throw new Error(`${method} ${path}: no definite answer after 600 attempts`);
        await sleep(50);
      }
    };
    const client = async (index: number) => {
      const random = seededRandom(seed * 100 + index);
      const customers: string[] = [];
      while (running) {
        const roll = random();
        if (customers.length === 0 || roll < 0.12) {
          const created = await definite(
            index,
            'POST',
            `/${ENVIRONMENT}/customer`,
            buildCustomerInput({ preferredName: `w${index}` }),
            { 'idempotency-key': randomUUID() },
          );
          if (created.status !== 201) continue;
          const customerId = created.json.data.customerId as string;
          customers.push(customerId);
          const account = await definite(
            index,
            'POST',
            `/${ENVIRONMENT}/account`,
            buildAccountInput([customerId], { currency: 'USD' }),
            { 'idempotency-key': randomUUID() },
          );
          if (account.status !== 201) continue;
          const accountId = account.json.data.accountId as string;
          await definite(
            index,
            'POST',
            `/${ENVIRONMENT}/account/${accountId}/transaction`,
            { type: 'CREDIT', amount: 1000, description: 'opening deposit' },
            { 'idempotency-key': randomUUID() },
          );
          accounts.push(accountId);
        } else if (roll < 0.3 && accounts.length > 0) {
          await definite(
            index,
            'POST',
            `/${ENVIRONMENT}/account/${pick(random, accounts)}/transaction`,
            { type: 'CREDIT', amount: (1 + Math.floor(random() * 5000)) / 100 },
            { 'idempotency-key': randomUUID() },
          );
        } else if (roll < 0.85 && accounts.length > 1) {
          const from = pick(random, accounts);
          let to = pick(random, accounts);
          if (to === from) to = accounts[(accounts.indexOf(from) + 1) % accounts.length]!;
          await definite(
            index,
            'POST',
            `/${ENVIRONMENT}/transfer`,
            { fromAccountId: from, toAccountId: to, amount: (1 + Math.floor(random() * 2000)) / 100 },
            { 'idempotency-key': randomUUID() },
          );
        } else {
          await definite(index, 'PUT', `/${ENVIRONMENT}/customer/${pick(random, customers)}`, {
            preferredName: `p${Math.floor(random() * 1e6)}`,
          });
        }
        if (pause > 0) await sleep(pause);
      }
    };
    const load = Array.from({ length: clients }, (_, index) => client(index));

    // ---- the kills
    const leaseIds = async (): Promise<string[]> =>
      (
        await db.query<{ lease_id: string }>('SELECT lease_id FROM webhook_deliveries WHERE lease_id IS NOT NULL')
      ).rows.map((row) => row.lease_id);
    const orphanChecks: Promise<void>[] = [];
    for (let kill = 1; kill <= kills; kill++) {
      await sleep(between);
      if (kill === twoFrom && instances[1] === undefined) {
        await start(1);
        twoInstancesSince = Date.now();
        log(`instance B started beside A on the same database (pid ${instances[1]!.pid})`);
        await sleep(between);
      }
      const both = instances[1] !== undefined;
      const slot = both ? ((kill - twoFrom) % 2 === 0 ? 1 : 0) : 0;
      const whileHolding = !both && (kill === 1 || kill % 4 === 0);
      if (whileHolding) {
        // The flaky receiver keeps the next first request open; the instance dies while it waits for the answer.
        const held = await Promise.race([flaky.holdNext('/flaky'), sleep(15_000).then(() => undefined)]);
        if (!held) problems.push(`kill ${kill}: no request to hold arrived within 15 s`);
      } else {
        // Wait (at most 3 s) until some delivery is claimed and not yet recorded: an attempt in flight.
        for (let waited = 0; waited < 3000 && (await leaseIds()).length === 0; waited += 5) await sleep(5);
      }
      const victim = instances[slot]!;
      const killedAt = Date.now();
      victim.signal('SIGKILL');
      await victim.exited;
      const exitedAt = Date.now();
      instances[slot] = undefined;
      const leased = await leaseIds();
      const entry: Kill = {
        kill,
        at: killedAt,
        exitedAt,
        instance: names[slot]!,
        instancesRunning: both ? 2 : 1,
        whileHolding,
        leasedAtKill: leased.length,
        orphanedLeases: 0,
        restartMs: 0,
      };
      // Leases of the survivor end within the time-out; the dead instance's stay until they run out.
      orphanChecks.push(
        sleep(Math.max(0, killedAt + TIMEOUT_MS + 500 - Date.now())).then(async () => {
          const { rows } = await db.query<{ key: string }>(
            "SELECT endpoint_id || ' ' || event_id AS key FROM webhook_deliveries WHERE lease_id = ANY($1::uuid[])",
            [leased],
          );
          entry.orphanedLeases = rows.length;
          for (const row of rows) cutByKill.set(row.key, entry);
        }),
      );
      const restarting = performance.now();
      await start(slot);
      entry.restartMs = Math.round(performance.now() - restarting);
      killLog.push(entry);
      log(
        `kill ${kill}: instance ${entry.instance} (${entry.instancesRunning} running${whileHolding ? ', while the flaky receiver held its request open' : ''}), ${leased.length} deliveries leased at the kill; restarted in ${entry.restartMs} ms`,
      );
    }
    await sleep(between);
    running = false;
    await Promise.all(load);
    await Promise.all(orphanChecks);
    loadStoppedAt = Date.now();
    log(`load stopped: ${formatCount(acknowledgedWrites)} acknowledged writes; draining`);

    // ---- drain: every event numbered and fanned out to every endpoint, every delivery delivered, no lease outstanding
    const deadline = Date.now() + Number(opts['drain-timeout']) * 1000;
    for (;;) {
      const { rows } = await db.query<{ unnumbered: number; behind: number; undelivered: number; leased: number }>(
        `SELECT (SELECT count(*) FROM events e WHERE ${notNumbered('e')})::int AS unnumbered,
                (SELECT count(*) FROM webhook_endpoints w WHERE w.last_sequence < (SELECT coalesce(max(s.last), 0) FROM event_sequences s WHERE s.environment = w.environment))::int AS behind,
                (SELECT count(*) FROM webhook_deliveries WHERE status <> 'delivered')::int AS undelivered,
                (SELECT count(*) FROM webhook_deliveries WHERE lease_id IS NOT NULL)::int AS leased`,
      );
      const state = rows[0]!;
      if (state.unnumbered === 0 && state.behind === 0 && state.undelivered === 0 && state.leased === 0) break;
      if (Date.now() > deadline) {
        problems.push(
          `not drained after ${opts['drain-timeout']} s: ${state.unnumbered} events unnumbered, ${state.behind} endpoints not fanned out to the last event, ${state.undelivered} deliveries not delivered, ${state.leased} leased`,
        );
        break;
      }
      await sleep(250);
    }
    drainedAt = Date.now();
    twoInstancesUntil = drainedAt;

    // Every event as the events API answers it.
    for (let after = 0; ;) {
      const res = await apis[0]!.send('GET', `/${ENVIRONMENT}/event?after=${after}&limit=100`);
      if (res.status !== 200) throw new Error(`GET /event answered ${res.status}`);
      const page = res.json.data.events as ApiEvent[];
      events.push(...page);
      if (page.length < 100) break;
      after = page.at(-1)!.sequence;
    }
    const { rows: endpointRows } = await db.query<{ id: string; enabled: boolean; disabled_reason: string | null }>(
      'SELECT id, enabled, disabled_reason FROM webhook_endpoints',
    );
    for (const row of endpointRows)
      if (!row.enabled) problems.push(`endpoint ${row.id} was disabled: ${row.disabled_reason}`);
    const { rows: statusRows } = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status',
    );
    for (const row of statusRows)
      if (row.status !== 'delivered') problems.push(`${row.n} deliveries ${row.status} after the drain`);
    const { rows: timeouts } = await db.query<{ key: string }>(
      "SELECT endpoint_id || ' ' || event_id AS key FROM webhook_attempts WHERE NOT succeeded AND status_code IS NULL",
    );
    for (const row of timeouts) timedOut.add(row.key);
    problems.push(...(await storageProblems(db)));
  } finally {
    running = false;
    for (const instance of instances) await instance?.stop();
    for (const api of apis) api.client.close();
    await verifying.close();
    await flaky.close();
    await db.end();
    await postgres.dispose();
  }

  // ---- the checks, on what the receivers got
  const bySequence = new Map(events.map((event) => [event.sequence, event]));
  const byId = new Map(events.map((event) => [event.eventId, event]));
  for (let sequence = 1; sequence <= events.length; sequence++)
    if (!bySequence.has(sequence)) problems.push(`sequence ${sequence} is missing: the numbering has a gap`);
  const occurredAt = new Map(events.map((event) => [event.eventId, Date.parse(event.occurredAt)]));
  const perEndpoint = endpoints.map((endpoint) => {
    const mine = arrivals.filter(
      (arrival) => arrival.receiver === endpoint.receiver.name && arrival.path === endpoint.path,
    );
    const takes = (type: string) => endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(type);
    const expected = events.filter((event) => takes(event.type));
    const unverified = mine.filter((arrival) => !arrival.verified);
    for (const arrival of unverified.slice(0, 5))
      problems.push(`${endpoint.path}: a request for ${arrival.webhookId} failed verification: ${arrival.verifyError}`);
    if (unverified.length > 5)
      problems.push(`${endpoint.path}: ${unverified.length - 5} more requests failed verification`);
    const acceptedAt = new Map<string, number[]>();
    const firstArrival = new Map<string, Arrival>();
    for (const arrival of mine.filter((a) => a.verified)) {
      const event = byId.get(arrival.webhookId);
      const data = arrival.payload!.data;
      if (!event) {
        problems.push(`${endpoint.path}: received event ${arrival.webhookId}, which does not exist`);
        continue;
      }
      if (!takes(event.type))
        problems.push(`${endpoint.path}: received a ${event.type} event, a type it does not take`);
      if (
        data?.eventId !== arrival.webhookId ||
        arrival.payload!.type !== event.type ||
        arrival.payload!.timestamp !== event.occurredAt ||
        canonical(data) !== canonical(event)
      ) {
        problems.push(`${endpoint.path}: the body of ${arrival.webhookId} is not the event as GET /event answers it`);
      }
      if (!firstArrival.has(arrival.webhookId)) firstArrival.set(arrival.webhookId, arrival);
      if (accepted(arrival))
        acceptedAt.set(arrival.webhookId, [...(acceptedAt.get(arrival.webhookId) ?? []), arrival.at]);
    }
    const missing = expected.filter((event) => !acceptedAt.has(event.eventId));
    if (missing.length > 0)
      problems.push(
        `${endpoint.path}: ${missing.length} of ${expected.length} events never accepted (first: sequence ${missing[0]!.sequence})`,
      );

    // First whole arrivals in sequence order.
    const firsts = [...firstArrival.values()].sort((a, b) => a.index - b.index);
    let outOfOrder = 0;
    for (let i = 1; i < firsts.length; i++) {
      const [previous, current] = [
        byId.get(firsts[i - 1]!.webhookId)!.sequence,
        byId.get(firsts[i]!.webhookId)!.sequence,
      ];
      if (current <= previous) {
        outOfOrder += 1;
        if (outOfOrder <= 3)
          problems.push(`${endpoint.path}: event ${current} first arrived after event ${previous}'s first arrival`);
      }
    }

    // Duplicates: events accepted more than once. Each must have a cause: a kill between the two acceptances
    // (the answer came, the outcome was never recorded), or an attempt the service recorded as timed out
    // although the receiver had answered (an answer later than WEBHOOKS_TIMEOUT_MS on a loaded machine).
    let duplicates = 0;
    let afterTimeOut = 0;
    let unexplained = 0;
    for (const [eventId, times] of acceptedAt) {
      if (times.length < 2) continue;
      duplicates += times.length - 1;
      for (let i = 1; i < times.length; i++) {
        // The receivers run in this process: a request the victim sent before it died can be read here after
        // the kill was sent, while this script waits for the exit. So a kill explains a repeat when the first
        // acceptance came before the victim was seen exited and the second after the kill; or when the delivery
        // was one the victim had claimed and never recorded (its lease outlived the kill).
        if (killLog.some((k) => times[i - 1]! <= k.exitedAt && k.at <= times[i]!)) continue;
        const cut = cutByKill.get(`${endpoint.endpointId} ${eventId}`);
        if (cut && cut.at <= times[i]!) continue;
        if (timedOut.has(`${endpoint.endpointId} ${eventId}`)) {
          afterTimeOut += 1;
          continue;
        }
        unexplained += 1;
        if (unexplained <= 3) {
          const nearest = killLog.reduce<Kill | undefined>(
            (best, k) => (!best || Math.abs(k.at - times[i - 1]!) < Math.abs(best.at - times[i - 1]!) ? k : best),
            undefined,
          );
          const around = nearest
            ? ` (accepted ${times[i - 1]! - nearest.at} ms and ${times[i]! - nearest.at} ms after kill ${nearest.kill}, which took ${nearest.exitedAt - nearest.at} ms to exit)`
            : '';
          problems.push(
            `${endpoint.path}: event ${byId.get(eventId)?.sequence} accepted twice with no kill between and no time-out recorded${around}`,
          );
        }
      }
    }

    // A 429's Retry-After: the next request of that event came at least that long after the answer.
    let retryAfterHonoured = 0;
    for (const arrival of mine.filter((a) => a.answer === 'retry-after-429')) {
      const next = mine.find((a) => a.webhookId === arrival.webhookId && a.index > arrival.index);
      if (!next) continue;
      if (next.at - arrival.answeredAt! < RETRY_AFTER_SECONDS * 1000 - 5)
        problems.push(
          `${endpoint.path}: a 429 with Retry-After ${RETRY_AFTER_SECONDS} was retried after ${next.at - arrival.answeredAt!} ms`,
        );
      else retryAfterHonoured += 1;
    }

    // Delay: the event's occurredAt (its transaction's time) to its first acceptance.
    const delays = expected
      .filter((event) => acceptedAt.has(event.eventId))
      .map((event) => acceptedAt.get(event.eventId)![0]! - occurredAt.get(event.eventId)!);
    const answers: Record<string, number> = {};
    for (const arrival of mine) answers[arrival.answer] = (answers[arrival.answer] ?? 0) + 1;
    return {
      endpoint: endpoint.path,
      name: endpoint.name,
      eventTypes: endpoint.eventTypes,
      expected: expected.length,
      requests: mine.length,
      answers,
      unverified: unverified.length,
      acceptedEvents: acceptedAt.size,
      duplicates,
      duplicatesAfterTimeOut: afterTimeOut,
      /** Requests after an event's first one that were not a second acceptance: retries after a failure answer, re-sends of requests cut by a kill. */
      retries: mine.length - unverified.length - firstArrival.size - duplicates,
      firstArrivalsOutOfOrder: outOfOrder,
      retryAfterHonoured,
      delayMs: { p50: percentile(delays, 50), p99: percentile(delays, 99), max: maximum(delays) },
    };
  });
  if (killLog.length !== kills) problems.push(`${killLog.length} of ${kills} kills done`);
  if (!killLog.some((k) => k.whileHolding)) problems.push('no kill while a receiver held a request open');
  if (killLog.reduce((sum, k) => sum + k.orphanedLeases, 0) === 0)
    problems.push('no kill interrupted a delivery in flight (no lease left behind)');
  const held = killLog.filter((k) => k.whileHolding);
  for (const k of held)
    if (k.orphanedLeases === 0) problems.push(`kill ${k.kill}: the held request's delivery left no lease behind`);

  const unique = [...new Set(problems)];
  for (const problem of unique.slice(0, 25)) log(`PROBLEM: ${problem}`);
  const totals = {
    events: events.length,
    deliveriesExpected: perEndpoint.reduce((sum, e) => sum + e.expected, 0),
    requests: perEndpoint.reduce((sum, e) => sum + e.requests, 0),
    duplicates: perEndpoint.reduce((sum, e) => sum + e.duplicates, 0),
    maxDelayMs: maximum(perEndpoint.map((e) => e.delayMs.max)),
    cutOff: verifying.cutOff() + flaky.cutOff(),
  };
  for (const e of perEndpoint) {
    log(
      `${e.endpoint} (${e.name}): ${e.acceptedEvents}/${e.expected} events accepted, ${e.requests} requests ${JSON.stringify(e.answers)}, ${e.duplicates} duplicates, ` +
        `first arrivals out of order ${e.firstArrivalsOutOfOrder}, delay p50 ${e.delayMs.p50} ms p99 ${e.delayMs.p99} ms max ${e.delayMs.max} ms`,
    );
  }
  const duplicatesAfterTimeOut = perEndpoint.reduce((sum, e) => sum + e.duplicatesAfterTimeOut, 0);
  const passed = unique.length === 0;
  const orphaned = killLog.reduce((sum, k) => sum + k.orphanedLeases, 0);
  const summary = passed
    ? `every one of ${formatCount(totals.events)} events reached each of the 3 endpoints taking its type (${formatCount(totals.deliveriesExpected)} deliveries), ` +
      `all ${formatCount(totals.requests)} requests verified (standardwebhooks) and equal to GET /event's answer, none for an unknown event; ` +
      `first arrivals in sequence order on every endpoint; ${totals.duplicates} duplicates (at least once), ${duplicatesAfterTimeOut === 0 ? 'each with a kill between its two acceptances' : `each with a kill between its two acceptances or a recorded time-out (${duplicatesAfterTimeOut})`}; ` +
      `${orphaned} deliveries cut by the kills re-sent after their lease; sequence gapless; storage consistent; delay commit→receiver max ${round(totals.maxDelayMs / 1000)} s (a cut delivery waits for its ${LEASE_MS / 1000} s lease)`
    : `${unique.length} problems: ${unique.slice(0, 3).join('; ')}`;
  log(summary);
  if (opts.record === 'true') {
    recordResult({
      id: 'fault-webhooks',
      test: 'Webhooks: kill -9 of the service while deliveries are in flight, one or two instances',
      operations: `${formatCount(acknowledgedWrites)} acknowledged writes (customers, accounts, deposits, transfers; ${clients} clients) → ${formatCount(totals.events)} events, ${formatCount(totals.requests)} webhook requests to 3 endpoints`,
      faults: `${killLog.length} × SIGKILL of the service (${held.length} while a receiver held a request open; ${killLog.filter((k) => k.instancesRunning === 2).length} with two instances sharing the database), restarted each time; receiver answering 500, 429 + Retry-After, slowly and past the time-out`,
      result: summary,
      passed,
      command: 'npm run reliability:webhooks',
      figures: {
        seed,
        kills: killLog,
        endpoints: perEndpoint,
        totals,
        acknowledgedWrites,
        statuses,
        twoInstancesSeconds:
          twoInstancesSince === undefined || twoInstancesUntil === undefined
            ? 0
            : round((twoInstancesUntil - twoInstancesSince) / 1000),
        drainSeconds:
          drainedAt === undefined || loadStoppedAt === undefined ? null : round((drainedAt - loadStoppedAt) / 1000),
        settings: {
          WEBHOOKS_TIMEOUT_MS: TIMEOUT_MS,
          WEBHOOKS_RETRY_SCHEDULE: RETRY_SCHEDULE,
          WEBHOOKS_POLL_INTERVAL_MS: 200,
          EVENT_SEQUENCER_INTERVAL_MS: 50,
        },
      },
    });
  }
  return passed;
});
