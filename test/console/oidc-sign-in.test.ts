import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { listenTestIdentityProvider, type TestIdentityProvider } from '../support/oidc-provider.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../support/service.js';
import { expectAccessible, openWatchedPage, type WatchedPage } from './helpers.js';

/**
 * The console's OIDC sign-in (Authorization Code with PKCE) in headless Chromium, against a real OpenID
 * Provider (oidc-provider) on 127.0.0.1 that issues JWT access tokens for the service: the provider's login
 * and consent pages, back to the deep link the sign-in started from, data through GraphQL with the JWT, sign
 * out, which ends the provider's session too (the next sign-in asks for the login again); a callback whose
 * state was not this tab's is refused; no code, state or token stays in the console's address.
 */

const AUDIENCE = 'urn:example:customer-account-service';
const CLIENT_ID = 'cas-console';
const SCOPES = ['customers:read', 'accounts:read', 'events:read', 'webhooks:read', 'audit:read'];

let provider: TestIdentityProvider;
let service: TestService;
let browser: Browser | undefined;
let accountId: string;

beforeAll(async () => {
  provider = await listenTestIdentityProvider({ audience: AUDIENCE, scopes: SCOPES, environments: ['sandbox'] });
  service = await startTestService({
    OIDC_ISSUER: provider.issuer,
    OIDC_AUDIENCE: AUDIENCE,
    OIDC_JWKS_URL: `${provider.issuer}/jwks`,
    OIDC_REQUIRED_TYP: 'at+jwt',
    CONSOLE_OIDC_CLIENT_ID: CLIENT_ID,
    CONSOLE_OIDC_SCOPES: SCOPES.join(' '),
    CONSOLE_OIDC_PROVIDER_NAME: 'Example IdP',
  });
  provider.start({
    clientId: CLIENT_ID,
    redirectUri: `${service.url}/console/callback`,
    postLogoutRedirectUri: `${service.url}/console`,
    allowedOrigin: service.url,
  });
  const customer = await service.call('POST', '/sandbox/customer', {
    body: buildCustomerInput({ firstName: 'Grace', lastName: `Hopper${randomUUID().slice(0, 8)}` }),
  });
  const account = await service.call('POST', '/sandbox/account', {
    body: buildAccountInput([customer.json.data.customerId], { name: 'Signed-in Checking' }),
    headers: { 'idempotency-key': randomUUID() },
  });
  accountId = account.json.data.accountId;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await provider?.stop();
});

describe('the console with OIDC sign-in configured', () => {
  it('serves the sign-in settings as data and lets the page connect to exactly the issuer besides itself', async () => {
    const res = await service.call('GET', '/console', { auth: false });
    const policy = res.headers.get('content-security-policy')!;
    expect(policy).toContain(`connect-src 'self' ${provider.issuer};`);
    expect(policy).toContain("script-src 'self';");
    const settings = /<meta name="cas-oidc" content="([^"]*)">/.exec(res.text)?.[1];
    expect(JSON.parse(settings!.replaceAll('&#34;', '"'))).toEqual({
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      scope: `openid ${SCOPES.join(' ')}`,
      resource: AUDIENCE,
      providerName: 'Example IdP',
    });
    expect(res.text).not.toMatch(/<script(?![^>]*\ssrc=)/);
  });

  it('is refused at startup when set without OIDC_ISSUER, or with an issuer in clear on another host', () => {
    const base = { NODE_ENV: 'test', ...TEST_PII_ENV, API_TOKENS: randomBytes(32).toString('base64url') };
    expect(() => loadConfig({ ...base, CONSOLE_OIDC_CLIENT_ID: 'console' })).toThrow(
      /CONSOLE_OIDC_CLIENT_ID needs OIDC_ISSUER/,
    );
    expect(() => loadConfig({ ...base, CONSOLE_OIDC_SCOPES: 'openid' })).toThrow(
      /CONSOLE_OIDC_SCOPES set without CONSOLE_OIDC_CLIENT_ID/,
    );
    const oidc = {
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_JWKS_URL: 'https://idp.example.com/jwks',
      CONSOLE_OIDC_CLIENT_ID: 'console',
    };
    expect(() => loadConfig({ ...base, ...oidc, OIDC_ISSUER: 'http://idp.example.com' })).toThrow(
      /OIDC_ISSUER must use https when CONSOLE_OIDC_CLIENT_ID is set/,
    );
    expect(() =>
      loadConfig({ ...base, ...oidc, OIDC_ISSUER: 'https://idp.example.com', CONSOLE_OIDC_SCOPES: 'openid "quoted"' }),
    ).toThrow(/CONSOLE_OIDC_SCOPES must be OAuth scopes/);
    expect(
      loadConfig({
        ...base,
        ...oidc,
        OIDC_ISSUER: 'https://idp.example.com',
        OIDC_AUDIENCE: 'customer-account-service',
      }).consoleOidc,
    ).toMatchObject({
      issuerOrigin: 'https://idp.example.com',
      scopes: ['openid'],
      resource: undefined,
    });
    expect(loadConfig(base).consoleOidc).toBeUndefined();
  });
});

/** The provider's own login and consent pages (oidc-provider's development interactions). */
async function loginAtProvider(page: Page): Promise<void> {
  await page.locator('input[name="login"]').fill('ada.operator');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}
const browserIt = hasChromium() ? it : it.skip;

describe('signing in at the identity provider in a browser', () => {
  let watched: WatchedPage | undefined;
  afterEach(async () => {
    await watched?.close();
    watched = undefined;
  });
  const expectClean = () => {
    expect(watched!.problems).toEqual([]);
    // Only the service and the provider: the console's own requests, the provider's pages and the round trip.
    expect(watched!.offsite.filter((url) => !url.startsWith(`${provider.issuer}/`))).toEqual([]);
  };

  browserIt(
    'signs in with the Authorization Code flow and PKCE, lands on the deep link signed in, reads through GraphQL with the JWT, and signs out there and at the provider',
    async () => {
      watched = await openWatchedPage(browser!, service.url);
      const { page } = watched;
      await page.goto(`${service.url}/console/accounts/${accountId}`);
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).waitFor();
      await expectAccessible(page, 'sign-in page with OIDC');
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).click();
      await page.waitForURL(`${provider.issuer}/**`);
      const authorization = new URL(watched.offsite.find((url) => url.includes('code_challenge='))!);
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorization.searchParams.get('client_id')).toBe(CLIENT_ID);
      expect(authorization.searchParams.get('resource')).toBe(AUDIENCE);
      await loginAtProvider(page);
      await page.getByRole('heading', { level: 1, name: 'Signed-in Checking' }).waitFor();
      expect(page.url()).toBe(`${service.url}/console/accounts/${accountId}`);
      const stored = JSON.parse((await page.evaluate('JSON.stringify(sessionStorage)')) as string) as Record<
        string,
        string
      >;
      expect(Object.keys(stored).sort()).toEqual([
        'cas.console.environment',
        'cas.console.oidc.idToken',
        'cas.console.token',
      ]);
      const idToken = stored['cas.console.oidc.idToken']!;
      expect(JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8'))).toMatchObject({
        iss: provider.issuer,
        aud: CLIENT_ID,
        sub: 'ada.operator',
      });
      const [header, payload] = stored['cas.console.token']!.split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
      expect(header).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
      expect(payload).toMatchObject({
        iss: provider.issuer,
        aud: AUDIENCE,
        sub: 'ada.operator',
        environments: ['sandbox'],
      });
      expect(await page.evaluate('JSON.stringify(localStorage)')).toBe('{}');
      // Read-only scopes from the provider: the console offers no write.
      await page.getByRole('heading', { name: 'Balance', exact: true }).waitFor();
      expect(await page.getByRole('heading', { name: 'Transfer' }).count()).toBe(0);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit' }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit trail' }).waitFor();
      // Sign out: the tab forgets its tokens, then RP-initiated logout at the provider, and back to the console.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      const endSession = new URL(watched.offsite.find((url) => url.includes('id_token_hint='))!);
      expect(endSession.origin + endSession.pathname).toBe(`${provider.issuer}/session/end`);
      expect(Object.fromEntries(endSession.searchParams)).toEqual({
        id_token_hint: idToken,
        client_id: CLIENT_ID,
        post_logout_redirect_uri: `${service.url}/console`,
      });
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).waitFor();
      expect(page.url()).toBe(`${service.url}/console`);
      expect(await page.evaluate('JSON.stringify(sessionStorage)')).toBe('{}');
      // The provider's session is gone: signing in again asks for the login, and completes as the first time.
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).click();
      await loginAtProvider(page);
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      expectClean();
    },
  );

  browserIt(
    'signs out of the console only at a provider without an end_session_endpoint, and says so when the provider cannot be reached',
    async () => {
      watched = await openWatchedPage(browser!, service.url);
      const { page } = watched;
      const discovery = `${provider.issuer}/.well-known/openid-configuration`;
      await page.goto(`${service.url}/console`);
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).click();
      await loginAtProvider(page);
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      // A provider that names no end_session_endpoint: the console's own sign-out is all there is.
      await page.route(discovery, async (route) => {
        const { end_session_endpoint: _ignored, ...metadata } = (await (await route.fetch()).json()) as Record<
          string,
          unknown
        >;
        await route.fulfill({ json: metadata, headers: { 'access-control-allow-origin': service.url } });
      });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).waitFor();
      await watched.settled();
      expect(page.url()).toBe(`${service.url}/console`);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.evaluate('JSON.stringify(sessionStorage)')).toBe('{}');
      await page.unroute(discovery);
      // The provider's session is still open then: signing in again asks for no login.
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).click();
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      // A provider that cannot be reached at sign-out: signed out here anyway, and told so.
      await page.route(discovery, (route) => route.abort());
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toContain('OIDC_SIGN_OUT_INCOMPLETE');
      expect(page.url()).toBe(`${service.url}/console`);
      expect(await page.evaluate('JSON.stringify(sessionStorage)')).toBe('{}');
      expect(watched.offsite.filter((url) => url.includes('/session/end'))).toEqual([]);
    },
  );

  browserIt(
    'refuses an answer whose state this tab did not send, says why, and keeps the code out of the address bar',
    async () => {
      watched = await openWatchedPage(browser!, service.url);
      const { page } = watched;
      await page.goto(`${service.url}/console`);
      await page.getByRole('button', { name: 'Sign in with Example IdP' }).click();
      await page.waitForURL(`${provider.issuer}/**`);
      // A link crafted elsewhere (login CSRF): a code with another state.
      await page.goto(
        `${service.url}/console/callback?code=stolen-code&state=tampered&iss=${encodeURIComponent(provider.issuer)}`,
      );
      await expect.poll(() => page.getByRole('alert').innerText()).toContain('OIDC_STATE_MISMATCH');
      await expect(page.getByRole('alert').innerText()).resolves.toContain(
        'does not belong to the sign-in this tab started',
      );
      expect(page.url()).toBe(`${service.url}/console`);
      expect(await page.evaluate('JSON.stringify(sessionStorage)')).toBe('{}');
      expect(watched.offsite.filter((url) => url.startsWith(`${provider.issuer}/token`))).toEqual([]);
      await expectAccessible(page, 'sign-in page with a refused callback');
      expectClean();
    },
  );
});
