import pg from 'pg';
import type { WakeUps } from '../../features/events/index.js';
import type { TokenChanges } from '../../features/tokens/index.js';
import type { Logger } from '../../logging/logger.js';

/**
 * The channels the database notifies on. The sender is a statement sent through Prisma Client (the
 * sequencer's `event_sequence`, the fan-out's `webhook_fan_out`, a redelivery, an endpoint enabled) or the
 * trigger on api_tokens (a token revoked or otherwise changed, payload its id: docs/adr/0099-authentication-caches.md),
 * whose `pg_notify` PostgreSQL delivers when that transaction commits: a notification never arrives before
 * what it announces is visible.
 */
export const WAKE_CHANNELS = {
  eventsNumbered: 'cas_events_numbered',
  deliveriesDue: 'cas_webhook_deliveries_due',
  apiTokenChanged: 'cas_api_token_changed',
} as const;

/** The channels as metric labels: a fixed vocabulary. */
export type WakeChannel = 'events_numbered' | 'deliveries_due' | 'api_token_changed';

export interface DatabaseListenerOptions {
  /** The primary, directly or through a session-mode pooler: never a transaction-mode pooler, never a standby (src/config). */
  connectionString: string;
  connectTimeoutMs: number;
  logger: Logger;
  /** The first reconnection's delay; doubled after each failed attempt up to `maxReconnectDelayMs` (each with jitter). */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /**
   * How often the idle connection is asked `SELECT 1`: a connection that silently died (a network partition, a
   * failover behind a proxy) is noticed within this plus the connect time-out instead of TCP keep-alive's
   * minutes, and a server's `idle_session_timeout` never ends it.
   */
  heartbeatMs?: number;
  /** For the metrics: the connection is listening (true) or not (false). */
  onConnectionChange?: (connected: boolean) => void;
  /** For the metrics: one notification received. */
  onNotification?: (channel: WakeChannel) => void;
}

export interface DatabaseListener extends WakeUps, TokenChanges {
  /** LISTENing now. */
  connected(): boolean;
  stop(): Promise<void>;
}

const DEFAULTS = { reconnectDelayMs: 200, maxReconnectDelayMs: 10_000, heartbeatMs: 15_000 } as const;
const APPLICATION_NAME = 'customer-account-service-listener';

/**
 * LISTENs for the wake-ups on ONE dedicated connection per process (docs/adr/0046-listen-notify-wake-ups.md, "Waking other
 * instances"), not one of the pool's: a pooled connection would hand the subscription to whoever borrows it
 * next, and the pool's connections are Prisma's. It is not a path to data: it sends only LISTEN and its
 * heartbeat, and what it receives only wakes jobs that then read through Prisma Client.
 *
 * When the connection drops (pg_terminate_backend, a restart, a failover) it reconnects with exponential
 * back-off; on every (re)connection each subscriber is woken once, since what was sent while it was down is
 * lost. Meanwhile the jobs keep polling: the listener only makes them prompt, never correct.
 */
export function startDatabaseListener(options: DatabaseListenerOptions): DatabaseListener {
  const { logger } = options;
  const reconnectDelayMs = options.reconnectDelayMs ?? DEFAULTS.reconnectDelayMs;
  const maxReconnectDelayMs = options.maxReconnectDelayMs ?? DEFAULTS.maxReconnectDelayMs;
  const heartbeatMs = options.heartbeatMs ?? DEFAULTS.heartbeatMs;
  const numberedListeners = new Set<(environment: string | undefined) => void>();
  const dueListeners = new Set<() => void>();
  const tokenListeners = new Set<(tokenId: string | undefined) => void>();
  let client: pg.Client | undefined;
  let listening = false;
  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  /** Since when it is not listening (undefined while it is); the first outage is the start. */
  let downSince: number | undefined = Date.now();
  let everConnected = false;
  let reported = false;

  const notify = <A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A) => {
    for (const listener of [...listeners]) {
      try {
        listener(...args);
      } catch (error) {
        logger.error({ err: error }, 'a wake-up subscriber failed');
      }
    }
  };

  const setListening = (value: boolean) => {
    if (listening === value) return;
    listening = value;
    options.onConnectionChange?.(value);
  };

  const scheduleReconnect = () => {
    if (stopped || retry) return;
    const ceiling = Math.min(maxReconnectDelayMs, reconnectDelayMs * 2 ** failures);
    failures += 1;
    // Jitter: a fleet that lost its connections together does not come back in lockstep.
    retry = setTimeout(
      () => {
        retry = undefined;
        void connect();
      },
      ceiling / 2 + Math.random() * (ceiling / 2),
    );
    retry.unref();
  };

  /** Forgets `current` (once), and reconnects unless stopped. */
  const drop = (current: pg.Client, error: Error | undefined) => {
    if (client !== current) return;
    client = undefined;
    clearInterval(heartbeat);
    heartbeat = undefined;
    setListening(false);
    current.removeAllListeners('notification');
    // Not awaited: on a connection that died silently the goodbye may never be answered.
    current.end().catch(() => undefined);
    if (stopped) return;
    downSince ??= Date.now();
    if (!reported) {
      reported = true;
      logger.warn(
        { err: { message: error?.message ?? 'the connection ended' } },
        everConnected
          ? 'the LISTEN connection was lost; reconnecting, and polling meanwhile'
          : 'could not LISTEN for wake-ups; retrying, and polling meanwhile',
      );
    }
    scheduleReconnect();
  };

  const beat = async (current: pg.Client) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        current.query('SELECT 1'),
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer to the heartbeat within ${options.connectTimeoutMs} ms`)),
            options.connectTimeoutMs,
          );
          timer.unref();
        }),
      ]);
    } catch (error) {
      drop(current, error as Error);
    } finally {
      clearTimeout(timer);
    }
  };

  const connect = async () => {
    if (stopped) return;
    const current = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs,
      keepAlive: true,
      application_name: APPLICATION_NAME,
    });
    client = current;
    current.on('error', (error) => drop(current, error));
    current.on('end', () => drop(current, undefined));
    current.on('notification', ({ channel, payload }) => {
      if (channel === WAKE_CHANNELS.eventsNumbered) {
        options.onNotification?.('events_numbered');
        notify(numberedListeners, payload ? payload : undefined);
      } else if (channel === WAKE_CHANNELS.deliveriesDue) {
        options.onNotification?.('deliveries_due');
        notify(dueListeners);
      } else if (channel === WAKE_CHANNELS.apiTokenChanged) {
        options.onNotification?.('api_token_changed');
        // The trigger's payload is a token id; anything else is read as "any token".
        notify(tokenListeners, payload && /^[0-9a-f]{16}$/.test(payload) ? payload : undefined);
      }
    });
    try {
      await current.connect();
      // Channel names are constants of ours, quoted as identifiers.
      await current.query(
        `LISTEN "${WAKE_CHANNELS.eventsNumbered}"; LISTEN "${WAKE_CHANNELS.deliveriesDue}"; LISTEN "${WAKE_CHANNELS.apiTokenChanged}"`,
      );
    } catch (error) {
      drop(current, error as Error);
      return;
    }
    if (client !== current || stopped) return;
    failures = 0;
    reported = false;
    if (everConnected)
      logger.info({ downForMs: Date.now() - (downSince ?? Date.now()) }, 'listening for wake-ups again');
    else logger.info('listening for wake-ups (LISTEN/NOTIFY)');
    everConnected = true;
    downSince = undefined;
    setListening(true);
    heartbeat = setInterval(() => void beat(current), heartbeatMs);
    heartbeat.unref();
    // Whatever was notified while not listening is lost: every subscriber looks once, every cached token is dropped.
    notify(tokenListeners, undefined);
    notify(numberedListeners, undefined);
    notify(dueListeners);
  };

  void connect();

  return {
    onEventsNumbered(listener) {
      numberedListeners.add(listener);
      return () => numberedListeners.delete(listener);
    },
    onDeliveriesDue(listener) {
      dueListeners.add(listener);
      return () => dueListeners.delete(listener);
    },
    onTokenChanged(listener) {
      tokenListeners.add(listener);
      return () => tokenListeners.delete(listener);
    },
    connected: () => listening,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const current = client;
      client = undefined;
      setListening(false);
      numberedListeners.clear();
      dueListeners.clear();
      tokenListeners.clear();
      if (!current) return;
      current.removeAllListeners('notification');
      // Bounded: a connection that died silently would never answer the goodbye.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        current.end().catch(() => undefined),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000))),
      ]);
      clearTimeout(timer);
    },
  };
}
