import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { type Clock, systemClock } from './clock.js';
import { createHttpApp } from './app.js';
import { createAuthenticator } from './auth/authenticator.js';
import { staticPrincipalNames, staticTokenLabelKey } from './auth/bearer-token.js';
import { type Config, ConfigError } from './config/config.js';
import { PrismaApiTokenStore } from './features/tokens/index.js';
import { startEmbeddedPostgres } from './db/postgres/embedded-postgres.js';
import { PostgresSupervisor, supervisedLiveness, supervisedReadiness } from './db/postgres/postgres-supervisor.js';
import { withTranslatedErrors } from './db/sql/errors.js';
import { migrate, readMigrations } from './db/migrations/migrations.js';
import { readOutboxBacklog, startEventFeed, startEventOutbox } from './features/events/index.js';
import { type DatabaseListener, startDatabaseListener } from './db/connection/notifications.js';
import { createPool } from './db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from './db/connection/prisma-client.js';
import { type ReadReplica, startReadReplica } from './db/replica/read-replica.js';
import { readSessionSettings } from './db/connection/session-settings.js';
import { createStores } from './features/stores.js';
import { createDomainServices } from './features/services.js';
import type { DatabaseRole, Readiness } from './http/dependencies.js';
import { createDrain } from './http/draining.js';
import { createRateLimits } from './http/rate-limit.js';
import { startHoldExpiry } from './features/ledger/index.js';
import { startFlagExpiry } from './features/accounts/index.js';
import { httpProvider, sandboxProvider, startVerificationChecks } from './features/verification/index.js';
import { startEndOfDay } from './features/clock/index.js';
import {
  fairShares,
  startWebhookDelivery,
  type WebhookSend,
  webhookServiceOptions,
} from './features/webhooks/index.js';
import type { IntervalJob } from './jobs/interval-job.js';
import { ServiceMetrics } from './http/metrics.js';
import { startMetricsServer } from './http/metrics-server.js';
import { createExpressServer, refuseUpgradeOverCapacity } from './http/server.js';
import type { Logger } from './logging/logger.js';
import { resolvePiiKeyring } from './pii/dev-keys.js';
import { PiiCipher } from './pii/pii-cipher.js';
import { StatementPdfs } from './features/history/index.js';
import type { RestRoute } from './rest/operations/route.js';

export interface RunningService {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  databaseUrl: string;
  /** Base URL of the separate metrics listener, when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  /** GraphQL subscriptions now: open WebSocket connections, and subscriptions following the event feed. */
  subscriptions: { connections(): number; followers(): number };
  /**
   * The interval jobs, for tests to run one pass on demand (a pass already running is waited for first)
   * instead of waiting for HOLD_EXPIRY_INTERVAL_MS, FLAG_EXPIRY_INTERVAL_MS or EVENT_SEQUENCER_INTERVAL_MS.
   */
  jobs: {
    holdExpiry: Pick<IntervalJob, 'runOnce'>;
    flagExpiry: Pick<IntervalJob, 'runOnce'>;
    /** Applies the due verification checks' results (VERIFICATION_JOB_INTERVAL_MS). */
    verificationChecks: Pick<IntervalJob, 'runOnce'>;
    /** The end of day's check (END_OF_DAY_INTERVAL_MS): closes every ended business date not closed yet. */
    endOfDay: Pick<IntervalJob, 'runOnce'>;
    eventOutbox: Pick<IntervalJob, 'runOnce'>;
  };
  /** The HTTP listener's connection time-outs, as node:http applies them (HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS). */
  httpServer: Pick<Server, 'keepAliveTimeout' | 'headersTimeout' | 'requestTimeout'>;
  /** Graceful stop: drain (SHUTDOWN_DRAIN_MS), refuse new connections, close WebSocket connections (1001), finish in-flight requests, close the pool, stop the embedded database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Called after every SQL statement (metrics, statement counting in tests), with its prepared statement's name if any. */
  onQuery?: (durationMs: number, statementName: string | undefined) => void;
  /** Stop an embedded database that start() launched; false leaves it to the caller. */
  ownsDatabase?: boolean;
  /**
   * The embedded PostgreSQL died and could not be restarted within EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS
   * (/healthz answers 503 from then on); src/main.ts exits non-zero. Without it the service stays up, unhealthy.
   */
  onDatabaseLost?: (error: Error) => void;
  /**
   * How each webhook attempt is sent (src/jobs/webhook-http.ts' sendWebhook by default): for tests that need an
   * attempt to stay in flight until they end it, whatever WEBHOOKS_TIMEOUT_MS (test/webhooks/wake-ups.test.ts).
   */
  webhookSend?: WebhookSend;
  /** The REST route table, for tests of route-level behaviour (e.g. deprecation); REST_ROUTES by default. */
  restRoutes?: readonly RestRoute[];
  /**
   * The clock of the in-memory rate limit windows and of GraphQL's execution deadline (src/clock.ts' systemClock
   * by default): tests advance a manual one (test/support/clock.ts) instead of waiting for a window or a deadline.
   */
  clock?: Clock;
}

/** The composition root: builds every part once, in order, and returns a handle to stop them in reverse. */
export async function startService(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningService> {
  const cleanups: (() => Promise<void>)[] = [];
  const clock = options.clock ?? systemClock;
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error: unknown) => logger.error({ err: error }, 'shutdown step failed'));
  };
  try {
    const { url: databaseUrl, supervisor } = await resolveDatabase(config, logger, cleanups, options.onDatabaseLost);
    const metrics = new ServiceMetrics();
    const poolOptions = {
      max: config.databasePoolSize,
      connectTimeoutMs: config.databaseConnectTimeoutMs,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      onQuery: (durationMs: number, statementName: string | undefined) => {
        metrics.observeQuery(durationMs);
        options.onQuery?.(durationMs, statementName);
      },
      onError: (error: Error) => logger.warn({ err: { message: error.message } }, 'a database connection failed'),
    };
    const pool = createPool({ connectionString: databaseUrl, ...poolOptions });
    cleanups.push(() => pool.end());
    metrics.watchPool(pool);

    if (config.runMigrationsOnStart) {
      const report = await migrate(pool, readMigrations(), {
        ...config.migrations,
        onRetry: (retry) =>
          logger.warn(retry, 'a migration lost a lock conflict with the running fleet; rolled back, running it again'),
      });
      logger.info(
        { applied: report.applied, alreadyApplied: report.alreadyApplied.length },
        'database migrations checked',
      );
      if (report.unknown.length > 0)
        logger.warn(
          { unknown: report.unknown },
          'the database has migrations this build does not know; it was migrated by a newer version',
        );
    }

    const prisma = createPrismaClient(pool, { namedStatements: config.databasePreparedStatements });
    cleanups.push(() => prisma.$disconnect());
    await refuseProductionWithoutAuthentication(config, prisma);
    const keyring = resolvePiiKeyring(config.pii, config.dataDir, (message) => logger.warn(message));
    const storeOptions = {
      // Under the statement timeout, so a request waiting behind a duplicate gets IDEMPOTENCY_KEY_IN_PROGRESS, not a cancelled statement.
      idempotencyWaitMs: Math.min(2000, Math.floor(config.databaseStatementTimeoutMs / 2)),
    };
    const replica =
      config.databaseReplica &&
      (await startReadReplica({
        config: config.databaseReplica,
        pool: poolOptions,
        primary: prisma,
        namedStatements: config.databasePreparedStatements,
        logger,
        registry: metrics.registry,
      }));
    if (replica) cleanups.push(replica.stop);
    const stores = replica
      ? replica.stores(prisma, (client) => createStores(client, storeOptions))
      : createStores(prisma, storeOptions);
    const cipher = new PiiCipher(keyring);
    // GraphQL subscriptions' source: reads newly numbered events while someone subscribes.
    const eventFeed = startEventFeed(
      stores.events,
      {
        pollIntervalMs: config.graphql.subscriptionPollIntervalMs,
        maxFollowers: config.graphql.maxSubscriptionFollowers,
        onFull: () => metrics.quotaRefused('event_feed_followers'),
      },
      logger,
    );
    metrics.setQuotaLimit('event_feed_followers', config.graphql.maxSubscriptionFollowers);
    metrics.watchQuotaUsage('event_feed_followers', eventFeed.followers);
    cleanups.push(eventFeed.stop);
    // Production without API_TOKENS has none: managed tokens or OIDC (checked above), never a generated one.
    const staticTokens = config.apiTokens ?? (config.nodeEnv === 'production' ? [] : [developmentToken(config)]);
    const staticTokenNames = config.apiTokens === undefined ? ['development token'] : [];
    const labelKey = staticTokenLabelKey(keyring.blindIndexKey);
    const services = createDomainServices({
      stores,
      staticPrincipalNames: staticPrincipalNames(staticTokens, labelKey, staticTokenNames),
      protector: cipher,
      eventFeed,
      idempotencyTtlHours: config.idempotencyTtlHours,
      webhooks: {
        ...webhookServiceOptions(config.webhooks),
        onEndpointLimitReached: () => metrics.quotaRefused('webhook_endpoints_per_environment'),
      },
      history: {
        maxConcurrentExports: config.ledgerExportMaxConcurrent,
        onExportsFull: () => metrics.quotaRefused('ledger_exports'),
      },
      verificationProvider:
        config.verification.provider === 'sandbox' ? sandboxProvider(config.verification.sandboxDelayMs) : null,
      verification: {
        required: config.verification.required,
        documentMaxBytes: config.verification.documentMaxBytes,
        ...(config.verification.http && {
          http: {
            provider: httpProvider(config.verification.http),
            opener: cipher,
            callbackSecret: config.verification.http.callbackSecret,
            log: logger,
          },
        }),
      },
      reopenWindowDays: config.lifecycle.reopenWindowDays,
      dormancy: config.dormancy,
      accountNumbers: config.accountNumbers,
      taxFormPayer: config.taxForms.payer,
      clock: {
        timeZones: config.clock.timeZones,
        adjustable: config.clock.adjustable,
        endOfDayLeaseMs: config.clock.endOfDayLeaseMs,
        onEndOfDayFailure: (environment, businessDate, step, error) =>
          logger.error(
            { environment, businessDate, step, err: { message: (error as Error).message } },
            'an end-of-day step failed; the day is recorded FAILED and runs again',
          ),
      },
    });
    metrics.setQuotaLimit('webhook_endpoints_per_environment', config.webhooks.maxEndpointsPerEnvironment);
    metrics.setQuotaLimit('ledger_exports', config.ledgerExportMaxConcurrent);
    metrics.watchQuotaUsage('ledger_exports', () => services.history.exportsRunning());

    const holdExpiry = startHoldExpiry(services.ledger, config.holdExpiryIntervalMs, logger);
    cleanups.push(holdExpiry.stop);
    const flagExpiry = startFlagExpiry(services.accounts, config.flagExpiryIntervalMs, logger);
    cleanups.push(flagExpiry.stop);
    const verificationChecks = startVerificationChecks(
      services.verification,
      config.verification.jobIntervalMs,
      logger,
    );
    cleanups.push(verificationChecks.stop);
    const endOfDay = startEndOfDay(services.endOfDay, config.environments, config.clock.endOfDayIntervalMs, logger);
    cleanups.push(endOfDay.stop);
    const webhooks = startWebhookDelivery(
      stores.webhooks,
      cipher,
      {
        ...config.webhooks,
        shares: fairShares(config.webhooks.concurrency, config.environments.length),
        onAttempt: (attempt) => metrics.recordWebhookAttempt(attempt),
      },
      logger,
      options.webhookSend,
    );
    cleanups.push(webhooks.stop);
    const outbox = startEventOutbox(
      stores.events,
      {
        ...config.events,
        onSequenced: ({ forWebhooks }) => {
          if (forWebhooks) webhooks.wake();
          eventFeed.wake();
        },
      },
      logger,
    );
    cleanups.push(outbox.stop);
    // Other instances' sequencers and fan-outs wake this one's feed and dispatcher (docs/adr/0046-listen-notify-wake-ups.md,
    // "Waking other instances"); both keep polling, which is all they do when listening is off or down.
    let listener: DatabaseListener | undefined;
    if (config.databaseListen) {
      const listenerMetrics = metrics.watchListener();
      listener = startDatabaseListener({
        // The primary: DATABASE_LISTEN_URL when DATABASE_URL is a transaction-mode pooler; never the replica.
        connectionString: config.databaseListenUrl ?? databaseUrl,
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        logger,
        onConnectionChange: listenerMetrics.connectionChanged,
        onNotification: listenerMetrics.notified,
      });
      cleanups.push(listener.stop);
      listener.onEventsNumbered(() => eventFeed.wake());
      listener.onDeliveriesDue(() => webhooks.wake());
    }
    metrics.watchOutbox(() => readOutboxBacklog(prisma));

    // Statement PDFs are drawn by worker threads, never on the event loop; stopped after the HTTP server (cleanups run in reverse).
    const statementPdfs = new StatementPdfs({
      ...config.statementPdf,
      onRendered: () => metrics.recordStatementPdf('rendered'),
      onCacheHit: () => metrics.recordStatementPdf('cached'),
      onRefused: () => metrics.quotaRefused('statement_pdf_renders'),
    });
    cleanups.push(() => statementPdfs.close());
    metrics.setQuotaLimit('statement_pdf_renders', config.statementPdf.maxPending);
    metrics.watchQuotaUsage('statement_pdf_renders', () => statementPdfs.pending());
    metrics.watchStatementPdfCache(() => statementPdfs.cachedBytes());

    const drain = createDrain(config.shutdownDrainMs, logger);
    const rateLimits = createRateLimits(config.rateLimit, logger, { clock });
    cleanups.push(() => rateLimits.close());
    await rateLimits.connected;
    const {
      app,
      subscriptions,
      close: closeSurfaces,
    } = await createHttpApp({
      config,
      logger,
      services,
      authenticator: createAuthenticator({
        staticTokens,
        staticTokenNames,
        staticTokenLabelKey: labelKey,
        tokenStore: withTranslatedErrors(new PrismaApiTokenStore(prisma)),
        oidc: config.oidc,
        onTouchFailed: (error) =>
          logger.warn({ err: { message: (error as Error).message } }, "could not record a token's last use"),
        cache: config.authCache,
        // Revocations and other changes of managed tokens, from every instance; none with DATABASE_LISTEN=false.
        tokenChanges: listener,
        onCacheLookup: (cache, hit) => metrics.authCacheLookup(cache, hit),
      }),
      environments: new Set(config.environments),
      rateLimits,
      clock,
      statementPdfs,
      checkReadiness: drain.readiness(
        supervisor
          ? supervisedReadiness(supervisor, readinessCheck(prisma, logger, replica))
          : readinessCheck(prisma, logger, replica),
      ),
      ...(supervisor && { checkLiveness: () => supervisedLiveness(supervisor) }),
      metrics,
      ...(replica && { readConsistency: replica.router }),
      ...(options.restRoutes && { restRoutes: options.restRoutes }),
    });
    cleanups.push(closeSurfaces);

    const server = await listen(app, config);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!refuseUpgradeOverCapacity(socket)) subscriptions.handleUpgrade(req, socket, head);
    });
    cleanups.push(() => closeGracefully(server, config.shutdownTimeoutMs, subscriptions.close));
    const { port } = server.address() as AddressInfo;
    let metricsUrl: string | undefined;
    if (config.metrics.port !== undefined) {
      const metricsServer = await startMetricsServer({ ...config.metrics, port: config.metrics.port }, metrics);
      cleanups.push(metricsServer.close);
      metricsUrl = metricsServer.url;
    }
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    logger.info(
      {
        port,
        environments: config.environments,
        database: config.databaseUrl ? 'external' : 'embedded',
        metrics: metricsUrl ?? 'main port',
      },
      'service listening',
    );
    let stopping: Promise<void> | undefined;
    return {
      url: `http://${host}:${port}`,
      port,
      databaseUrl,
      metricsUrl,
      subscriptions: { connections: subscriptions.connections, followers: eventFeed.followers },
      httpServer: server,
      jobs: {
        holdExpiry: { runOnce: holdExpiry.runOnce },
        flagExpiry: { runOnce: flagExpiry.runOnce },
        verificationChecks: { runOnce: verificationChecks.runOnce },
        endOfDay: { runOnce: endOfDay.runOnce },
        eventOutbox: { runOnce: outbox.runOnce },
      },
      stop: () => (stopping ??= drain.drain().then(stopAll)),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function resolveDatabase(
  config: Config,
  logger: Logger,
  cleanups: (() => Promise<void>)[],
  onDatabaseLost: ((error: Error) => void) | undefined,
): Promise<{ url: string; supervisor: PostgresSupervisor | undefined }> {
  if (config.databaseUrl) return { url: config.databaseUrl, supervisor: undefined };
  const started = performance.now();
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPostgresPort,
    startTimeoutMs: config.embeddedPostgresRestartTimeoutMs,
    log: (message, level) => logger[level ?? 'info'](message),
  });
  // Restarts it when it dies (docs/how-to/run-in-production.md, "The embedded PostgreSQL is supervised"); stopping the supervisor stops the server.
  const supervisor = new PostgresSupervisor(embedded, {
    giveUpAfterMs: config.embeddedPostgresRestartTimeoutMs,
    logger,
    onGiveUp: onDatabaseLost,
  });
  cleanups.push(() => supervisor.stop());
  logger.info(
    { dataDir: config.dataDir, startupMs: Math.round(performance.now() - started) },
    'embedded PostgreSQL started',
  );
  return { url: embedded.url, supervisor };
}

/**
 * Development convenience only (never in production, which uses API_TOKENS, managed tokens or OIDC): a token generated
 * once, kept in DATA_DIR and printed at every start so curl examples work right away.
 */
function developmentToken(config: Config): string {
  const file = path.join(config.dataDir, 'dev-api-token');
  let token: string;
  if (existsSync(file)) {
    token = readFileSync(file, 'utf8').trim();
  } else {
    token = `dev_${randomBytes(32).toString('base64url')}`;
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
  }
  // Deliberately not through the structured logger: log pipelines must never receive tokens.
  process.stderr.write(`\nAPI_TOKENS is not set. Development bearer token (kept in ${file}):\n\n    ${token}\n\n`);
  return token;
}

/**
 * A production service must have some way to authenticate a request: API_TOKENS, OIDC, or at least one
 * managed token that is neither revoked nor expired (checked once, at startup: revoking or letting the last
 * one expire later does not stop a running service, and `npm run token -- create` is the way back in).
 */
async function refuseProductionWithoutAuthentication(config: Config, prisma: PrismaClient): Promise<void> {
  if (config.nodeEnv !== 'production' || config.apiTokens !== undefined || config.oidc !== undefined) return;
  if ((await new PrismaApiTokenStore(prisma).countUsable(new Date())) > 0) return;
  throw new ConfigError([
    'NODE_ENV=production with neither API_TOKENS nor OIDC_ISSUER needs at least one managed token that is neither revoked nor expired: ' +
      'create one with npm run token -- create --name … --env … --scopes … (same DATABASE_URL), or set API_TOKENS or OIDC_ISSUER',
  ]);
}

function readinessCheck(
  prisma: PrismaClient,
  logger: Logger,
  replica: Pick<ReadReplica, 'usability'> | undefined,
): () => Promise<Readiness> {
  const expected = readMigrations().map((m) => m.name);
  let migrated = false;
  const timeZone = sessionTimeZoneCheck(prisma, logger);
  return async () => {
    const checks: Readiness['checks'] = { database: 'pending', migrations: 'pending', timeZone: timeZone.state() };
    // The role behind DATABASE_URL: after a failover the load balancer's next server may still be a standby
    // for a moment (writes then answer 503), which an operator reads here rather than in the database.
    const database: DatabaseRole = { role: 'unknown', ...(replica && { replica: replica.usability() }) };
    try {
      const [server] = await prisma.$queryRaw<{ in_recovery: boolean }[]>`SELECT pg_is_in_recovery() AS in_recovery`;
      checks.database = 'ok';
      database.role = server?.in_recovery ? 'standby' : 'primary';
      checks.timeZone = await timeZone.check();
      if (!migrated) {
        // _prisma_migrations is Prisma's own bookkeeping, not a model: raw SQL.
        const rows = await prisma.$queryRaw<{ migration_name: string }[]>`
          SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
        const applied = new Set(rows.map((row) => row.migration_name));
        migrated = expected.every((name) => applied.has(name));
      }
      checks.migrations = migrated ? 'ok' : 'failed';
    } catch {
      if (checks.database === 'pending') checks.database = 'failed';
      if (checks.migrations === 'pending') checks.migrations = migrated ? 'ok' : 'failed';
    }
    return {
      ready: checks.database === 'ok' && checks.migrations === 'ok' && checks.timeZone === 'ok',
      checks,
      database,
    };
  };
}

/**
 * Readiness waits until the sessions are known to be in UTC (src/db/connection/session-settings.ts); checked until it
 * passes once, then cached. A wrong zone or a missing statement timeout is logged once, with the fix.
 */
function sessionTimeZoneCheck(prisma: PrismaClient, logger: Logger) {
  let state: 'ok' | 'failed' | 'pending' = 'pending';
  let reported = false;
  return {
    state: () => state,
    async check(): Promise<'ok' | 'failed'> {
      if (state === 'ok') return state;
      const settings = await readSessionSettings(prisma);
      state = settings.utc ? 'ok' : 'failed';
      if (!reported) {
        reported = true;
        const fix =
          "Behind a connection pooler the service's startup settings do not arrive: set them on the role, e.g. ALTER ROLE <service role> SET";
        if (!settings.utc) {
          logger.error(
            { timeZone: settings.timeZone },
            `the database sessions' TimeZone is not UTC, so timestamps the service writes would be shifted; not ready until it is. ${fix} timezone = 'UTC'`,
          );
        }
        if (settings.statementTimeout === '0') {
          logger.warn(
            `the database sessions have no statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS did not arrive). ${fix} statement_timeout = '5s'`,
          );
        }
      }
      return state;
    },
  };
}

function listen(
  app: Express,
  {
    host,
    port,
    ...options
  }: Pick<
    Config,
    'host' | 'port' | 'keepAliveTimeoutMs' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxConnectionsPerAddress'
  >,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createExpressServer(app, {
      keepAliveTimeoutMs: options.keepAliveTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      maxConnectionsPerAddress: options.maxConnectionsPerAddress,
    });
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * Stops accepting, closes the WebSocket connections (they are no HTTP requests: nothing else would end them),
 * and lets the requests in flight finish, within `timeoutMs`.
 */
async function closeGracefully(server: Server, timeoutMs: number, closeWebSockets: () => Promise<void>): Promise<void> {
  // A request that still arrives on an open keep-alive connection is answered, with `Connection: close`,
  // so each client leaves its connection after that answer instead of racing the idle sweep below
  // (scripts/reliability/shutdown.ts). Prepended: it must run before any handler can send the headers.
  server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
  const webSockets = closeWebSockets();
  await new Promise<void>((resolve) => {
    // A keep-alive connection whose request finishes after close() began turns idle later; without the
    // sweep, close() waits for the client to drop it (seconds) instead of ending once requests are done.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => {
      clearInterval(sweep);
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
  await webSockets;
}
