import type { DomainError } from '../domain/errors.js';
import { type BearerChallenge, RequestError } from './errors.js';

export const BEARER_REALM = 'customer-account-service';

/** RFC 6750 §3 allows these characters in quoted attribute values; anything else is dropped. */
const quoted = (value: string) => `"${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;

/**
 * The `WWW-Authenticate` value for a refused request (RFC 6750 §3), from a challenge and a message:
 * `Bearer realm="…"` alone when no credentials were sent, else with `error`, `error_description` and, for
 * insufficient_scope, the `scope` the operation needs.
 */
export function bearerChallengeHeader(challenge: BearerChallenge, description?: string): string {
  const attributes = [`realm=${quoted(BEARER_REALM)}`];
  if (challenge.error) {
    attributes.push(`error=${quoted(challenge.error)}`);
    if (description) attributes.push(`error_description=${quoted(description)}`);
    if (challenge.scope) attributes.push(`scope=${quoted(challenge.scope)}`);
  }
  return `Bearer ${attributes.join(', ')}`;
}

/**
 * What a refused request is told (RFC 6750 §3), undefined for any other failure: the challenge the auth step
 * attached to an UNAUTHENTICATED error (it knows whether the token was missing, malformed or refused), and
 * `insufficient_scope` (with the scope the domain found missing, if any) for a FORBIDDEN one.
 */
export function challengeFor(error: DomainError | RequestError): BearerChallenge | undefined {
  if (error instanceof RequestError) return error.kind === 'unauthenticated' ? (error.challenge ?? {}) : undefined;
  if (error.kind !== 'forbidden') return undefined;
  return error.requiredScope === undefined
    ? { error: 'insufficient_scope' }
    : { error: 'insufficient_scope', scope: error.requiredScope };
}

/** The `WWW-Authenticate` value both surfaces send with a 401 or 403, described by the error's message when it names an error. */
export function challengeHeaderFor(error: DomainError | RequestError): string | undefined {
  const challenge = challengeFor(error);
  if (challenge === undefined) return undefined;
  return bearerChallengeHeader(challenge, challenge.error ? error.message : undefined);
}
