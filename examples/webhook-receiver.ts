/**
 * A local webhook receiver for development: verifies every delivery with the TypeScript client's
 * `verifyWebhook` (packages/client, over the Standard Webhooks reference library `standardwebhooks`) and prints
 * one JSON line per request:
 *
 *   npx tsx --conditions=source examples/webhook-receiver.ts --port 4000 --secret whsec_…   [--count 1] [--host 127.0.0.1]
 *
 * (`--conditions=source` runs the client from its TypeScript sources; after `npm run build -w
 * @customer-account-service/client` plain `npx tsx` uses its build.)
 *   {"verified":true,"webhookId":"0193…","type":"customer.created","sequence":12,"resourceId":"0193…"}
 *
 * A verified delivery is answered 204; anything else 401 (the service then retries it on its schedule).
 * With --count N it exits 0 after N verified deliveries (scripts: examples/webhooks.sh). Register it with
 * `npm run webhook -- create --env sandbox --url http://127.0.0.1:4000/` (docs/events.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { verifyWebhook, type WebhookEvent } from '@customer-account-service/client';

const USAGE = 'Usage: npx tsx --conditions=source examples/webhook-receiver.ts --secret whsec_… [--port 4000] [--host 127.0.0.1] [--count N]';
/** Deliveries are small (one event); anything larger is not one. */
const MAX_BODY_BYTES = 1024 * 1024;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(64);
}

const { values } = parseArgs({
  options: { secret: { type: 'string' }, port: { type: 'string', default: '4000' }, host: { type: 'string', default: '127.0.0.1' }, count: { type: 'string', default: '0' } },
});
if (!values.secret?.startsWith('whsec_')) fail('--secret is required: the whsec_… secret that `npm run webhook -- create` printed.');
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('--port must be a port number (0: any free port).');
const count = Number(values.count);
if (!Number.isInteger(count) || count < 0) fail('--count must be a whole number (0: run until stopped).');

const secret = values.secret;
if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) fail('--secret is not a valid whsec_ secret (base64 after the prefix).');

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
let verified = 0;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    let delivery: WebhookEvent;
    try {
      if (size > MAX_BODY_BYTES) throw new Error('body too large');
      // Verifies the signature over the exact bytes received, and refuses a timestamp older than 5 minutes.
      delivery = verifyWebhook(secret, Buffer.concat(chunks).toString('utf8'), headers);
    } catch (error) {
      print({ verified: false, webhookId: headers['webhook-id'] ?? null, reason: (error as Error).message });
      res.writeHead(401).end();
      return;
    }
    print({ verified: true, webhookId: headers['webhook-id'], type: delivery.type, sequence: delivery.data.sequence, resourceId: delivery.data.resourceId });
    res.writeHead(204).end();
    verified += 1;
    if (count > 0 && verified >= count) {
      server.close(() => process.exit(0));
      server.closeIdleConnections();
    }
  });
});

server.listen(port, values.host, () => {
  const { port: listening } = server.address() as AddressInfo;
  process.stderr.write(`Receiving webhooks on http://${values.host}:${listening}/ (Ctrl-C to stop)\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
