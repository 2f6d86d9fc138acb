import type { LoadKind } from './requests.js';

/** What the orchestrator hands a load worker, and what the worker answers. */

export interface LoadSpec {
  baseUrl: string;
  kind: LoadKind;
  environment: string;
  token: string;
  durationSeconds: number;
  connections: number;
  idsFile: string;
  ssnSequenceStart: number;
  /** Requests per second across all connections (autocannon's overallRate); absent: as fast as answered. */
  rate?: number;
}

export interface LoadResult {
  durationSeconds: number;
  /** Responses received, whatever their status. */
  responses: number;
  ok: number;
  /** Non-2xx answers, socket errors, time-outs and GraphQL answers carrying `errors`. */
  errors: number;
  statusCodes: Record<string, number>;
  graphqlErrors: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  ssnSequenceEnd: number;
  /** First error body seen, shortened, to explain an error count in the report. */
  sampleError: string | undefined;
  /** CPU time (user + system) the load generator itself spent while driving the load, in microseconds. */
  cpuMicros?: number;
}
