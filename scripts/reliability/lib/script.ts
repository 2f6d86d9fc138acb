import { parseArgs } from 'node:util';
import { createRawClient, type RawClient, type RawResponse } from './http-client.js';
import type { JsonCall } from './consistency.js';
import { type ReliabilityResult, recordResult } from './results.js';

/** Small pieces every reliability script uses: logging, options, statistics, an API client, the exit code. */

export const log = (line: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 23)}] ${line}\n`);

export function options<T extends Record<string, { default: string; help: string }>>(
  spec: T,
  usage: string,
): { [K in keyof T]: string } {
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(Object.keys(spec).map((name) => [name, { type: 'string' as const }])),
      help: { type: 'boolean' as const },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(
      `${usage}\n\nOptions:\n${Object.entries(spec)
        .map(([name, o]) => `  --${name.padEnd(18)} ${o.help} (default ${o.default})`)
        .join('\n')}\n`,
    );
    process.exit(0);
  }
  return Object.fromEntries(
    Object.entries(spec).map(([name, o]) => [name, (values as Record<string, unknown>)[name] ?? o.default]),
  ) as { [K in keyof T]: string };
}

/** Options several scripts take, worded once; spread them into a script's `options()` spec. */
export const RECORD_OPTION = { record: { default: 'true', help: 'write the result to docs/reliability-results.json' } };
export const SEED_OPTION = { seed: { default: String(Date.now() % 1_000_000), help: 'random seed of the workload' } };
export const CONNECT_TIMEOUT_OPTION = {
  'connect-timeout': { default: '1000', help: 'DATABASE_CONNECT_TIMEOUT_MS given to the service' },
};

/** "10m", "90s", "2m30s" or plain seconds → milliseconds. */
export function duration(text: string): number {
  const match = /^(?:(\d+)m)?(?:(\d+)s?)?$/.exec(text.trim());
  if (!match || (!match[1] && !match[2])) throw new Error(`not a duration: ${text} (e.g. 10m, 90s, 2m30s)`);
  return (Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0)) * 1000;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The largest value, 0 for none; a loop, because Math.max(...values) overflows the stack past ~100k values. */
export function maximum(values: readonly number[]): number {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface Api {
  client: RawClient;
  token: string;
  /** A JSON request; network failures resolve with status 0 and the error's message. */
  send(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    timeoutMs?: number,
  ): Promise<ApiAnswer>;
  json: JsonCall;
}

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  elapsedMs: number;
  /** Set when no answer came (connection refused, reset, timeout). */
  error?: string;
}

export function createApi(baseUrl: string, token: string, maxSockets = 64): Api {
  const client = createRawClient(baseUrl, { maxSockets, timeoutMs: 10_000 });
  const send: Api['send'] = async (method, path, body, headers = {}, timeoutMs) => {
    const started = performance.now();
    try {
      const res: RawResponse = await client.send(
        {
          method,
          path,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body !== undefined && { 'content-type': 'application/json' }),
            ...headers,
          },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        },
        timeoutMs,
      );
      return { status: res.status, json: res.json, headers: res.headers, text: res.text, elapsedMs: res.elapsedMs };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return {
        status: 0,
        json: undefined,
        headers: {},
        text: '',
        elapsedMs: performance.now() - started,
        error: code ?? (error as Error).message,
      };
    }
  };
  return {
    client,
    token,
    send,
    json: async (method, path, body) => {
      const res = await send(method, path, body);
      if (res.status === 0) throw new Error(`${method} ${path}: no answer (${res.error})`);
      return res;
    },
  };
}

export interface Conclusion {
  /** Everything found wrong; repeats are counted once. */
  problems: readonly string[];
  /** How many problems to print (default 20). */
  shown?: number;
  /** What else a pass needs besides no problems (e.g. every cycle ran). */
  complete?: boolean;
  /** The outcome in one line when it passed; asked only then (a failed run may lack its figures). */
  passSummary: () => string;
  /** The script's `--record` option. */
  record: boolean;
  /** The table row, but for its result and verdict. */
  row: Omit<ReliabilityResult, 'result' | 'passed'>;
}

/**
 * How every fault script ends: prints the problems, then the outcome in one line, records it in the
 * results table (unless `--record false`), and answers whether the run passed.
 */
export function conclude(conclusion: Conclusion): boolean {
  const unique = [...new Set(conclusion.problems)];
  for (const problem of unique.slice(0, conclusion.shown ?? 20)) log(`PROBLEM: ${problem}`);
  const passed = unique.length === 0 && (conclusion.complete ?? true);
  const summary = passed ? conclusion.passSummary() : `${unique.length} problems: ${unique.slice(0, 3).join('; ')}`;
  log(summary);
  if (conclusion.record) {
    const { id, test, operations, faults, command, ...rest } = conclusion.row;
    recordResult({ id, test, operations, faults, result: summary, passed, command, ...rest });
  }
  return passed;
}

/** Runs a script's body, prints the verdict, and exits 0 only when it passed. */
export function runScript(name: string, body: () => Promise<boolean>): void {
  body().then(
    (passed) => {
      log(`${name}: ${passed ? 'PASSED' : 'FAILED'}`);
      process.exit(passed ? 0 : 1);
    },
    (error: unknown) => {
      log(`${name}: ERROR ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(2);
    },
  );
}
