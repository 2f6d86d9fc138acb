import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * Security headers, with helmet, in two sets (docs/adr/0013-security-headers-and-cors.md):
 *
 * - every response gets the set OWASP's REST Security Cheat Sheet lists for APIs: a Content-Security-Policy
 *   that lets nothing load and nothing frame the answer, `X-Frame-Options: DENY`, `X-Content-Type-Options:
 *   nosniff`, HSTS (TLS is terminated in front of the service; browsers ignore it over plain HTTP) and
 *   `Cross-Origin-Resource-Policy: same-origin` (no other site may load an answer as a resource).
 *   `Cache-Control: no-store` is set where the data is written (src/rest/envelope.ts, GraphQL).
 * - the HTML pages (the API reference, GraphiQL, Apollo's Sandbox landing page) also get the headers that
 *   only mean something for a document a browser renders: opener isolation, referrer policy, origin-keyed
 *   agent cluster, no DNS prefetch, and the legacy IE and Flash switches. On a JSON answer they do nothing,
 *   and every header costs each of the API's many small answers.
 */
export function apiSecurityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true },
    xContentTypeOptions: true,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

/** The document-only headers, added to apiSecurityHeaders() on the routes that answer HTML pages. */
export function documentSecurityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: false,
    frameguard: false,
    strictTransportSecurity: false,
    xContentTypeOptions: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    originAgentCluster: true,
    referrerPolicy: { policy: 'no-referrer' },
    xDnsPrefetchControl: { allow: false },
    xDownloadOptions: true,
    xPermittedCrossDomainPolicies: { permittedPolicies: 'none' },
    xXssProtection: true,
  });
}

/**
 * For a page that carries its own `<meta>` Content-Security-Policy: two policies would both apply (and the
 * API's forbids every script), so the header keeps only what a `<meta>` policy cannot express.
 */
export function allowOwnPagePolicy(res: Response): void {
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
}
