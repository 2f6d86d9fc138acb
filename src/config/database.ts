import path from 'node:path';
import { z } from 'zod';
import { booleanFlag, integer, type Settings } from './settings.js';

/** PostgreSQL: the external server or the embedded one, the pool, the read replica, and where to LISTEN. */
export const databaseEnv = {
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().trim().min(1).default('./.data'),
  EMBEDDED_POSTGRES_PORT: integer('EMBEDDED_POSTGRES_PORT', 1, 65535).optional(),
  EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: integer('EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS', 1000, 3_600_000).optional(),
  DATABASE_POOL_SIZE: integer('DATABASE_POOL_SIZE', 1, 200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: integer('DATABASE_CONNECT_TIMEOUT_MS', 100, 60_000).default(2000),
  DATABASE_STATEMENT_TIMEOUT_MS: integer('DATABASE_STATEMENT_TIMEOUT_MS', 100, 600_000).default(5000),
  DATABASE_REPLICA_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_REPLICA_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_REPLICA_MAX_WAIT_MS: integer('DATABASE_REPLICA_MAX_WAIT_MS', 0, 10_000).optional(),
  DATABASE_REPLICA_MAX_LAG_MS: integer('DATABASE_REPLICA_MAX_LAG_MS', 100, 86_400_000).optional(),
  DATABASE_REPLICA_CHECK_INTERVAL_MS: integer('DATABASE_REPLICA_CHECK_INTERVAL_MS', 50, 60_000).optional(),
  DATABASE_PREPARED_STATEMENTS: booleanFlag('DATABASE_PREPARED_STATEMENTS').optional(),
  DATABASE_LISTEN: booleanFlag('DATABASE_LISTEN').optional(),
  DATABASE_LISTEN_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_LISTEN_URL must be a postgres:// or postgresql:// URL')
    .optional(),
};

type DatabaseSettings = Settings<typeof databaseEnv>;

export const REPLICA_DEFAULTS = { maxWaitMs: 150, maxLagMs: 10_000, checkIntervalMs: 1000 } as const;

/** `preparedStatements`: DATABASE_PREPARED_STATEMENTS, or what DATABASE_URL's pgbouncer flag implies (loadConfig). */
export const databaseConfig = (raw: DatabaseSettings, preparedStatements: boolean) => ({
  /** External PostgreSQL; when absent an embedded PostgreSQL is started with its data in dataDir. */
  databaseUrl: raw.DATABASE_URL,
  dataDir: path.resolve(raw.DATA_DIR),
  /** Fixed port for the embedded PostgreSQL; undefined picks a free one. */
  embeddedPostgresPort: raw.EMBEDDED_POSTGRES_PORT,
  /** How long the embedded PostgreSQL may take to start, and to come back after it died, before the service gives up (exits). */
  embeddedPostgresRestartTimeoutMs: raw.EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS ?? 60_000,
  databasePoolSize: raw.DATABASE_POOL_SIZE,
  databaseConnectTimeoutMs: raw.DATABASE_CONNECT_TIMEOUT_MS,
  databaseStatementTimeoutMs: raw.DATABASE_STATEMENT_TIMEOUT_MS,
  /** A streaming replica for the reads that tolerate lag (docs/adr/0040-read-replicas.md); undefined: every read on the primary. */
  databaseReplica:
    raw.DATABASE_REPLICA_URL === undefined
      ? undefined
      : {
          url: raw.DATABASE_REPLICA_URL,
          /** How long a read presenting a consistency token may wait for the replica to replay it before the primary answers it. */
          maxWaitMs: raw.DATABASE_REPLICA_MAX_WAIT_MS ?? REPLICA_DEFAULTS.maxWaitMs,
          /** Past this much lag the replica answers no read at all. */
          maxLagMs: raw.DATABASE_REPLICA_MAX_LAG_MS ?? REPLICA_DEFAULTS.maxLagMs,
          /** How often the replica's health, position and lag are checked (and how soon a recovered replica is used again). */
          checkIntervalMs: raw.DATABASE_REPLICA_CHECK_INTERVAL_MS ?? REPLICA_DEFAULTS.checkIntervalMs,
        },
  /**
   * Named prepared statements (src/db/sql/sql.ts). False when DATABASE_URL goes through a connection pooler in
   * transaction mode that cannot keep them (pgbouncer before 1.21): DATABASE_PREPARED_STATEMENTS=false, or
   * Prisma's `pgbouncer=true` in DATABASE_URL. Such a pooler cannot run migrations either (docs/how-to/run-in-production.md, "Behind a connection pooler").
   */
  databasePreparedStatements: preparedStatements,
  /**
   * LISTEN for other instances' wake-ups on one dedicated connection (docs/adr/0046-listen-notify-wake-ups.md); false (DATABASE_LISTEN=false): other instances' work is found by polling only.
   */
  databaseListen: raw.DATABASE_LISTEN ?? true,
  /** Where to LISTEN: the primary directly or through a session-mode pooler; undefined means DATABASE_URL (or the embedded server). */
  databaseListenUrl: raw.DATABASE_LISTEN_URL,
});

export type ReplicaConfig = NonNullable<ReturnType<typeof databaseConfig>['databaseReplica']>;

type ReplicaSettings = Pick<
  DatabaseSettings,
  | 'DATABASE_URL'
  | 'DATABASE_REPLICA_URL'
  | 'DATABASE_REPLICA_MAX_WAIT_MS'
  | 'DATABASE_REPLICA_MAX_LAG_MS'
  | 'DATABASE_REPLICA_CHECK_INTERVAL_MS'
>;

export function replicaProblems(raw: ReplicaSettings, problems: string[]): void {
  if (raw.DATABASE_REPLICA_URL === undefined) {
    const orphans = (
      ['DATABASE_REPLICA_MAX_WAIT_MS', 'DATABASE_REPLICA_MAX_LAG_MS', 'DATABASE_REPLICA_CHECK_INTERVAL_MS'] as const
    ).filter((name) => raw[name] !== undefined);
    for (const name of orphans)
      problems.push(`${name} applies only to a read replica, but DATABASE_REPLICA_URL is not set`);
    return;
  }
  if (raw.DATABASE_URL === undefined)
    problems.push(
      'DATABASE_REPLICA_URL needs DATABASE_URL (the primary it replicates): the embedded PostgreSQL has no replica',
    );
  else if (raw.DATABASE_URL === raw.DATABASE_REPLICA_URL)
    problems.push('DATABASE_REPLICA_URL must name the replica, not the primary of DATABASE_URL');
}

type ListenSettings = Pick<
  DatabaseSettings,
  'DATABASE_URL' | 'DATABASE_REPLICA_URL' | 'DATABASE_LISTEN' | 'DATABASE_LISTEN_URL'
>;

/**
 * Where the wake-ups are LISTENed for. A transaction-mode pooler hands the LISTEN to whichever server
 * connection ran it and then to other clients, so nothing would ever arrive, silently: behind one the operator
 * says where to listen (a direct or session-mode URL to the primary) or that polling is enough. A standby
 * refuses LISTEN and never sees the primary's notifications, so the replica is never the place either.
 */
export function listenProblems(
  raw: ListenSettings,
  preparedStatements: boolean,
  databaseOnly: boolean,
  problems: string[],
): void {
  const url = raw.DATABASE_LISTEN_URL;
  if (url !== undefined) {
    if (raw.DATABASE_LISTEN === false)
      problems.push('DATABASE_LISTEN_URL is set but DATABASE_LISTEN=false: unset one of them');
    if (raw.DATABASE_URL === undefined)
      problems.push(
        'DATABASE_LISTEN_URL needs DATABASE_URL: with the embedded PostgreSQL the service listens on the embedded server itself',
      );
    let pgbouncer: string | null = null;
    try {
      pgbouncer = new URL(url).searchParams.get('pgbouncer');
    } catch {
      // not a URL: the schema's check reports it
    }
    if (pgbouncer === 'true') {
      problems.push(
        'DATABASE_LISTEN_URL says pgbouncer=true (a pooler in transaction mode), through which LISTEN receives nothing: point it at the PostgreSQL primary directly, or at a pooler in session mode',
      );
    }
    if (raw.DATABASE_REPLICA_URL !== undefined && url === raw.DATABASE_REPLICA_URL) {
      problems.push(
        "DATABASE_LISTEN_URL must reach the primary (the server of DATABASE_URL), not the replica of DATABASE_REPLICA_URL: a standby refuses LISTEN and never receives the primary's notifications",
      );
    }
    return;
  }
  if (!preparedStatements && raw.DATABASE_LISTEN !== false && !databaseOnly) {
    problems.push(
      'DATABASE_URL goes through a transaction-mode pooler (DATABASE_PREPARED_STATEMENTS=false or pgbouncer=true), through which LISTEN receives no notifications: ' +
        'set DATABASE_LISTEN_URL to a direct (or session-mode) connection to the PostgreSQL primary, ' +
        "or DATABASE_LISTEN=false to have other instances' work found by polling only (WEBHOOKS_POLL_INTERVAL_MS, GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS).",
    );
  }
}

/**
 * Prisma's own flag for "this URL is a pgbouncer in transaction mode" (`?pgbouncer=true`): Prisma users put
 * it in their URLs, and the pg driver would ignore it silently, so it is honoured here rather than left a trap.
 */
export function pgbouncerFlag(databaseUrl: string | undefined, problems: string[]): boolean | undefined {
  if (databaseUrl === undefined) return undefined;
  let value: string | null;
  try {
    value = new URL(databaseUrl).searchParams.get('pgbouncer');
  } catch {
    return undefined; // not a URL: the schema's check reports it
  }
  if (value === null) return undefined;
  if (value !== 'true' && value !== 'false') {
    problems.push('DATABASE_URL: its pgbouncer parameter must be true or false');
    return undefined;
  }
  return value === 'true';
}
