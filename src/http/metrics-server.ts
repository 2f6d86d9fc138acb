import type { AddressInfo } from 'node:net';
import express from 'express';
import type { MetricsConfig } from '../config/config.js';
import { metricsExposition, metricsTokenGuard, type ServiceMetrics } from './metrics.js';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * METRICS_PORT: GET /metrics alone on its own listener, so the API port never exposes it. METRICS_TOKEN
 * applies if set; without it the listener is bound to loopback only (config.ts: METRICS_HOST defaults to
 * 127.0.0.1 and must be a loopback address).
 */
export async function startMetricsServer(
  config: MetricsConfig & { port: number },
  metrics: ServiceMetrics,
): Promise<MetricsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get(
    '/metrics',
    ...(config.token === undefined ? [] : [metricsTokenGuard(config.token)]),
    metricsExposition(metrics),
  );
  app.use((_req: express.Request, res: express.Response) => {
    res.status(404).type('text/plain').send('Only GET /metrics is served on this port.\n');
  });
  const server = await new Promise<import('node:http').Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    // Scrapes are short and idempotent: no need to wait for one in flight.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
