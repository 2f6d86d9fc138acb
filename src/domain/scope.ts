/** Who is acting. Produced by the bearer-auth step (src/auth) and passed explicitly, never read from a global. */
export interface Principal {
  /** Stable identifier for audit: a token id or a JWT subject; never the secret itself. */
  id: string;
  kind: 'static-token' | 'api-token' | 'jwt';
}

/** Everything a domain operation needs to know about the request it serves. */
export interface RequestScope {
  environment: string;
  principal: Principal;
  requestId: string;
}
