import type pg from 'pg';
import type { BenchOptions } from './options.js';
import type { BenchPostgres } from './postgres.js';
import type { BenchKeys, SeededData } from './seed.js';

/** Everything a scenario needs, built once by bench/run.ts. */
export interface BenchContext {
  options: BenchOptions;
  repoRoot: string;
  /** Scratch space for this run (spec files, service data dir, logs); removed at the end. */
  workDir: string;
  logDir: string;
  /** The reference Node: runs the load generator always, and the servers unless comparing. */
  referenceNode: string;
  db: BenchPostgres;
  /** A small pool on the bench database for checks (never used while a run is measured). */
  benchPool: pg.Pool;
  keys: BenchKeys;
  token: string;
  data: SeededData;
  /** JSON file with the ids the load generator picks from. */
  idsFile: string;
  /** Next unused SSN sequence number; every create run takes a fresh block. */
  nextSsnSequence: number;
  log(line: string): void;
}
