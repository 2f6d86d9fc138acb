import type pg from 'pg';
import type { RowCounts } from '../support/consistency.js';

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
