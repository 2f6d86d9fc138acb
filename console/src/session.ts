/**
 * The signed-in session: the API token and the environment (and, after a sign-in at the identity provider,
 * its ID token, the hint that ends the provider's session at sign-out), in sessionStorage only (gone when
 * the tab closes; never localStorage, never a URL). Nothing else the console handles is stored in the browser.
 */
const TOKEN_KEY = 'cas.console.token';
const ENVIRONMENT_KEY = 'cas.console.environment';
const ID_TOKEN_KEY = 'cas.console.oidc.idToken';

export interface Session {
  token: string;
  environment: string;
  /** The provider's ID token, when the session began there (oidc.ts): sent back as `id_token_hint` at sign-out. */
  idToken?: string;
}

export function readSession(): Session | null {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const environment = sessionStorage.getItem(ENVIRONMENT_KEY);
  const idToken = sessionStorage.getItem(ID_TOKEN_KEY);
  return token && environment ? { token, environment, ...(idToken && { idToken }) } : null;
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(TOKEN_KEY, session.token);
  sessionStorage.setItem(ENVIRONMENT_KEY, session.environment);
  if (session.idToken) sessionStorage.setItem(ID_TOKEN_KEY, session.idToken);
  else sessionStorage.removeItem(ID_TOKEN_KEY);
}

export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(ENVIRONMENT_KEY);
  sessionStorage.removeItem(ID_TOKEN_KEY);
}

/** The environments the service is configured with, from the page it served (src/http/console.ts). */
export function configuredEnvironments(): string[] {
  const content = document.querySelector<HTMLMetaElement>('meta[name="cas-environments"]')?.content ?? '';
  return content
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** An idempotency key: random, never derived from the request, fresh for each new action (not for its retries). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
