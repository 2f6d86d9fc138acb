import { z } from 'zod';
import { integer, type Settings } from './settings.js';

/** GET /metrics: on METRICS_PORT when set, else on the main port; behind METRICS_TOKEN when set, else behind bearer tokens with `metrics:read`. */
export const metricsEnv = {
  METRICS_PORT: integer('METRICS_PORT', 0, 65535).optional(),
  METRICS_HOST: z.string().trim().min(1).optional(),
  METRICS_TOKEN: z
    .string()
    .trim()
    .refine(
      (t) => t.length >= 16 && /^[\x21-\x7e]+$/.test(t),
      'METRICS_TOKEN must be at least 16 printable ASCII characters without spaces',
    )
    .optional(),
};

/** 127.0.0.0/8, ::1 (also bracketed or IPv4-mapped) and localhost: addresses only this machine reaches. */
export const isLoopbackHost = (host: string): boolean => {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
};

export const metricsConfig = (raw: Settings<typeof metricsEnv>, host: string) => ({
  /** GET /metrics: on `port` when set, else on the main port: behind `token` when set, else behind bearer tokens with `metrics:read`. */
  metrics: {
    /** A separate listener for /metrics only; 0 picks a free port. */
    port: raw.METRICS_PORT,
    /**
     * The metrics listener's address: METRICS_HOST, else HOST when a token guards it, else 127.0.0.1. A listener
     * without METRICS_TOKEN never binds a non-loopback address (loadConfig refuses it): it would serve the
     * service's metrics to anyone who can reach the interface.
     */
    host: raw.METRICS_HOST ?? (raw.METRICS_PORT !== undefined && raw.METRICS_TOKEN === undefined ? '127.0.0.1' : host),
    /** Bearer token required on /metrics wherever it is served. */
    token: raw.METRICS_TOKEN,
  },
});

export type MetricsConfig = ReturnType<typeof metricsConfig>['metrics'];
