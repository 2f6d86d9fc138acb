import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, Router } from 'express';
import type { ConsoleOidcConfig } from '../config/config.js';
import { documentSecurityHeaders } from './security-headers.js';

/**
 * The back-office console (docs/adr/0065-console-a-client-of-graphql.md): the static build of console/
 * (`npm run build` writes dist/console; the same path from src/http and dist/http) at /console. Every
 * /console/… path that is not an asset answers the console's page, so deep links such as
 * /console/accounts/{accountId} load directly; the page then reads the route from the URL. Not built: the
 * paths are not claimed (404 envelope).
 */
export const CONSOLE_DIR = fileURLToPath(new URL('../../dist/console', import.meta.url));

/**
 * The page's own policy replaces the API's `default-src 'none'`: scripts from this origin only (no inline
 * script, no eval), styles from this origin plus the <style> elements React Aria adds with this response's
 * nonce (it reads `<meta name="csp-nonce">`; a fresh nonce per response), GraphQL on this origin (WebSocket
 * included), frames from blob: only (a document's PDF), no framing of the console itself. With OIDC sign-in, connections to exactly the issuer's origin too (discovery and the
 * token endpoint; the authorization itself is a navigation).
 */
export function consoleSecurityPolicy(styleNonce: string, issuerOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data:",
    // A verification document's PDF, shown in the page from a blob: URL the console made (VerificationPanel.tsx).
    'frame-src blob:',
    "font-src 'self'",
    issuerOrigin === undefined ? "connect-src 'self'" : `connect-src 'self' ${issuerOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** What the console needs to sign in at the identity provider: public values only (a public client has no secret). */
function oidcSettings(oidc: ConsoleOidcConfig): string {
  return JSON.stringify({
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    scope: oidc.scopes.join(' '),
    ...(oidc.resource !== undefined && { resource: oidc.resource }),
    ...(oidc.providerName !== undefined && { providerName: oidc.providerName }),
  });
}

/**
 * The page, with the configured environments and, when configured, the OIDC sign-in's settings in <meta>
 * elements (data, not scripts), read once it exists.
 */
function pageReader(environments: readonly string[], oidc: ConsoleOidcConfig | undefined): () => string | undefined {
  let page: string | undefined;
  return () => {
    if (page !== undefined) return page;
    const file = path.join(CONSOLE_DIR, 'index.html');
    if (!existsSync(file)) return undefined;
    page = readFileSync(file, 'utf8')
      .replace(
        '<meta name="cas-environments" content="">',
        `<meta name="cas-environments" content="${escapeAttribute(environments.join(','))}">`,
      )
      .replace(
        '<meta name="cas-oidc" content="">',
        oidc === undefined ? '' : `<meta name="cas-oidc" content="${escapeAttribute(oidcSettings(oidc))}">`,
      );
    return page;
  };
}

export function consoleRouter(environments: readonly string[], oidc?: ConsoleOidcConfig): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const readPage = pageReader(environments, oidc);
  // Hashed file names: cached for good; a new build has new names.
  router.use(
    '/console/assets',
    express.static(path.join(CONSOLE_DIR, 'assets'), {
      index: false,
      immutable: true,
      maxAge: '365d',
      dotfiles: 'ignore',
      redirect: false,
    }),
  );
  const headers = documentSecurityHeaders();
  router.get(['/console', '/console/*path'], (req: Request, res: Response, next) => {
    const page = readPage();
    if (page === undefined || req.path.startsWith('/console/assets/')) {
      next();
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    headers(req, res, () => {
      res.setHeader('Content-Security-Policy', consoleSecurityPolicy(nonce, oidc?.issuerOrigin));
      res.setHeader('Cache-Control', 'no-cache');
      res
        .type('html')
        .send(page.replace('<meta name="csp-nonce" content="">', `<meta name="csp-nonce" content="${nonce}">`));
    });
  });
  return router;
}
