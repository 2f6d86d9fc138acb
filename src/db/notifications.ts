import pg from 'pg';
import type { Logger } from '../logging/logger.js';

const RECONNECT_DELAY_MS = 1000;

/**
 * LISTEN on one channel with a dedicated connection (a pooled one would hand the subscription to whoever
 * borrows it next). `onNotify` runs for every notification and after every (re)connection, since
 * notifications sent while disconnected are lost; the caller polls anyway, this only makes it prompt.
 */
export function listenForNotifications(connectionString: string, channel: string, onNotify: () => void, logger: Logger): { stop: () => Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let warned = false;

  const connect = async () => {
    if (stopped) return;
    const current = new pg.Client({ connectionString, connectionTimeoutMillis: 5000, keepAlive: true });
    client = current;
    const reconnect = () => {
      if (stopped || client !== current) return;
      client = undefined;
      current.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
      retry.unref();
    };
    current.on('error', (error) => {
      if (!warned && !stopped) logger.warn({ err: { message: error.message }, channel }, 'the notification connection failed; reconnecting');
      warned = true;
      reconnect();
    });
    current.on('end', reconnect);
    current.on('notification', () => onNotify());
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
      warned = false;
      onNotify();
    } catch (error) {
      if (!warned && !stopped) logger.warn({ err: { message: (error as Error).message }, channel }, 'could not listen for notifications; retrying');
      warned = true;
      reconnect();
    }
  };
  void connect();

  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
