import { readFileSync } from 'node:fs';
import http from 'node:http';
import * as hdr from 'hdr-histogram-js';
import type { OpenLoopOutcome, OpenLoopSpec } from './open-loop-protocol.js';
import { type LoadIds, RequestFactory } from './requests.js';

/**
 * The open-loop load generator (bench/open-loop.ts), run as its own process (pinned to its own core when the
 * orchestrator can). Reads an OpenLoopSpec (JSON file named by argv[2]) and prints one OpenLoopOutcome as
 * JSON on its last stdout line.
 *
 * Open loop: request i is due at start + i / rate, whatever happened to the ones before it, and its latency is
 * measured from that intended send time, not from when it was sent: a request that waited for a free
 * connection or for a late timer carries its wait (no coordinated omission). Closed loop: each connection
 * sends its next request when the previous answer arrived; latency from the send.
 * Latencies go into an HDR histogram in microseconds (3 significant digits).
 */

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as OpenLoopSpec;
const ids = JSON.parse(readFileSync(spec.idsFile, 'utf8')) as LoadIds;
const factory = new RequestFactory(spec.environment, ids, spec.ssnSequenceStart);
const target = new URL(spec.baseUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
const checksGraphqlBodies =
  spec.kind === 'graphql-nested' || spec.kind === 'postgraphile-nested' || spec.kind === 'mixed';

const newHistogram = () =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
const latency = newHistogram();
const sendLag = newHistogram();
const statusCodes: Record<string, number> = {};
let responses = 0;
let ok = 0;
let errors = 0;
let sent = 0;
let sampleError: string | undefined;
const plain = (body: string) =>
  body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const micros = (ms: number) => Math.max(1, Math.round(ms * 1000));

/** Sends one request; resolves when it is answered, failed or abandoned, with its latency recorded from `from`. */
function send(from: number): Promise<void> {
  const built = factory.build(spec.kind);
  const body = typeof built.body === 'string' ? built.body : undefined;
  const headers: Record<string, string> = {
    authorization: `Bearer ${spec.token}`,
    'content-type': 'application/json',
    ...(built.headers as Record<string, string> | undefined),
    ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }),
  };
  sent += 1;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (status: number | string, text: string) => {
      if (settled) return;
      settled = true;
      latency.recordValue(micros(performance.now() - from));
      const graphqlError = checksGraphqlBodies && status === 200 && text.includes('"errors"');
      if (typeof status === 'number') {
        responses += 1;
        statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      }
      if (typeof status === 'number' && status >= 200 && status < 300 && !graphqlError) ok += 1;
      else {
        errors += 1;
        sampleError ??= typeof status === 'number' ? `HTTP ${status} ${plain(text).slice(0, 200)}` : status;
      }
      resolve();
    };
    const request = http.request(
      { agent, host: target.hostname, port: target.port, method: built.method ?? 'GET', path: built.path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => settle(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        response.on('error', (error) => settle(`response error: ${error.message}`, ''));
      },
    );
    // From the intended send time: a request still queued for a socket times out too.
    const timer = setTimeout(
      () => {
        settle(`no answer within ${spec.timeoutMs} ms`, '');
        request.destroy();
      },
      Math.max(1, spec.timeoutMs - (performance.now() - from)),
    );
    request.on('close', () => clearTimeout(timer));
    request.on('error', (error) => settle(`socket error: ${error.message}`, ''));
    request.end(body);
  });
}

async function openLoop(rate: number): Promise<number> {
  const total = Math.max(1, Math.round(rate * spec.durationSeconds));
  const intervalMs = 1000 / rate;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now() + 5;
  let next = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      // Everything due by now goes out, each timed from when it was due (a late timer is the generator's fault
      // and shows in its send lag, but the request still carries the wait: that is what a client would see).
      while (next < total && start + next * intervalMs <= now) {
        const due = start + next * intervalMs;
        sendLag.recordValue(micros(now - due));
        const pending = send(due);
        inFlight.add(pending);
        void pending.then(() => inFlight.delete(pending));
        next += 1;
      }
      if (next >= total) return done();
      setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
    };
    setTimeout(tick, 5);
  });
  await Promise.all(inFlight);
  return start;
}

async function closedLoop(): Promise<number> {
  const start = performance.now();
  const end = start + spec.durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      while (performance.now() < end) await send(performance.now());
    }),
  );
  return start;
}

const cpuAtStart = process.cpuUsage();
const started = spec.rate === undefined ? await closedLoop() : await openLoop(spec.rate);
const elapsedSeconds = (performance.now() - started) / 1000;
const cpuUsed = process.cpuUsage(cpuAtStart);
agent.destroy();

const ms = (us: number) => Math.round(us) / 1000;
const output: OpenLoopOutcome = {
  mode: spec.rate === undefined ? 'closed' : 'open',
  offeredRate: spec.rate ?? null,
  elapsedSeconds,
  sent,
  responses,
  ok,
  errors,
  statusCodes,
  latencyMs: {
    p50: ms(latency.getValueAtPercentile(50)),
    p90: ms(latency.getValueAtPercentile(90)),
    p99: ms(latency.getValueAtPercentile(99)),
    p999: ms(latency.getValueAtPercentile(99.9)),
    max: ms(latency.maxValue),
    mean: ms(latency.mean),
  },
  sendLagMs: spec.rate === undefined ? null : { p99: ms(sendLag.getValueAtPercentile(99)), max: ms(sendLag.maxValue) },
  histogram: hdr.encodeIntoCompressedBase64(latency),
  cpuMicros: cpuUsed.user + cpuUsed.system,
  ssnSequenceEnd: factory.ssnSequencesUsed,
  sampleError,
};
process.stdout.write(`\n${JSON.stringify(output)}\n`);
