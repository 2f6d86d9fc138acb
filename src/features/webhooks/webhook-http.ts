import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { forbiddenAddressReason } from './addresses.js';
import type { WebhooksConfig } from '../../config/config.js';
import type { WebhookUrlGuard } from './ports.js';
import type { WebhookServiceOptions } from './webhook.service.js';

/**
 * The outbound side of webhooks: the SSRF guard, Standard Webhooks signatures, and one bounded POST.
 * docs/adr/0037-webhook-ssrf-guard.md says what is refused and why.
 */

const REFUSED = 'WEBHOOK_ADDRESS_REFUSED';

/** A connection refused by the guard: the host is, or resolves to, an address webhooks may not reach. */
class RefusedAddressError extends Error {
  readonly code = REFUSED;
}

const unbracketed = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

/**
 * A `lookup` for http.request: resolves the host, refuses the connection if any address it resolves to is
 * forbidden, and hands the checked addresses to the socket, which connects to one of them. The check and
 * the connection use the same answer, so a DNS record that changes in between (rebinding) cannot slip
 * a private address past the guard. IP literals never reach a lookup: sendWebhook checks them itself.
 */
export function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivateNetworks
        ? undefined
        : addresses.find(({ address }) => forbiddenAddressReason(address) !== null);
      if (refused)
        return callback(
          new RefusedAddressError(`refused: the host resolves to a ${forbiddenAddressReason(refused.address)} address`),
          '',
          0,
        );
      if (addresses.length === 0)
        return callback(Object.assign(new Error('the host has no address'), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** What a webhook URL itself may say, beside where its host points (WebhooksConfig). */
export interface UrlPolicy {
  allowedPorts: readonly number[] | '*';
  requireHttps: boolean;
}

/** With no policy given (tests of the address rules alone): any port, http allowed. */
const ANY_URL: UrlPolicy = { allowedPorts: '*', requireHttps: false };

/** The port a URL connects to: the one it names, else its scheme's default. */
const portOf = (url: URL): number => (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port));

/** Why the URL itself is refused (scheme, https in production, port), or null. Registration and every delivery ask. */
export function urlPolicyRefusal(url: URL, policy: UrlPolicy): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs are allowed';
  if (policy.requireHttps && url.protocol !== 'https:') return 'only https URLs are allowed in production';
  const port = portOf(url);
  if (policy.allowedPorts !== '*' && !policy.allowedPorts.includes(port))
    return `port ${port} is not allowed (allowed: ${policy.allowedPorts.join(', ')})`;
  return null;
}

/**
 * The URL guard of registration: the scheme (https only in production) and the port (WEBHOOKS_ALLOWED_PORTS),
 * then the same address rules as at connect time, on what the host resolves to now.
 */
export function createUrlGuard(allowPrivateNetworks: boolean, policy: UrlPolicy = ANY_URL): WebhookUrlGuard {
  return {
    async check(url) {
      const refusal = urlPolicyRefusal(url, policy);
      if (refusal !== null) return refusal;
      if (allowPrivateNetworks) return null;
      const host = unbracketed(url.hostname);
      if (isIP(host)) {
        const reason = forbiddenAddressReason(host);
        return reason === null ? null : `the address is ${reason}`;
      }
      let addresses: dns.LookupAddress[];
      try {
        addresses = await dns.promises.lookup(host, { all: true });
      } catch {
        // Not resolvable yet (a record still to be published): accepted; every delivery checks again.
        return null;
      }
      for (const { address } of addresses) {
        const reason = forbiddenAddressReason(address);
        if (reason !== null) return `the host resolves to a ${reason} address`;
      }
      return null;
    },
  };
}

/** How the service and the operator CLI build the WebhookService: the same guard, the same rotation overlap. */
export const webhookServiceOptions = (
  config: Pick<
    WebhooksConfig,
    'allowPrivateNetworks' | 'secretOverlapMs' | 'maxEndpointsPerEnvironment' | 'allowedPorts' | 'requireHttps'
  >,
): WebhookServiceOptions => ({
  urlGuard: createUrlGuard(config.allowPrivateNetworks, config),
  secretOverlapMs: config.secretOverlapMs,
  maxEndpointsPerEnvironment: config.maxEndpointsPerEnvironment,
});

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded part of the `whsec_`
 * secret (Standard Webhooks, "Signature scheme").
 */
export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Checked again at every attempt: an endpoint registered under an older policy is not exempt. */
  policy?: UrlPolicy;
}

/**
 * Why no answer came: the guard refused the address, the time-out passed, the connection failed, or (the
 * dispatcher's own) the request could not be prepared, e.g. no key opens the signing secret.
 */
export type SendFailure = 'address_refused' | 'timeout' | 'connection_error' | 'not_sent';

export interface SendResult {
  succeeded: boolean;
  /** null when no answer came. */
  statusCode: number | null;
  /** Set exactly when statusCode is null. */
  failure: SendFailure | null;
  /** Until the answer's status line (or the failure). */
  latencyMs: number;
  /** At most 200 characters; never more of the receiver's body than a short excerpt. */
  error: string | null;
  /** A 429's or 503's Retry-After, in milliseconds. */
  retryAfterMs: number | null;
}

/** How much of an answer is read at most; the rest is never downloaded. */
const MAX_RESPONSE_BYTES = 4096;
const ERROR_LENGTH = 200;
const EXCERPT_LENGTH = 120;
const USER_AGENT = 'customer-account-service-webhooks/1';

const short = (text: string): string => {
  const clean = text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').trim();
  return clean.length > ERROR_LENGTH ? `${clean.slice(0, ERROR_LENGTH - 1)}…` : clean;
};

function retryAfterOf(header: string | undefined): number | null {
  if (header === undefined) return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * One POST: no redirect is followed (a 3xx is a failure), the whole attempt is bounded by `timeoutMs`,
 * at most a few KB of the answer are read, and the connection goes only to an address the guard accepted.
 */
export function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    // Declared before settle() can run (an early refusal), set once the request starts.
    // eslint-disable-next-line prefer-const
    let timer: NodeJS.Timeout | undefined;
    const settle = (result: Omit<SendResult, 'latencyMs'> & { latencyMs?: number }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ latencyMs: elapsed(), ...result });
    };
    const failure = (kind: SendFailure, error: string): Omit<SendResult, 'latencyMs'> => ({
      succeeded: false,
      statusCode: null,
      failure: kind,
      error: short(error),
      retryAfterMs: null,
    });

    const url = new URL(target);
    const refusal = urlPolicyRefusal(url, options.policy ?? ANY_URL);
    if (refusal !== null) return settle(failure('address_refused', `refused: ${refusal}`));
    const literal = unbracketed(url.hostname);
    if (isIP(literal) && !options.allowPrivateNetworks) {
      const reason = forbiddenAddressReason(literal);
      if (reason !== null) return settle(failure('address_refused', `refused: the address is ${reason}`));
    }
    const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
    if (!client) return settle(failure('address_refused', 'refused: only http and https URLs are allowed'));

    const controller = new AbortController();
    timer = setTimeout(() => {
      controller.abort();
      settle(failure('timeout', `timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);

    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': USER_AGENT,
        },
        lookup: guardedLookup(options.allowPrivateNetworks),
        agent: false,
        signal: controller.signal,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const latencyMs = elapsed();
        const succeeded = statusCode >= 200 && statusCode < 300;
        const retryAfterMs =
          statusCode === 429 || statusCode === 503 ? retryAfterOf(response.headers['retry-after']) : null;
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_LENGTH);
          const error = succeeded
            ? null
            : short(
                `HTTP ${statusCode}${statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : ''}${excerpt.trim() ? `: ${excerpt}` : ''}`,
              );
          settle({ succeeded, statusCode, failure: null, latencyMs, error, retryAfterMs });
          response.destroy();
        };
        // A success needs no body: nothing of it is read.
        if (succeeded) return finish();
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) finish();
        });
        response.on('end', finish);
        response.on('error', finish);
        response.on('close', finish);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === REFUSED) return settle(failure('address_refused', error.message));
      settle(failure('connection_error', `${error.code ?? error.name}: ${error.message}`));
    });
    request.end(body);
  });
}
