/**
 * Peak memory of the service answering issue 28's worst-case GraphQL query:
 * `{ customer(customerId) { accounts { customers { accounts { accountId } } } } }` for one customer linked
 * to N accounts (each account's only holder is that customer, so the answer holds N × N account ids).
 *
 *   npx tsx bench/graphql-worst-case.ts [--accounts 3000] [--heap-mb 4096] [--query-timeout-s 300] [--max-cost N]
 *
 * `--max-cost` sets GRAPHQL_MAX_COST (up to 10^12), to see the execution limits at work without the cost limit.
 *
 * The service runs as a child process (`node --import tsx src/main.ts`) on a throw-away embedded
 * PostgreSQL; the links are inserted with SQL with triggers off (session_replication_role = replica), so N
 * may exceed the cap on accounts per customer the service enforces since issue 28, as a customer linked
 * before the cap existed would. It prints the child's VmHWM (peak resident set) before and after the query,
 * the answer's status, size and error codes, and how long it took; a child that dies (out of memory) is
 * reported as such. Nothing is kept.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/postgres/embedded-postgres.js';

const option = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const accounts = option('accounts', 3000);
const heapMb = option('heap-mb', 0);
const queryTimeoutS = option('query-timeout-s', 300);
const maxCost = option('max-cost', 0);

const peakMb = (pid: number): number => {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
};

function startService(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; exited: Promise<string> }> {
  const args = [...(heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : []), '--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) =>
      resolve(`exit code ${code}, signal ${signal}; stderr tail: ${stderr.slice(-600)}`),
    ),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /Customer & Account Service on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) resolve({ child, url, exited });
    });
    void exited.then((why) => reject(new Error(`the service ended before it served: ${why}`)));
  });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-worst-case-'));
const postgres = await startEmbeddedPostgres({ dataDir: dir, settings: { fsync: 'off', synchronous_commit: 'off' } });
const token = `bench_${randomBytes(32).toString('base64url')}`;
let child: ChildProcess | undefined;
try {
  const service = await startService({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: postgres.url,
    API_TOKENS: token,
    ENVIRONMENTS: 'sandbox',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
    PII_KEYS: `bench-1:${randomBytes(32).toString('base64')}`,
    PII_ACTIVE_KEY: 'bench-1',
    PII_BLIND_INDEX_KEY: randomBytes(32).toString('base64'),
    ...(maxCost > 0 && { GRAPHQL_MAX_COST: String(maxCost) }),
  });
  child = service.child;
  const call = async (method: string, pathname: string, body?: unknown) => {
    const response = await fetch(`${service.url}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(queryTimeoutS * 1000),
    });
    return { status: response.status, text: await response.text() };
  };

  const created = await call('POST', '/sandbox/customer', {
    socialSecurityNumber: '123-45-6789',
    dateOfBirth: '1980-01-01',
    documentLocatorNumber: 12345678901,
    preferredName: 'Pat',
    firstName: 'Patricia',
    middleName: 'Q',
    lastName: 'Public',
    emails: [],
    phoneNumbers: [],
    addresses: [],
  });
  const customerId = (JSON.parse(created.text) as { data: { customerId: string } }).data.customerId;
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  await db.query('SET session_replication_role = replica');
  await db.query(
    `WITH made AS (
       INSERT INTO accounts (id, environment, type, name, currency)
       SELECT gen_random_uuid(), 'sandbox', 'CHECKING', 'Account ' || n, 'USD' FROM generate_series(1, $1::int) n RETURNING id
     )
     INSERT INTO account_customers (account_id, customer_id, environment, position) SELECT made.id, $2::uuid, 'sandbox', 0 FROM made`,
    [accounts, customerId],
  );
  await db.end();

  const query = 'query($id: ID!) { customer(customerId: $id) { accounts { customers { accounts { accountId } } } } }';
  await call('POST', '/sandbox/graphql', { query: '{ __typename }' }); // warm up the GraphQL path
  const pid = child.pid!;
  const before = peakMb(pid);
  // Sampled while the query runs: a child killed by the out-of-memory error leaves no /proc entry to read.
  let peak = before;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, peakMb(pid));
    } catch {
      // the child is gone
    }
  }, 100);
  const started = performance.now();
  const answer = await call('POST', '/sandbox/graphql', { query, variables: { id: customerId } }).catch(
    (error: Error) => error,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  clearInterval(sampler);
  if (answer instanceof Error) {
    const died = await Promise.race([
      service.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 5000)),
    ]);
    process.stdout.write(
      `${JSON.stringify({ accounts, heapMb: heapMb || 'default', vmHwmBeforeMb: before, vmHwmLastSeenMb: peak, seconds, failed: answer.message, service: died })}\n`,
    );
  } else {
    const { status, text } = answer;
    let codes: string[] = [];
    try {
      codes = ((JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors ?? []).map(
        (error) => error.extensions?.code ?? '?',
      );
    } catch {
      codes = ['(not JSON)'];
    }
    process.stdout.write(
      `${JSON.stringify({ accounts, heapMb: heapMb || 'default', vmHwmBeforeMb: before, vmHwmAfterMb: peakMb(pid), seconds, status, bytes: Buffer.byteLength(text), errorCodes: codes })}\n`,
    );
  }
} finally {
  child?.kill('SIGKILL');
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
