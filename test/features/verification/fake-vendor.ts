import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A request the fake vendor received: what the service sent it (the decrypted fields among them). */
export interface VendorRequest {
  headers: IncomingMessage['headers'];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A callback the fake vendor sent back, with the service's answer and what to replay it with. */
export interface VendorDelivery {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  payload: string;
  headers: Record<string, string>;
}

export type VendorOutcome = { outcome: 'VERIFIED' | 'NEEDS_REVIEW' | 'REJECTED'; reasonCodes: string[] };

/**
 * A verification vendor on 127.0.0.1, shaped like Alloy's or Persona's (docs/verification-providers.md): it takes
 * the service's POST, answers 202 with its own reference, then POSTs the result to the service's callback, signed
 * with the callback secret by standardwebhooks' Webhook. `hang` requests are never answered (the service's
 * time-out ends them); `decide` picks each outcome from what was sent.
 */
export async function startFakeVendor(secret: string) {
  const requests: VendorRequest[] = [];
  const deliveries: Promise<VendorDelivery>[] = [];
  const webhook = new Webhook(secret);
  let sequence = 0;
  const vendor = {
    url: '',
    /** The service's base URL, set once it listens. */
    callbackBase: '',
    requests,
    deliveries,
    /** How many of the next requests to leave unanswered. */
    hang: 0,
    /** How many of the next requests to accept (202) and never call back about. */
    silent: 0,
    decide: (body: VendorRequest['body']): VendorOutcome =>
      body.fields?.name?.last === 'Reject'
        ? { outcome: 'REJECTED', reasonCodes: ['IDENTITY_NOT_FOUND', 'WATCHLIST_HIT'] }
        : { outcome: 'VERIFIED', reasonCodes: [] },
    /** Signs and POSTs a callback as the vendor does (a test may also call it with its own payload). */
    async send(
      environment: string,
      payload: string,
      options: { id?: string; signWith?: Webhook; timestamp?: Date; tamper?: (payload: string) => string } = {},
    ): Promise<VendorDelivery> {
      const id = options.id ?? `msg_${randomBytes(12).toString('hex')}`;
      const timestamp = options.timestamp ?? new Date();
      const signature = (options.signWith ?? webhook).sign(id, timestamp, payload);
      const headers = {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      };
      const sent = options.tamper ? options.tamper(payload) : payload;
      const response = await fetch(`${vendor.callbackBase}/${environment}/verification/callback`, {
        method: 'POST',
        headers,
        body: sent,
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined, payload: sent, headers };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ headers: req.headers, body });
      if (vendor.hang > 0) {
        vendor.hang -= 1;
        return; // never answered: the service's AbortSignal.timeout ends it
      }
      sequence += 1;
      const reference = `vnd_${sequence}_${randomBytes(4).toString('hex')}`;
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: reference, status: 'pending' }));
      if (vendor.silent > 0) {
        vendor.silent -= 1;
        return; // accepted, and never heard of again
      }
      const result = vendor.decide(body);
      const payload = JSON.stringify({
        type: 'verification.completed',
        timestamp: new Date().toISOString(),
        data: { reference: body.reference, providerReference: reference, ...result },
      });
      deliveries.push(vendor.send(body.environment, payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  vendor.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/checks`;
  return vendor;
}

export type FakeVendor = Awaited<ReturnType<typeof startFakeVendor>>;

/** A fresh Standard Webhooks secret. */
export const newCallbackSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
