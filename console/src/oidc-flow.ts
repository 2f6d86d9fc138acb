import * as oauth from 'oauth4webapi';
import { BASE } from './router';
import type { Session } from './session';
import { CALLBACK_PATH, type OidcSettings, type Pending, PENDING_KEY, SignInProblem } from './oidc';

/** The Authorization Code flow with PKCE through oauth4webapi (see oidc.ts); loaded on demand. */
const redirectUri = () => `${window.location.origin}${CALLBACK_PATH}`;

/** Plain http is accepted for a provider on this machine only (the service refuses it otherwise). */
function requestOptions(issuer: URL): { [oauth.allowInsecureRequests]?: boolean } {
  return issuer.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {};
}

async function discover(settings: OidcSettings): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(settings.issuer);
  try {
    return await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions(issuer) }),
    );
  } catch (error) {
    throw new SignInProblem(
      'OIDC_PROVIDER_UNAVAILABLE',
      `The identity provider could not be reached or described itself wrongly (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

/** Sends the browser to the provider's authorization endpoint; the answer comes back to CALLBACK_PATH. */
export async function startOidcSignIn(settings: OidcSettings, environment: string): Promise<void> {
  const as = await discover(settings);
  if (as.authorization_endpoint === undefined)
    throw new SignInProblem('OIDC_PROVIDER_UNAVAILABLE', 'The identity provider names no authorization endpoint.');
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const here = window.location.pathname;
  const returnTo = here.startsWith(BASE) && here !== CALLBACK_PATH ? here : BASE;
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ state, codeVerifier, environment, returnTo } satisfies Pending));
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', settings.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (settings.resource !== undefined) url.searchParams.set('resource', settings.resource);
  window.location.assign(url.href);
}

function readPending(): Pending | null {
  const text = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!text) return null;
  try {
    return JSON.parse(text) as Pending;
  } catch {
    return null;
  }
}

/**
 * The provider's answer at CALLBACK_PATH: checks it against the sign-in this tab started (state, issuer),
 * takes the code and state out of the address bar at once, and exchanges the code (with the PKCE verifier)
 * for the access token. Answers the session and where to go; throws a SignInProblem.
 */
export async function completeOidcSignIn(settings: OidcSettings): Promise<{ session: Session; returnTo: string }> {
  const answer = new URL(window.location.href);
  window.history.replaceState(null, '', BASE);
  const pending = readPending();
  if (pending === null)
    throw new SignInProblem(
      'OIDC_SIGN_IN_NOT_STARTED',
      'This tab did not start a sign-in, or it was already completed. Sign in again.',
    );
  const as = await discover(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, client, answer, pending.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      throw new SignInProblem(
        `OIDC_${error.error.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`,
        `The identity provider refused the sign-in${error.error_description ? `: ${error.error_description}` : '.'}`,
      );
    }
    throw new SignInProblem(
      'OIDC_STATE_MISMATCH',
      'The answer from the identity provider does not belong to the sign-in this tab started (its state or issuer differs). Nothing was signed in; sign in again.',
    );
  }
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      parameters,
      redirectUri(),
      pending.codeVerifier,
      {
        ...requestOptions(new URL(settings.issuer)),
        ...(settings.resource !== undefined && { additionalParameters: { resource: settings.resource } }),
      },
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    window.history.replaceState(null, '', pending.returnTo);
    return {
      session: {
        token: result.access_token,
        environment: pending.environment,
        ...(result.id_token && { idToken: result.id_token }),
      },
      returnTo: pending.returnTo,
    };
  } catch (error) {
    const detail =
      error instanceof oauth.ResponseBodyError
        ? `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`
        : error instanceof Error
          ? error.message
          : String(error);
    throw new SignInProblem(
      'OIDC_TOKEN_REFUSED',
      `The identity provider did not give the console an access token (${detail}). Sign in again.`,
    );
  }
}

/**
 * RP-Initiated Logout 1.0: sends the browser to the provider's `end_session_endpoint` with the session's ID
 * token as `id_token_hint`, and back to the console's sign-in page (`post_logout_redirect_uri`, registered at
 * the provider). oauth4webapi has no helper for it (it is a link, like the authorization request), so the
 * address is formed here. False when the provider advertises no such endpoint: the console's own sign-out
 * is then all there is. Throws a SignInProblem when the provider cannot be reached.
 */
export async function endOidcSession(settings: OidcSettings, idToken: string): Promise<boolean> {
  let as: oauth.AuthorizationServer;
  try {
    as = await discover(settings);
  } catch (error) {
    throw new SignInProblem(
      'OIDC_SIGN_OUT_INCOMPLETE',
      `Signed out of the console, but the identity provider could not be reached: your session there may still be open (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (as.end_session_endpoint === undefined) return false;
  const url = new URL(as.end_session_endpoint);
  url.searchParams.set('id_token_hint', idToken);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('post_logout_redirect_uri', `${window.location.origin}${BASE}`);
  window.location.assign(url.href);
  return true;
}
