import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/logging/logger.js';
import type { RestRoute } from '../../src/rest/operations/route.js';
import { type RunningService, type StartOptions, startService } from '../../src/runtime.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { assertDocumentedResponse } from '../openapi/response-contract.js';
import { assertNoSensitiveValues } from './factories.js';

/** Statements of the service's background jobs (src/jobs), left out of the per-request statement counts. */
const BACKGROUND_STATEMENTS = new Set([
  'cas_event_sequence',
  'cas_event_prune',
  'cas_ledger_expired_holds',
  'cas_account_expired_flags',
  // The end of day (src/features/clock): its job's look-ups and record, and its steps' look-ups.
  'cas_end_of_day_progress',
  'cas_end_of_day_claim',
  'cas_end_of_day_renew',
  'cas_end_of_day_start_step',
  'cas_end_of_day_complete_step',
  'cas_end_of_day_fail_step',
  'cas_end_of_day_complete',
  'cas_ledger_expired_holds_of',
  'cas_account_expired_flags_of',
  'cas_webhook_fan_out',
  'cas_webhook_claim',
  'cas_webhook_complete',
  // The verification job's probe for due checks (src/features/verification/verification-checks.job.ts).
  'cas_verification_due_probe',
  // The http provider's look-up and pruning in the same job (docs/adr/0104).
  'cas_verification_take_submission',
  'cas_verification_prune_callbacks',
  // The read replica's health checks and replay polls (src/db/replica/replica-monitor.ts).
  'cas_replica_state',
  'cas_replica_replayed',
  'cas_primary_flushed',
]);

export const LOG_DIR = path.resolve('test-output/logs');

export interface TestService extends RunningService {
  token: string;
  database: TestDatabase;
  /** Every log line the service wrote so far. */
  logLines: string[];
  /** SQL statements executed so far, and the names of the prepared ones (reset them to measure one operation). */
  statements: { count: number; names: string[] };
  /**
   * fetch against the service, with the bearer token unless `auth: false`; checks the body for sensitive
   * values and, for documented REST operations, against the OpenAPI document.
   */
  call(method: string, pathname: string, options?: CallOptions): Promise<CallResult>;
}

export interface CallOptions {
  body?: unknown;
  /** A raw body string, sent as is. */
  rawBody?: string;
  headers?: Record<string, string>;
  auth?: boolean;
  /**
   * Check the answer of a documented REST operation against openapi.json (status, headers, body schema);
   * on by default so the whole REST suite tests the document. Off only for answers the document cannot
   * describe on purpose.
   */
  validateResponse?: boolean;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export const TEST_PII_ENV = {
  PII_KEYS: `test-1:${randomBytes(32).toString('base64')}`,
  PII_ACTIVE_KEY: 'test-1',
  PII_BLIND_INDEX_KEY: randomBytes(32).toString('base64'),
};

export interface TestServiceOptions {
  /** How the service reaches its fresh database, e.g. through a connection pooler; the database's own URL by default. */
  databaseUrl?: (database: TestDatabase) => string | Promise<string>;
  /** A database of the caller's (e.g. on a replicated cluster) instead of a fresh one. */
  database?: TestDatabase;
  /** Settings that name the fresh database (e.g. DATABASE_LISTEN_URL), added to `env`. */
  env?: (database: TestDatabase) => Record<string, string>;
  /** A REST route table built by the test (e.g. with a deprecated operation) instead of REST_ROUTES. */
  restRoutes?: readonly RestRoute[];
  /** How webhook attempts are sent (StartOptions.webhookSend), e.g. one held in flight until the test ends it. */
  webhookSend?: StartOptions['webhookSend'];
  /** The clock of rate limit windows and GraphQL deadlines (StartOptions.clock), e.g. a ManualClock (test/support/clock.ts) the test advances. */
  clock?: StartOptions['clock'];
}

/**
 * The whole service on a fresh database, listening on a free port, as `npm start` builds it.
 * Log lines are captured (and appended to test-output/logs for the suite-wide sensitive-data scan).
 */
export async function startTestService(
  env: Record<string, string> = {},
  options: TestServiceOptions = {},
): Promise<TestService> {
  // A database of the caller's (e.g. on a replicated cluster) is dropped by its stop(), after the checks below.
  const database = options.database ?? (await createTestDatabase());
  const token = `test_${randomBytes(32).toString('base64url')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: (await options.databaseUrl?.(database)) ?? database.url,
    API_TOKENS: token,
    ENVIRONMENTS: 'sandbox,production-like',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    DATABASE_POOL_SIZE: '20',
    // Hang-stoppers, not expectations (docs/adr/0088): on a busy machine a new connection, a wait for a pooled one,
    // a statement or an operation can take seconds. The production defaults (2 s, 5 s, 10 s) once answered
    // SERVICE_UNAVAILABLE to a test's setup at a load average of 12. A test of a time-out sets its own.
    DATABASE_CONNECT_TIMEOUT_MS: '60000',
    DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    GRAPHQL_MAX_EXECUTION_MS: '60000',
    // The end of day runs when a test asks (jobs.endOfDay.runOnce, an advance), never at a minute's tick in the
    // middle of what a test measures (docs/adr/0088); a test of the schedule sets its own.
    END_OF_DAY_INTERVAL_MS: '3600000',
    ...TEST_PII_ENV,
    ...env,
    ...options.env?.(database),
  });
  const logLines: string[] = [];
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `${database.name}.ndjson`);
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const text = chunk.toString('utf8');
      logLines.push(...text.split('\n').filter(Boolean));
      appendFileSync(logFile, text);
      callback();
    },
  });
  const logger = createLogger({ level: config.logLevel, pretty: false, destination });
  const statements = { count: 0, names: [] as string[] };
  const running = await startService(config, logger, {
    ...(options.restRoutes && { restRoutes: options.restRoutes }),
    ...(options.webhookSend && { webhookSend: options.webhookSend }),
    ...(options.clock && { clock: options.clock }),
    onQuery: (_durationMs, name) => {
      // The background jobs (event numbering, hold expiry) run on their own clock, not for a request.
      if (name !== undefined && BACKGROUND_STATEMENTS.has(name)) return;
      statements.count += 1;
      if (name !== undefined) statements.names.push(name);
    },
  });

  return {
    ...running,
    token,
    database,
    logLines,
    statements,
    // Every test service, at its stop: none of the SSNs and document locator numbers this test process
    // handed out (SENSITIVE_VALUES) and not the bearer token may be in any log line it wrote, and no SSN
    // or DLN in any stored audit event or idempotency record. This covers the whole suite, file by file.
    async stop() {
      await running.stop();
      try {
        assertNoSensitiveValues(logLines.join('\n'), `the log lines of a test service (${logFile})`);
        if (logLines.some((line) => line.includes(token)))
          throw new Error(`The bearer token appeared in the log lines (${logFile})`);
        const stored = await database.pool.query(
          "SELECT (SELECT coalesce(json_agg(a), '[]') FROM audit_events a) AS audit, (SELECT coalesce(json_agg(i), '[]') FROM idempotency_keys i) AS idempotency",
        );
        assertNoSensitiveValues(JSON.stringify(stored.rows), 'the audit trail or the idempotency records');
      } finally {
        await database.drop();
      }
    },
    async call(method, pathname, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.auth !== false && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
        headers.authorization = `Bearer ${token}`;
      }
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${running.url}${pathname}`, { method, headers, body });
      const text = await response.text();
      assertNoSensitiveValues(text, `the response to ${method} ${pathname}`);
      if (options.validateResponse !== false)
        assertDocumentedResponse(method, pathname, response.status, response.headers, text);
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
  };
}
