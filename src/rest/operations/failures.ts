import { z } from 'zod';
import { environmentNotFound, unauthenticated } from '../../auth/errors.js';
import type { AccessScope } from '../../domain/caller.js';
import {
  accountClosed,
  accountDormant,
  accountFrozen,
  accountNotFound,
  creditsBlocked,
  debitsBlocked,
  environmentNotAllowed,
  eventNotFound,
  fieldsNotUpdatable,
  idempotencyKeyInProgress,
  idempotencyKeyReused,
  insufficientFunds,
  insufficientScope,
  preconditionFailed,
  serviceUnavailable,
  validationFailed,
  verificationRequired,
} from '../../domain/errors.js';
import { EXAMPLE_IDS } from './examples.js';
import { ifMatchCondition } from '../entity-tags.js';
import { parseInput } from '../../domain/validation.js';
import { malformedRequest, payloadTooLarge, unsupportedMediaType } from '../../http/errors.js';
import { rateLimited, tooManyFailedAuthentications } from '../../http/rate-limit.js';
import { emptyDataSchema } from '../response-schemas.js';
import type { EnvelopeFamily } from '../envelope.js';
import { type DocumentedFailure, type RestRoute, takesIdempotencyKey, takesIfMatch } from './route.js';

/**
 * The failures operations share, and the order in which the service checks them (`failuresOf`). Each is a real
 * error object: its status, code and headers come from the one error mapping (src/rest/error-mapping.ts).
 */

/** The real VALIDATION_FAILED of `schema` for `input`, so examples show the domain's own messages. */
export function validationFailureOf(schema: z.ZodType, input: unknown): unknown {
  try {
    parseInput(schema, input);
  } catch (error) {
    return error;
  }
  throw new Error('The invalid example passed validation; fix the example.');
}

export const failure = (name: string, when: string, error: unknown): DocumentedFailure => ({ name, when, error });

/**
 * The scope a FORBIDDEN_scope example names, per envelope family. The failure is the same for every operation of a
 * family (the OpenAPI document shares one 403 response): the scope an operation needs is in its description and
 * `x-required-scope`, and the real answer's message names it.
 */
const EXAMPLE_SCOPE: Record<EnvelopeFamily, AccessScope> = { customer: 'customers:write', account: 'accounts:write' };

/** Every operation: the path, the token, the environment. */
export function requestFailures(family: EnvelopeFamily): DocumentedFailure[] {
  return [
    failure(
      'MALFORMED_REQUEST_path',
      'The path cannot be decoded (broken percent-encoding).',
      malformedRequest('The request could not be read (check the path encoding and headers).'),
    ),
    failure(
      'UNAUTHENTICATED_missing',
      'No Authorization header.',
      unauthenticated('Send an Authorization header: Bearer <token>.', {}),
    ),
    failure(
      'UNAUTHENTICATED_malformed',
      'The Authorization header is not `Bearer <token>`.',
      unauthenticated('The Authorization header must be: Bearer <token>.', { error: 'invalid_request' }),
    ),
    failure(
      'UNAUTHENTICATED_invalid',
      'Unknown, expired or revoked token.',
      unauthenticated('The bearer token is not valid.', { error: 'invalid_token' }),
    ),
    failure('FORBIDDEN_environment', 'The token may not act in this environment.', environmentNotAllowed()),
    failure(
      'ENVIRONMENT_NOT_FOUND',
      'The first path segment is not a configured environment; checked after the token (without a valid token, or with one bound to other environments, the answer is 401 / 403 as for a known environment).',
      environmentNotFound(),
    ),
    // On one line: the error catalogue (scripts/docs-reference.ts) reads a factory called in a `failure(` line as documented, not raised.
    failure(
      'FORBIDDEN_scope',
      'The token lacks the scope the operation needs (in its description and `x-required-scope`; the message names it).',
      insufficientScope(EXAMPLE_SCOPE[family]),
    ),
    failure(
      'RATE_LIMITED_token',
      "The token's request budget (RATE_LIMIT_POINTS per RATE_LIMIT_DURATION_S, shared with GraphQL) is spent; retry after Retry-After.",
      rateLimited(12),
    ),
    failure(
      'RATE_LIMITED_address',
      'The token is refused and this client address (IPv6: its /64) has sent too many refused tokens (RATE_LIMIT_AUTH_FAILURES); its refused tokens wait out the window, valid tokens are not affected.',
      tooManyFailedAuthentications(120),
    ),
  ];
}

/** Every operation, last: the service itself. */
export const SERVER_FAILURES: DocumentedFailure[] = [
  failure(
    'INTERNAL_ERROR',
    'Anything unexpected; logged under the requestId, never detailed in the answer.',
    new Error('unexpected'),
  ),
  failure(
    'SERVICE_UNAVAILABLE',
    'The database (or the token store or identity provider) cannot be reached; retry after the Retry-After delay.',
    serviceUnavailable(),
  ),
];

/** The real VALIDATION_FAILED of a field no request takes: what every operation's 400 shows as its example. */
export const UNKNOWN_FIELD: unknown = validationFailureOf(z.strictObject({}), { nickname: 'Al' });

/**
 * POST and PUT: the JSON body is read after authentication. The same for every operation with a body (the OpenAPI
 * document shares one 400 response among them): its VALIDATION_FAILED example is the real refusal of a field no
 * body takes; each operation's own fields and limits are in its request schema.
 */
export function bodyFailures(): DocumentedFailure[] {
  return [
    failure(
      'VALIDATION_FAILED',
      'A field is missing, of the wrong type, malformed, too long or unknown, or the body is not a JSON object; `details` names each field.',
      UNKNOWN_FIELD,
    ),
    failure(
      'MALFORMED_REQUEST_body',
      'The body is not valid JSON, or shorter than its Content-Length.',
      malformedRequest('The request body is not valid JSON.'),
    ),
    failure('PAYLOAD_TOO_LARGE', 'The body is larger than BODY_LIMIT (default 64 KiB).', payloadTooLarge(65536)),
    failure(
      'UNSUPPORTED_MEDIA_TYPE',
      'The body is not `application/json` in UTF-8 (or has an unknown Content-Encoding).',
      unsupportedMediaType(),
    ),
  ];
}

/** POST: creations and postings take an Idempotency-Key. */
export const IDEMPOTENCY_FAILURES: DocumentedFailure[] = [
  failure(
    'VALIDATION_FAILED_idempotency_key',
    'The Idempotency-Key header is empty, longer than 255 characters or not printable ASCII.',
    validationFailed([{ field: 'idempotencyKey', code: 'TOO_SHORT', message: 'Must not be empty.' }]),
  ),
  failure(
    'IDEMPOTENCY_KEY_REUSED',
    'The Idempotency-Key was used before for a different request; nothing is created.',
    idempotencyKeyReused(),
  ),
  failure(
    'IDEMPOTENCY_KEY_IN_PROGRESS',
    'A request with this Idempotency-Key is still running; retry shortly to get its result.',
    idempotencyKeyInProgress(),
  ),
];

/** The real refusal of a malformed If-Match. */
function malformedIfMatch(): unknown {
  try {
    ifMatchCondition('not-a-tag', '00000000-0000-0000-0000-000000000000');
  } catch (error) {
    return error;
  }
  throw new Error('A malformed If-Match was accepted.');
}

/** PUT and DELETE of a customer or account: If-Match (src/rest/entity-tags.ts). */
export const IF_MATCH_FAILURES: DocumentedFailure[] = [
  failure(
    'VALIDATION_FAILED_if_match',
    'The If-Match header is neither `*` nor a list of quoted entity tags; nothing changes.',
    malformedIfMatch(),
  ),
];
export const IF_MATCH_STALE: DocumentedFailure = failure(
  'PRECONDITION_FAILED',
  'If-Match names no current version of the record (it changed since it was read, or the tag is of another record or weak); nothing changes.',
  preconditionFailed(),
);

/** Every failure `route` can answer, in the order the service checks them. */
export function failuresOf(route: RestRoute): DocumentedFailure[] {
  return [
    ...requestFailures(route.family),
    ...(route.requestBody ? bodyFailures() : []),
    ...(takesIdempotencyKey(route) ? IDEMPOTENCY_FAILURES : []),
    ...(takesIfMatch(route) ? IF_MATCH_FAILURES : []),
    ...route.failures,
    ...(takesIfMatch(route) ? [IF_MATCH_STALE] : []),
    ...SERVER_FAILURES,
  ];
}

export const accountNotFoundFailure = failure(
  'ACCOUNT_NOT_FOUND',
  'No account with this id in this environment (an id that is not a UUID cannot name one).',
  accountNotFound(),
);
export const eventNotFoundFailure = failure(
  'EVENT_NOT_FOUND',
  'No event with this id in this environment, or it was pruned.',
  eventNotFound(),
);
/** A partial update naming a field that never changes; `example` is such a field. */
export const fieldNotUpdatableFailure = (example: string[], updatable: readonly string[]): DocumentedFailure =>
  failure(
    'FIELD_NOT_UPDATABLE',
    'The body names a field that cannot change; nothing changes.',
    fieldsNotUpdatable(example, updatable),
  );
/** A page's `limit` out of range, with the message the query's own schema gives. */
export const limitValidationFailure = (schema: z.ZodType): DocumentedFailure =>
  failure(
    'VALIDATION_FAILED',
    '`limit` is not a whole number between 1 and 100, or an unknown parameter.',
    validationFailureOf(schema, { limit: '0' }),
  );
/** What the ledger can refuse when a posting debits or credits an account; nothing is written. */
export const postingRefusals = [
  failure('ACCOUNT_FROZEN', 'The account has the FROZEN flag.', accountFrozen()),
  failure('ACCOUNT_CLOSED', 'The account is closed (docs/account-lifecycle.md).', accountClosed()),
  failure(
    'ACCOUNT_DORMANT',
    "A client's debit of a DORMANT account (docs/dormancy-and-escheatment.md): reactivate it first.",
    accountDormant(),
  ),
  failure('DEBITS_BLOCKED', 'A debit on an account with the DEBITS_BLOCKED flag.', debitsBlocked()),
  failure('CREDITS_BLOCKED', 'A credit on an account with the CREDITS_BLOCKED flag.', creditsBlocked()),
  failure(
    'INSUFFICIENT_FUNDS',
    'A debit (or hold) would take the available balance below minus the overdraft limit.',
    insufficientFunds(),
  ),
  failure(
    'VERIFICATION_REQUIRED',
    'A gated environment (VERIFICATION_REQUIRED): a customer of an account is not VERIFIED (one detail per customer).',
    verificationRequired([EXAMPLE_IDS.customerId]),
  ),
];
/** The success answers operations share: the whole record they changed or read, or nothing after a deletion. */
export const DELETED: RestRoute['success'] = {
  status: 200,
  description: 'Deleted; `data` is an empty object.',
  data: emptyDataSchema,
  component: 'Empty',
};
