import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildCustomerInput } from '../../../test/support/factories.js';
import { answerOf, envelopeProblems } from './envelope.js';
import { pick, seededRandom } from './concurrency.js';
import type { Api, ApiAnswer } from './script.js';

/**
 * The fault scripts' load, written once: `startClients` runs seeded clients until stopped, `sampleAnswers`
 * keeps every answer with the phase it left and came back in, and `startMixedLoad` is the mixed load built
 * on them.
 *
 * The mixed load (network partition, full disk, slow disk, the fleet): each
 * client reads customers, creates customers with an Idempotency-Key and updates its own customers. A write
 * answered 503 (or not at all) is retried as a client following Retry-After would (shortened to
 * `retryPauseMs`): a creation with the same key, an update with the same body, until it succeeds or the
 * load stops. Every answer is kept with the phase it started and ended in, for the script's assertions;
 * every acknowledged write is tracked for `verifyAcknowledged`.
 */

export type LoadKind = 'read' | 'create' | 'update';

export interface LoadSample {
  /** What the request does, in the script's words (the mixed load's: a LoadKind). */
  kind: string;
  method: string;
  path: string;
  /** The script's phase when the request left, and when its answer came. */
  phase: string;
  endPhase: string;
  /** performance.now() when it left, and when its answer (or its failure) came. */
  startedAt: number;
  endedAt: number;
  res: ApiAnswer;
}

export interface Clients {
  /** Stops the clients after their current step and waits for them. */
  stop(): Promise<void>;
}

/**
 * `count` clients, each with its own random sequence (`seedOf(index)`), each repeating the step that
 * `client(index, random)` builds (so a client keeps its own state in it) until stop(); a step answering
 * 'stop' ends its client.
 */
export function startClients(
  count: number,
  seedOf: (index: number) => number,
  client: (index: number, random: () => number) => () => Promise<void | 'stop'>,
): Clients {
  let running = true;
  const workers = Array.from({ length: count }, async (_, index) => {
    const step = client(index, seededRandom(seedOf(index)));
    while (running) if ((await step()) === 'stop') return;
  });
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

export interface SampledApi {
  samples: LoadSample[];
  /** Sends through the API and keeps the answer as a sample. */
  send(
    kind: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiAnswer>;
}

/** Every answer kept with the phase (`phase()`) its request left in and came back in. */
export function sampleAnswers(api: Api, options: { phase?: () => string; requestTimeoutMs: number }): SampledApi {
  const phase = options.phase ?? (() => '');
  const samples: LoadSample[] = [];
  return {
    samples,
    async send(kind, method, path, body, headers = {}) {
      const startedAt = performance.now();
      const startPhase = phase();
      const res = await api.send(method, path, body, headers, options.requestTimeoutMs);
      samples.push({
        kind,
        method,
        path,
        phase: startPhase,
        endPhase: phase(),
        startedAt,
        endedAt: performance.now(),
        res,
      });
      return res;
    },
  };
}

export interface TrackedCustomer {
  id: string;
  /** The last preferredName a 2xx acknowledged. */
  acknowledged: string;
  /** Names sent after it whose answer was not a success: each may or may not have been applied (a 503 is "outcome unknown"). */
  unknown: string[];
}

export interface MixedLoadOptions {
  clients: number;
  seed: number;
  /** The script's current phase, read when each request leaves and when its answer comes. */
  phase: () => string;
  /** Shares of reads and creations; the rest are updates. */
  readShare?: number;
  createShare?: number;
  /** Client-side time-out of one request: an answer later than this counts as a hang (status 0). */
  requestTimeoutMs: number;
  retryPauseMs?: number;
  /** Answers retried (default: 503, no answer, a key still in progress); e.g. a load balancer's 502 too. */
  retryable?: (res: ApiAnswer) => boolean;
}

export interface MixedLoad {
  samples: LoadSample[];
  customers: Map<string, TrackedCustomer>;
  /** Writes acknowledged with a 2xx. */
  acknowledgedWrites(): number;
  /** Stops issuing requests (pending retries are abandoned) and waits for the clients. */
  stop(): Promise<void>;
}

/** What a client retries: 503 (Retry-After), no answer, and a key whose first request is still running. */
export const isRetryable = (res: ApiAnswer): boolean =>
  res.status === 503 ||
  res.status === 0 ||
  (res.status === 409 && res.json?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS');

export function startMixedLoad(api: Api, options: MixedLoadOptions): MixedLoad {
  const { clients, seed, phase, requestTimeoutMs } = options;
  const readShare = options.readShare ?? 0.5;
  const createShare = options.createShare ?? 0.25;
  const retryPauseMs = options.retryPauseMs ?? 100;
  const retryable = options.retryable ?? isRetryable;
  const { samples, send } = sampleAnswers(api, { phase, requestTimeoutMs });
  const customers = new Map<string, TrackedCustomer>();
  const known: TrackedCustomer[] = [];
  let acknowledged = 0;
  let running = true;

  /** Sends until a definite answer (not 503, no answer or a key still in progress) or the load stops. */
  const untilDefinite = async (
    kind: LoadKind,
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiAnswer | undefined> => {
    while (running) {
      const res = await send(kind, method, path, body, headers);
      if (!retryable(res)) return res;
      await sleep(retryPauseMs);
    }
    return undefined;
  };

  const create = async (mine: TrackedCustomer[]) => {
    const body = buildCustomerInput({ preferredName: `n${randomUUID().slice(0, 8)}` });
    const res = await untilDefinite('create', 'POST', '/sandbox/customer', body, { 'idempotency-key': randomUUID() });
    if (res?.status !== 201) return;
    acknowledged += 1;
    const id = res.json.data.customerId as string;
    if (customers.has(id)) return;
    const customer: TrackedCustomer = { id, acknowledged: body.preferredName!, unknown: [] };
    customers.set(id, customer);
    known.push(customer);
    mine.push(customer);
  };

  const update = async (customer: TrackedCustomer, random: () => number) => {
    const name = `u${Math.floor(random() * 1e9)}`;
    const path = `/sandbox/customer/${customer.id}`;
    const res = await untilDefinite('update', 'PUT', path, { preferredName: name });
    if (res?.status === 200) {
      acknowledged += 1;
      customer.acknowledged = name;
      customer.unknown = [];
    } else customer.unknown.push(name);
  };

  const workers = startClients(
    clients,
    (index) => seed * 100 + index,
    (_, random) => {
      const mine: TrackedCustomer[] = [];
      return async () => {
        const roll = random();
        if (mine.length === 0 || (roll >= readShare && roll < readShare + createShare)) await create(mine);
        else if (roll < readShare && known.length > 0) {
          const res = await send('read', 'GET', `/sandbox/customer/${pick(random, known).id}`);
          if (res.status === 503 || res.status === 0) await sleep(retryPauseMs);
        } else await update(pick(random, mine), random);
      };
    },
  );
  return {
    samples,
    customers,
    acknowledgedWrites: () => acknowledged,
    async stop() {
      running = false;
      await workers.stop();
    },
  };
}

/**
 * What is wrong with one answer, whatever the phase: no answer at all (a hang past the client's time-out, a
 * reset), an answer outside the envelope, a 5xx other than 503 SERVICE_UNAVAILABLE with Retry-After: 1, or
 * an answer slower than `boundMs`.
 */
export function answerProblems(sample: LoadSample, boundMs: number): string[] {
  const { res } = sample;
  const what = `${sample.method} ${sample.kind} during ${sample.phase}${sample.endPhase === sample.phase ? '' : `→${sample.endPhase}`}`;
  if (res.status === 0) return [`${what}: no answer (${res.error}) after ${Math.round(res.elapsedMs)} ms`];
  const problems = envelopeProblems(answerOf(res), sample.path).map((p) => `${what}: ${p}`);
  if (res.status >= 500 && !(res.status === 503 && res.json?.error?.code === 'SERVICE_UNAVAILABLE'))
    problems.push(`${what} answered ${res.status} ${res.json?.error?.code ?? ''}`);
  if (res.status === 503 && res.headers['retry-after'] !== '1') problems.push(`${what}: a 503 without Retry-After: 1`);
  if (res.elapsedMs > boundMs)
    problems.push(`${what} answered after ${Math.round(res.elapsedMs)} ms (bound ${boundMs} ms)`);
  return problems;
}

/** Every acknowledged customer reads back as acknowledged (or with a later value whose write answered 503). */
export async function verifyAcknowledged(api: Api, load: MixedLoad): Promise<string[]> {
  const problems: string[] = [];
  for (const customer of load.customers.values()) {
    const res = await api.send('GET', `/sandbox/customer/${customer.id}`, undefined, {}, 10_000);
    if (res.status !== 200) problems.push(`acknowledged customer ${customer.id} answers ${res.status}`);
    else if (
      res.json.data.preferredName !== customer.acknowledged &&
      !customer.unknown.includes(res.json.data.preferredName)
    ) {
      problems.push(
        `customer ${customer.id} reads "${res.json.data.preferredName}", not its last acknowledged "${customer.acknowledged}" (nor a later attempt)`,
      );
    }
  }
  return problems;
}

/** Status counts of a list of samples, e.g. { "200": 812, "503": 40 }. */
export function statusCounts(samples: readonly LoadSample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const sample of samples) counts[sample.res.status] = (counts[sample.res.status] ?? 0) + 1;
  return counts;
}
