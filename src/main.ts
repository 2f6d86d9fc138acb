import path from 'node:path';
import { ConfigError, loadConfig } from './config/config.js';
import { startupBanner } from './http/startup-banner.js';
import { applyHeapGrowingPercent } from './config/heap-growth.js';
import { takeOverShutdownSignals } from './db/postgres/embedded-postgres.js';
import { createLogger } from './logging/logger.js';
import { type RunningService, startService } from './runtime.js';

/** Exit code when the database is gone for good (sysexits.h EX_UNAVAILABLE). */
const EX_UNAVAILABLE = 69;
/** How long /healthz reports the loss before the process exits. */
const LIVENESS_REPORT_MS = 1000;

/** `npm start`: validate configuration, start everything, stop cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, pretty: config.logPretty });
  logger.info({ heapGrowth: applyHeapGrowingPercent(config.heapGrowingPercent) }, 'V8 heap growth set');
  // The embedded PostgreSQL died and could not be restarted in time: /healthz already answers 503; after a
  // moment for probes to see it, stop what is left and exit non-zero so that whatever supervises this
  // process (systemd, Kubernetes, docker --restart) restarts the whole unit.
  const started: { service?: RunningService } = {};
  const onDatabaseLost = (error: Error) => {
    process.stderr.write(`Fatal: ${error.message}\n`);
    setTimeout(() => {
      const exit = () => process.exit(EX_UNAVAILABLE);
      (started.service ? started.service.stop() : Promise.resolve()).then(exit, exit);
    }, LIVENESS_REPORT_MS);
  };
  const service = await startService(config, logger, { onDatabaseLost });
  started.service = service;
  process.stdout.write(
    startupBanner({
      host: config.host,
      port: service.port,
      url: service.url,
      firstEnvironment: config.environments[0]!,
      tokens:
        config.apiTokens === undefined && config.nodeEnv !== 'production'
          ? { kind: 'development', file: path.join(config.dataDir, 'dev-api-token') }
          : {
              kind: 'configured',
              names: [
                ...(config.apiTokens !== undefined ? ['API_TOKENS'] : []),
                ...(config.oidc !== undefined ? ['OIDC/JWT'] : []),
                'managed tokens (npm run token)',
              ],
            },
    }),
  );

  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting immediately');
      process.exit(1);
    }
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // The graceful stop above stops the embedded database last, after in-flight requests; its own
  // signal handlers would stop it at once.
  takeOverShutdownSignals();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
}

main().catch((error: unknown) => {
  process.stderr.write(`Startup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
