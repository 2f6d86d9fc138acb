import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/logging/logger.js';

/**
 * What an experiment needs to start the service inside its own process (src/runtime.ts `startService`, as
 * bench/replica-token-cost.ts and bench/wake-latency.ts do, to time its statements or watch its wake-ups):
 * the settings on `databaseUrl` with a free port, a fresh token and fresh PII keys, and a logger that drops
 * every line, so the service's log does not mix with the experiment's output.
 */
export function inProcessServiceSettings(databaseUrl: string): {
  token: string;
  env: Record<string, string>;
  logger: Logger;
} {
  const token = `bench_${randomBytes(32).toString('base64url')}`;
  return {
    token,
    env: {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      API_TOKENS: token,
      LOG_PRETTY: 'false',
      PII_KEYS: `k:${randomBytes(32).toString('base64')}`,
      PII_ACTIVE_KEY: 'k',
      PII_BLIND_INDEX_KEY: randomBytes(32).toString('base64'),
    },
    logger: createLogger({
      level: 'warn',
      pretty: false,
      destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
    }),
  };
}
