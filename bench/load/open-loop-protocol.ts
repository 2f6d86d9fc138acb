import type { LoadKind } from './requests.js';

/** What the orchestrator (bench/lib/open-loop.ts) hands the open-loop generator, and what it answers. */

export interface OpenLoopSpec {
  baseUrl: string;
  kind: LoadKind;
  environment: string;
  token: string;
  idsFile: string;
  ssnSequenceStart: number;
  durationSeconds: number;
  /** At most this many requests in flight (sockets); more wait for one, their wait counted in their latency. */
  connections: number;
  /** Requests per second on a constant schedule (open loop); absent: closed loop on `connections`. */
  rate?: number;
  /** A request unanswered this long is abandoned and counted as an error, at this latency. */
  timeoutMs: number;
}

export interface LatencySummaryMs {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

export interface OpenLoopOutcome {
  mode: 'open' | 'closed';
  offeredRate: number | null;
  /** Seconds from the first send to the last answer. */
  elapsedSeconds: number;
  sent: number;
  responses: number;
  ok: number;
  /** Non-2xx answers, socket errors, time-outs and GraphQL answers carrying `errors`. */
  errors: number;
  statusCodes: Record<string, number>;
  latencyMs: LatencySummaryMs;
  /** Open loop: how late the generator sent requests behind their schedule (its own health); closed: null. */
  sendLagMs: { p99: number; max: number } | null;
  /** The latency histogram (µs), HdrHistogram's compressed base64 form, for merging runs later. */
  histogram: string;
  /** CPU time (user + system) the generator spent while driving the load, in microseconds. */
  cpuMicros: number;
  ssnSequenceEnd: number;
  sampleError: string | undefined;
}
