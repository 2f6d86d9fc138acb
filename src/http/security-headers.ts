import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * Security headers for every response, with helmet. The API answers JSON, so its Content-Security-Policy
 * lets nothing load and nothing frame it; the two HTML pages set their own: the offline GraphiQL a strict
 * policy for its own assets (src/graphql/explorer.ts), Apollo's Sandbox landing page a `<meta>` policy with
 * nonces for Apollo's CDN (see allowOwnPagePolicy). HSTS tells browsers to use HTTPS only (TLS is
 * terminated in front of the service; browsers ignore the header over plain HTTP).
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true },
  });
}

/**
 * For a page that carries its own `<meta>` Content-Security-Policy: two policies would both apply (and the
 * API's forbids every script), so the header keeps only what a `<meta>` policy cannot express.
 */
export function allowOwnPagePolicy(res: Response): void {
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
}
