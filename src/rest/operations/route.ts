import type { z } from 'zod';
import type { AccessScope } from '../../domain/caller.js';
import type { EnvelopeFamily } from '../envelope.js';

/** What an operation of the REST surface is, as data (src/rest/routes.ts lists them). */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface DocumentedFailure {
  /** Unique within an operation; the name of its example in the OpenAPI document. */
  name: string;
  /** When it happens, for the reference. */
  when: string;
  /** The error the service throws; src/rest/error-mapping.ts turns it into status, headers and body. */
  error: unknown;
}

export interface RestRoute {
  operationId: string;
  method: HttpMethod;
  /** Express path pattern; the OpenAPI path template is derived from it. */
  path: string;
  family: EnvelopeFamily;
  tag: 'Customers' | 'Accounts' | 'Transactions' | 'History' | 'Events' | 'Webhooks' | 'Audit' | 'Clock' | 'Products';
  summary: string;
  description: string;
  scope: AccessScope;
  /**
   * The scope a request whose body names a `socialSecurityNumber` needs instead of `scope`, and only it: a search
   * by SSN is its own operation (docs/adr/0001-scopes-by-duty.md), enforced by the domain like `scope`.
   */
  ssnScope?: AccessScope;
  /** The domain's input schema, for POST and PUT; `optional`: the operation also takes no body at all. */
  requestBody?: { schema: z.ZodType; component: string; example: Record<string, unknown>; optional?: true };
  /**
   * A raw body instead of JSON (a verification document, docs/adr/0103): one of `mediaTypes` (Content-Type; any
   * other is UNSUPPORTED_MEDIA_TYPE), handed to the operation as a stream, never buffered by the router.
   */
  rawBody?: { mediaTypes: readonly string[]; description: string };
  /**
   * The success is the stored bytes of a file of one of these media types (its own, not chosen by Accept), sent as an
   * attachment and never cached.
   */
  binaryAnswer?: readonly string[];
  /** The domain's query schema (each property becomes a query parameter). */
  query?: { schema: z.ZodType; example: Record<string, unknown> };
  /** 202: accepted, its outcome to come (a verification check: docs/adr/0101). */
  success: { status: 200 | 201 | 202; description: string; data: z.ZodType; component: string };
  /**
   * The media types the operation answers, chosen by `Accept`, the first the default; absent: the JSON envelope
   * only. `application/json` is the envelope around `success.data`; any other is the representation itself
   * (for `application/x-ndjson`, one `success.data` per line).
   */
  representations?: readonly string[];
  /** What can go wrong beyond what every operation of its kind can answer (see `failuresOf`). */
  failures: readonly DocumentedFailure[];
  /** A POST that is idempotent by itself (repeating it changes nothing more), so it takes no Idempotency-Key. */
  naturallyIdempotent?: true;
  /** A POST that takes no Idempotency-Key for this reason (e.g. its answer holds a secret no record may keep). */
  withoutIdempotencyKey?: string;
  /**
   * Announced for removal (docs/adr/0063-versions-changelog-deprecation.md): every answer carries `Deprecation`
   * and `Sunset` headers and the OpenAPI operation is marked deprecated. Removed only in a major version, and
   * no earlier than `sunset`, at least six months after `announced`.
   */
  deprecated?: RouteDeprecation;
  /**
   * Optimistic concurrency (src/rest/entity-tags.ts): 'tagged' answers the record's ETag (a creation);
   * 'conditional' also honours If-None-Match (GET: 304) or If-Match (PUT, DELETE: 412), and answers the ETag
   * unless its answer holds no record (a DELETE of the record itself). A sub-resource's write (a flag, a holder,
   * the overdraft limit) is conditional on its account's version and answers the account's tag.
   */
  versioned?: 'tagged' | 'conditional';
}

export interface RouteDeprecation {
  /** The day the deprecation was announced (CHANGELOG.md), YYYY-MM-DD (UTC). */
  announced: string;
  /** The earliest day it may be removed, YYYY-MM-DD (UTC): at least six months after `announced`. */
  sunset: string;
  /** What to use instead, for the reference. */
  instead: string;
}

/** Does a success of `route` carry an ETag? */
export const answersEntityTag = (route: Pick<RestRoute, 'versioned' | 'success'>): boolean =>
  route.versioned !== undefined && route.success.component !== 'Empty';
/** Does `route` honour If-Match? */
export const takesIfMatch = (route: Pick<RestRoute, 'method' | 'versioned'>): boolean =>
  route.versioned === 'conditional' && (route.method === 'PUT' || route.method === 'DELETE');
/** Does `route` honour If-None-Match? */
export const takesIfNoneMatch = (route: Pick<RestRoute, 'method' | 'versioned'>): boolean =>
  route.versioned === 'conditional' && route.method === 'GET';

/** POSTs take an Idempotency-Key, unless repeating them is harmless anyway. */
export const takesIdempotencyKey = (
  route: Pick<RestRoute, 'method' | 'naturallyIdempotent' | 'withoutIdempotencyKey'>,
): boolean =>
  route.method === 'POST' && route.naturallyIdempotent !== true && route.withoutIdempotencyKey === undefined;
