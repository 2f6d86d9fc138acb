/**
 * The signed-in session: the API token and the environment, in sessionStorage only (gone when the tab
 * closes; never localStorage, never a URL). Nothing else the console handles is stored in the browser.
 */
const TOKEN_KEY = 'cas.console.token';
const ENVIRONMENT_KEY = 'cas.console.environment';

export interface Session {
  token: string;
  environment: string;
}

export function readSession(): Session | null {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const environment = sessionStorage.getItem(ENVIRONMENT_KEY);
  return token && environment ? { token, environment } : null;
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(TOKEN_KEY, session.token);
  sessionStorage.setItem(ENVIRONMENT_KEY, session.environment);
}

export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(ENVIRONMENT_KEY);
}

/** The environments the service is configured with, from the page it served (src/http/console.ts). */
export function configuredEnvironments(): string[] {
  const content = document.querySelector<HTMLMetaElement>('meta[name="cas-environments"]')?.content ?? '';
  return content.split(',').map((name) => name.trim()).filter(Boolean);
}

/** An idempotency key: random, never derived from the request, fresh for each new action (not for its retries). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
