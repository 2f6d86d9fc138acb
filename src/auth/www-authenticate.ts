import type { BearerChallenge, DomainError } from '../domain/errors.js';

export const BEARER_REALM = 'customer-account-service';

/** RFC 6750 §3 allows these characters in quoted attribute values; anything else is dropped. */
const quoted = (value: string) => `"${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;

/**
 * The `WWW-Authenticate` value for a refused request (RFC 6750 §3), from a DomainError's `challenge`
 * and message: `Bearer realm="…"` alone when no credentials were sent, else with `error`,
 * `error_description` and, for insufficient_scope, the `scope` the operation needs.
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
 * The `WWW-Authenticate` value both surfaces send with a 401 or 403 DomainError (undefined for any other
 * error): the challenge the auth layer attached, described by the error's message when it names an error.
 */
export function challengeHeaderFor(error: DomainError): string | undefined {
  if (error.kind !== 'forbidden' && error.kind !== 'unauthenticated') return undefined;
  const challenge = error.challenge ?? {};
  return bearerChallengeHeader(challenge, challenge.error ? error.message : undefined);
}
