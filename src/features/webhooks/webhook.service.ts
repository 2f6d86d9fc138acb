import { randomBytes } from 'node:crypto';
import { type AuditOperation, auditEventFor } from '../../domain/audit-event.js';
import { authorize, isAuthorized } from '../../domain/authorization.js';
import { eventNotFound } from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { pageSize } from '../../domain/pagination.js';
import type { AccessScope, Caller } from '../../domain/caller.js';
import { EVENT_READ_SCOPES } from '../events/index.js';
import { parseInput } from '../../domain/validation.js';
import { forbiddenAddressReason } from './addresses.js';
import type { SecretSealer, WebhookStore, WebhookUrlGuard } from './ports.js';
import { type EndpointWithSecret, secretBinding, type WebhookAttempt, type WebhookEndpoint } from './webhook.js';
import {
  webhookEndpointDisabled,
  webhookEndpointLimit,
  webhookEndpointNotFound,
  webhookUrlNotAllowed,
} from './webhook.errors.js';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema } from './webhook.schemas.js';

export const DEFAULT_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Stripe's cap per account: more is rarely a design, and each endpoint costs every event a delivery. */
export const DEFAULT_MAX_ENDPOINTS_PER_ENVIRONMENT = 16;
/** Standard Webhooks secrets: `whsec_` and 24–64 random bytes in base64. */
const SECRET_BYTES = 32;

export const newWebhookSecret = (): string => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

/**
 * Without the runtime's resolving guard (src/features/webhooks/webhook-http.ts): refuses only IP literals in the
 * forbidden ranges and `localhost` names. The dispatcher checks every resolved address anyway.
 */
export const literalUrlGuard: WebhookUrlGuard = {
  async check(url) {
    const host = url.hostname.toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost')) return 'the host is a loopback name';
    const reason = /^[\d.]+$|^\[.*\]$/.test(host) ? forbiddenAddressReason(host) : null;
    return reason === null ? null : `the address is ${reason}`;
  },
};

export interface WebhookServiceOptions {
  /** How long the secret before a rotation keeps signing deliveries (WEBHOOKS_SECRET_OVERLAP_S). */
  secretOverlapMs?: number;
  urlGuard?: WebhookUrlGuard;
  /** Endpoints one environment may have (WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT). */
  maxEndpointsPerEnvironment?: number;
  /** Told about each creation refused by that limit (the quota metrics); never about who was refused. */
  onEndpointLimitReached?: () => void;
  now?: () => Date;
}

/** Managing webhook endpoints; the delivery itself is a job (src/features/webhooks/webhook-delivery.job.ts). */
export class WebhookService {
  private readonly overlapMs: number;
  private readonly guard: WebhookUrlGuard;
  private readonly maxEndpoints: number;
  private readonly onEndpointLimitReached: () => void;
  private readonly now: () => Date;

  constructor(
    private readonly webhooks: WebhookStore,
    private readonly sealer: SecretSealer,
    options: WebhookServiceOptions = {},
  ) {
    this.overlapMs = options.secretOverlapMs ?? DEFAULT_SECRET_OVERLAP_MS;
    this.guard = options.urlGuard ?? literalUrlGuard;
    this.maxEndpoints = options.maxEndpointsPerEnvironment ?? DEFAULT_MAX_ENDPOINTS_PER_ENVIRONMENT;
    this.onEndpointLimitReached = options.onEndpointLimitReached ?? (() => {});
    this.now = options.now ?? (() => new Date());
  }

  async create(caller: Caller, input: unknown): Promise<EndpointWithSecret> {
    authorize(caller, 'webhooks:write');
    const valid = parseInput(createWebhookEndpointSchema, input ?? {});
    await this.checkUrl(valid.url);
    const id = newId();
    const secret = newWebhookSecret();
    const creation = await this.webhooks.create(
      {
        id,
        environment: caller.environment,
        url: valid.url,
        eventTypes: valid.eventTypes ?? [],
        secret: this.sealer.sealSecret(secretBinding(caller.environment, id), secret),
        readScopes: readScopesOf(caller),
      },
      this.maxEndpoints,
      audited(caller, 'webhook_endpoint.create', id, Object.keys(valid)),
    );
    if ('refused' in creation) {
      this.onEndpointLimitReached();
      throw webhookEndpointLimit(this.maxEndpoints);
    }
    return { endpoint: creation.created, secret };
  }

  async get(caller: Caller, endpointId: string): Promise<WebhookEndpoint> {
    authorize(caller, 'webhooks:read');
    return found(
      isRecordId(endpointId) ? await this.webhooks.find(caller.environment, endpointId.toLowerCase()) : null,
    );
  }

  /** Every endpoint of the environment, oldest first, without secrets. */
  async list(caller: Caller): Promise<WebhookEndpoint[]> {
    authorize(caller, 'webhooks:read');
    return this.webhooks.list(caller.environment);
  }

  async update(caller: Caller, endpointId: string, input: unknown): Promise<WebhookEndpoint> {
    authorize(caller, 'webhooks:write');
    const valid = parseInput(updateWebhookEndpointSchema, input ?? {});
    if (!isRecordId(endpointId)) throw webhookEndpointNotFound();
    if (valid.url !== undefined) await this.checkUrl(valid.url);
    const id = endpointId.toLowerCase();
    // Re-pointed, it receives what the token that re-pointed it could read, no more.
    const changes = valid.url === undefined ? valid : { ...valid, readScopes: readScopesOf(caller) };
    return found(
      await this.webhooks.update(
        caller.environment,
        id,
        changes,
        audited(caller, 'webhook_endpoint.update', id, Object.keys(valid)),
      ),
    );
  }

  async delete(caller: Caller, endpointId: string): Promise<void> {
    authorize(caller, 'webhooks:write');
    if (!isRecordId(endpointId)) throw webhookEndpointNotFound();
    const id = endpointId.toLowerCase();
    if (!(await this.webhooks.delete(caller.environment, id, audited(caller, 'webhook_endpoint.delete', id, []))))
      throw webhookEndpointNotFound();
  }

  /** Enabling forgets past failures and resumes the deliveries that were due; events of the disabled period are not sent. */
  async setEnabled(caller: Caller, endpointId: string, enabled: boolean): Promise<WebhookEndpoint> {
    authorize(caller, 'webhooks:write');
    if (!isRecordId(endpointId)) throw webhookEndpointNotFound();
    const id = endpointId.toLowerCase();
    const audit = audited(caller, enabled ? 'webhook_endpoint.enable' : 'webhook_endpoint.disable', id, ['enabled']);
    return found(
      await this.webhooks.setEnabled(caller.environment, id, enabled, enabled ? null : 'Disabled by a client.', audit),
    );
  }

  /** A new secret; the current one keeps signing (a second signature) for the overlap. */
  async rotateSecret(caller: Caller, endpointId: string): Promise<EndpointWithSecret> {
    authorize(caller, 'webhooks:write');
    if (!isRecordId(endpointId)) throw webhookEndpointNotFound();
    const id = endpointId.toLowerCase();
    const secret = newWebhookSecret();
    const sealed = this.sealer.sealSecret(secretBinding(caller.environment, id), secret);
    const audit = audited(caller, 'webhook_endpoint.rotate_secret', id, ['secret']);
    const endpoint = found(
      await this.webhooks.rotateSecret(
        caller.environment,
        id,
        sealed,
        new Date(this.now().getTime() + this.overlapMs),
        audit,
      ),
    );
    return { endpoint, secret };
  }

  /** The endpoint's newest delivery attempts, at most `first` (1–100, default 20: VALIDATION_FAILED outside). */
  async listAttempts(
    caller: Caller,
    endpointId: string,
    page: { first?: number | undefined } = {},
  ): Promise<WebhookAttempt[]> {
    authorize(caller, 'webhooks:read');
    const limit = pageSize(page.first);
    if (!isRecordId(endpointId)) throw webhookEndpointNotFound();
    const attempts = await this.webhooks.listAttempts(caller.environment, endpointId.toLowerCase(), limit);
    if (attempts === null) throw webhookEndpointNotFound();
    return attempts;
  }

  /** Sends the event to the endpoint again (or for the first time), as soon as a dispatcher is free. */
  async redeliver(caller: Caller, endpointId: string, eventId: string): Promise<void> {
    authorize(caller, 'webhooks:write');
    if (!isRecordId(endpointId)) throw webhookEndpointNotFound();
    if (!isRecordId(eventId)) throw eventNotFound();
    const id = endpointId.toLowerCase();
    // The endpoint is the resource (who receives); which event went again is in the request's log, by requestId.
    const outcome = await this.webhooks.redeliver(
      caller.environment,
      id,
      eventId.toLowerCase(),
      audited(caller, 'webhook_endpoint.redeliver', id, []),
    );
    if (outcome === 'endpoint_not_found') throw webhookEndpointNotFound();
    if (outcome === 'event_not_found') throw eventNotFound();
    if (outcome === 'endpoint_disabled') throw webhookEndpointDisabled();
  }

  private async checkUrl(url: string): Promise<void> {
    const reason = await this.guard.check(new URL(url));
    if (reason !== null) throw webhookUrlNotAllowed(reason);
  }
}

/**
 * The audit event of a change to who receives what: field names only, never a value, so neither the
 * secret nor the URL (which may carry a credential in its path or query, as Slack's and Discord's do)
 * reaches the trail; the endpoint itself answers its current URL to `webhooks:read`.
 */
function audited(caller: Caller, operation: AuditOperation, endpointId: string, changedFields: readonly string[]) {
  return {
    audit: auditEventFor(caller, {
      operation,
      resourceType: 'webhook_endpoint',
      resourceId: endpointId,
      changedFields,
    }),
  };
}

function found(endpoint: WebhookEndpoint | null): WebhookEndpoint {
  if (!endpoint) throw webhookEndpointNotFound();
  return endpoint;
}

/** The read scopes an endpoint registered by `caller` records: its deliveries never show more (ADR 2). */
const readScopesOf = (caller: Caller): AccessScope[] =>
  EVENT_READ_SCOPES.filter((scope) => isAuthorized(caller, scope));
