import net from 'node:net';

/**
 * A TCP proxy the script controls, between the service and its PostgreSQL, to inject network faults on one
 * machine without root tools (iptables, tc):
 *
 * - `blackHole()`: nothing is forwarded any more, either way, and no socket is closed: both ends see a peer
 *   that has gone silent, as behind a partition that drops packets. New connections are accepted (the kernel
 *   completes the handshake) but never reach PostgreSQL. Bytes already written stay in the kernel's
 *   buffers and are delivered on `heal()`, as TCP's retransmissions would deliver them once the network is
 *   back (a partition shorter than the retransmission time-out, about 15 minutes on Linux, loses no bytes).
 * - `reset()`: every proxied connection is destroyed with a TCP RST on both sides (`socket.resetAndDestroy()`),
 *   and, until `heal()`, every new connection is reset at once: a middlebox that has lost its state, or a
 *   peer that answers RST to a connection it no longer knows.
 * - `heal()`: forwarding resumes; connections held during a black hole are connected to PostgreSQL.
 */
export type ProxyMode = 'forward' | 'black-hole' | 'reset';

export interface TcpProxy {
  port: number;
  readonly mode: ProxyMode;
  blackHole(): void;
  reset(): void;
  heal(): void;
  /** Connections accepted so far, reset by the proxy, and currently open. */
  stats(): { accepted: number; reset: number; open: number };
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream?: net.Socket;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const pairs = new Set<Pair>();
  const counts = { accepted: 0, reset: 0 };

  const resetSocket = (socket: net.Socket | undefined) => {
    if (socket && !socket.destroyed) {
      socket.resetAndDestroy();
      counts.reset += 1;
    }
  };

  /** One direction: from → to, with back-pressure, and the other side's end or reset passed on. */
  const wire = (pair: Pair, from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (mode === 'forward') from.resume();
    });
    from.on('end', () => to.end());
    from.on('error', () => undefined); // the 'close' below passes it on
    from.on('close', (hadError) => {
      pairs.delete(pair);
      if (hadError) resetSocket(to);
      else if (!to.destroyed) to.end();
    });
  };

  const connectUpstream = (pair: Pair) => {
    const upstream = net.connect(target.port, target.host);
    upstream.setNoDelay(true);
    pair.upstream = upstream;
    wire(pair, pair.client, upstream);
    wire(pair, upstream, pair.client);
  };

  const server = net.createServer((client) => {
    counts.accepted += 1;
    client.setNoDelay(true);
    if (mode === 'reset') {
      client.on('error', () => undefined);
      resetSocket(client);
      return;
    }
    const pair: Pair = { client };
    pairs.add(pair);
    if (mode === 'black-hole') {
      client.pause();
      client.on('error', () => undefined);
      client.on('close', () => {
        if (!pair.upstream) pairs.delete(pair);
      });
      return;
    }
    connectUpstream(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    port,
    get mode() {
      return mode;
    },
    blackHole() {
      mode = 'black-hole';
      for (const pair of pairs) {
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    reset() {
      mode = 'reset';
      for (const pair of [...pairs]) {
        resetSocket(pair.client);
        resetSocket(pair.upstream);
        pairs.delete(pair);
      }
    },
    heal() {
      mode = 'forward';
      for (const pair of [...pairs]) {
        if (pair.client.destroyed) {
          pairs.delete(pair);
          continue;
        }
        if (!pair.upstream) connectUpstream(pair);
        pair.client.resume();
        pair.upstream!.resume();
      }
    },
    stats: () => ({ ...counts, open: pairs.size }),
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
