import { RestProblem } from './api/errors';
import { BASE } from './router';
import type { Session } from './session';

/**
 * Signing in at the identity provider with the Authorization Code flow and PKCE (S256), through oauth4webapi
 * (docs/adr/0072-console-oidc-sign-in.md). The console is a public client: no secret. The state and the
 * PKCE verifier live in sessionStorage for the round trip only; the access token (a JWT the service verifies)
 * then becomes the session's token, like an API token. The code and state never stay in the address bar.
 * The flow itself (oidc-flow.ts, with oauth4webapi) is loaded only when a sign-in at the provider starts or
 * completes, or a session that began there signs out (ending the provider's session too, when it says how):
 * a console signed in with an API token never downloads it.
 */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  scope: string;
  /** RFC 8707: the service's audience, so the access token is issued for it. */
  resource?: string;
  providerName?: string;
}

export const CALLBACK_PATH = `${BASE}/callback`;
export const PENDING_KEY = 'cas.console.oidc.pending';

export interface Pending {
  state: string;
  codeVerifier: string;
  environment: string;
  returnTo: string;
}

/** A sign-in that could not complete, shown like a refusal of the API: a code and a message. */
export class SignInProblem extends RestProblem {}

/** The OIDC sign-in's settings from the page the service served (src/http/console.ts); null when not configured. */
export function configuredOidc(): OidcSettings | null {
  const content = document.querySelector<HTMLMetaElement>('meta[name="cas-oidc"]')?.content;
  if (!content) return null;
  try {
    const settings = JSON.parse(content) as Partial<OidcSettings>;
    return typeof settings.issuer === 'string' &&
      typeof settings.clientId === 'string' &&
      typeof settings.scope === 'string'
      ? (settings as OidcSettings)
      : null;
  } catch {
    return null;
  }
}

export const isOidcCallback = () => window.location.pathname === CALLBACK_PATH;

export function clearPendingSignIn(): void {
  sessionStorage.removeItem(PENDING_KEY);
}

/** Sends the browser to the provider's authorization endpoint; the answer comes back to CALLBACK_PATH. */
export async function startOidcSignIn(settings: OidcSettings, environment: string): Promise<void> {
  return (await import('./oidc-flow')).startOidcSignIn(settings, environment);
}

/** Completes the sign-in at CALLBACK_PATH (oidc-flow.ts): the session and where to go; throws a SignInProblem. */
export async function completeOidcSignIn(settings: OidcSettings): Promise<{ session: Session; returnTo: string }> {
  return (await import('./oidc-flow')).completeOidcSignIn(settings);
}

/** Ends the provider's session after the console's own sign-out (oidc-flow.ts); false when the provider cannot. */
export async function endOidcSession(settings: OidcSettings, idToken: string): Promise<boolean> {
  return (await import('./oidc-flow')).endOidcSession(settings, idToken);
}
