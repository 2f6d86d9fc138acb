import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * The benchmark's webhook receiver, a process of its own (never in a measured process's event loop): it
 * answers every request 200 at once and records when each arrived, its path, its webhook-id and the
 * event's occurredAt (the body's `timestamp`). Every 50th request is verified with the Standard Webhooks
 * reference library, so the figures are of real, correctly signed deliveries, at little CPU on a shared
 * machine. Driven over IPC by bench/lib/webhooks.ts.
 */

export interface ReceivedDelivery {
  path: string;
  webhookId: string;
  /** Epoch milliseconds, sub-millisecond resolution. */
  arrivedMs: number;
  occurredAtMs: number;
}

export type ReceiverCommand =
  { cmd: 'secret'; path: string; secret: string } | { cmd: 'reset' } | { cmd: 'count' } | { cmd: 'collect' };
export type ReceiverReply =
  | { kind: 'listening'; port: number }
  | { kind: 'count'; count: number; lastArrivedMs: number }
  | { kind: 'collected'; deliveries: ReceivedDelivery[]; verified: number; verificationFailures: string[] }
  | { kind: 'ok' };

const VERIFY_EVERY = 50;
const verifiers = new Map<string, Webhook>();
let deliveries: ReceivedDelivery[] = [];
let seen = 0;
let verified = 0;
let verificationFailures: string[] = [];
let lastArrivedMs = 0;

const reply = (message: ReceiverReply) => process.send!(message);

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const arrivedMs = performance.timeOrigin + performance.now();
    lastArrivedMs = arrivedMs;
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const webhookId = String(req.headers['webhook-id'] ?? '');
    let occurredAtMs = Number.NaN;
    try {
      occurredAtMs = Date.parse((JSON.parse(body) as { timestamp: string }).timestamp);
    } catch {
      verificationFailures.push(`${path}: a body that is not JSON`);
    }
    deliveries.push({ path, webhookId, arrivedMs, occurredAtMs });
    if (seen++ % VERIFY_EVERY === 0) {
      try {
        const verifier = verifiers.get(path);
        if (!verifier) throw new Error('no secret for this path');
        verifier.verify(body, req.headers as Record<string, string>);
        verified += 1;
      } catch (error) {
        verificationFailures.push(`${path}: ${(error as Error).message}`);
      }
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
});

process.on('message', (command: ReceiverCommand) => {
  switch (command.cmd) {
    case 'secret':
      verifiers.set(command.path, new Webhook(command.secret));
      return reply({ kind: 'ok' });
    case 'reset':
      deliveries = [];
      seen = 0;
      verified = 0;
      verificationFailures = [];
      return reply({ kind: 'ok' });
    case 'count':
      return reply({ kind: 'count', count: deliveries.length, lastArrivedMs });
    case 'collect':
      return reply({
        kind: 'collected',
        deliveries,
        verified,
        verificationFailures: verificationFailures.slice(0, 20),
      });
  }
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => reply({ kind: 'listening', port: (server.address() as AddressInfo).port }));
