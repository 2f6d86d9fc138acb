import fc from 'fast-check';
import type pg from 'pg';
import type { RowCounts } from '../consistency.js';

/** What both fuzzers (REST and GraphQL) take: where to send, how much, and a seed to replay a run. */
export interface FuzzOptions {
  baseUrl: string;
  token: string;
  /** A pool on the service's database, for the row counts. */
  pool: pg.Pool;
  requests: number;
  workers: number;
  seed: number;
  /** Called every 1,000 requests. */
  onProgress?: (done: number) => void;
}

/** What both fuzzers report; each adds its own count of accepted writes or answers. */
export interface FuzzReport {
  requests: number;
  statusCounts: Record<string, number>;
  errorCodes: Record<string, number>;
  kinds: Record<string, number>;
  serverErrors: number;
  maxLatencyMs: number;
  before: RowCounts;
  after: RowCounts;
  problems: string[];
  seed: number;
}

/**
 * Runs `property` on `options.workers` concurrent workers (seeds `seed`, `seed + 1`, …), `options.requests` runs
 * in all, and adds to the report each worker's shrunk counterexample and the first ten distinct failures seen.
 */
export async function runOnWorkers<T>(
  property: fc.IAsyncProperty<[T]>,
  options: FuzzOptions,
  report: FuzzReport,
  failures: readonly string[],
): Promise<void> {
  const perWorker = Math.ceil(options.requests / options.workers);
  const runs = await Promise.allSettled(
    Array.from({ length: options.workers }, (_, worker) =>
      fc.assert(property, { numRuns: perWorker, seed: options.seed + worker, endOnFailure: false }),
    ),
  );
  for (const run of runs)
    if (run.status === 'rejected') report.problems.push(String((run.reason as Error).message).slice(0, 1500));
  report.problems.push(...new Set(failures.slice(0, 10)));
}
