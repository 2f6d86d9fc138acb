import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from 'express';
import { documentSecurityHeaders } from '../http/security-headers.js';
import { openApiJson } from './document.js';

/** Swagger UI's browser bundle, served from the npm package: the reference works without internet. */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

/**
 * The page holds a bearer token once "Authorize" is used: only our own scripts, no framing. Swagger UI
 * sets inline styles, hence 'unsafe-inline' for styles only.
 */
const PAGE_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io. */
const INITIALISER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
  });
});
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function page(environments: readonly string[]): string {
  const graphqlLinks = environments
    .map((environment) => {
      const name = escapeHtml(environment);
      return `<li><code>${name}</code>: <a href="/${name}/graphiql">GraphiQL (offline)</a> · <a href="/${name}/graphql">Apollo Sandbox</a> (needs internet access)</li>`;
    })
    .join('\n        ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Customer &amp; Account Service: API reference</title>
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
    <link rel="stylesheet" href="/docs/assets/page.css">
  </head>
  <body>
    <header class="service-header">
      <h1>Customer &amp; Account Service</h1>
      <p>REST reference generated from the service's own schemas (<a href="/openapi.json">openapi.json</a>).
      Use <strong>Authorize</strong> with a bearer token, then <strong>Try it out</strong> on an operation.</p>
      <nav aria-label="GraphQL explorers">
        <p>GraphQL at <code>/{environment}/graphql</code>, explorers per environment:</p>
        <ul>
        ${graphqlLinks}
        </ul>
      </nav>
    </header>
    <main id="swagger-ui"></main>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/init.js"></script>
  </body>
</html>
`;
}

const PAGE_CSS = `.service-header { font-family: sans-serif; max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; }
.service-header h1 { font-size: 1.6em; margin: 0 0 8px; }
.service-header ul { margin: 4px 0 0; }
`;

/**
 * GET /openapi.json (the document, no token needed: it holds no data) and GET /docs, an offline API
 * reference (Swagger UI) with links to the GraphQL explorers of each environment.
 */
export function referencePagesRouter(environments: readonly string[]): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const html = page(environments);

  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(openApiJson());
  });
  router.get('/docs', documentSecurityHeaders(), (_req, res) => {
    res.setHeader('Content-Security-Policy', PAGE_SECURITY_POLICY);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  });
  router.get('/docs/', (_req, res) => res.redirect(301, '/docs'));
  router.get('/docs/assets/init.js', (_req, res) => {
    res.type('text/javascript').send(INITIALISER);
  });
  router.get('/docs/assets/page.css', (_req, res) => {
    res.type('text/css').send(PAGE_CSS);
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file;
    if (!SWAGGER_UI_ASSETS.has(file)) {
      next();
      return;
    }
    res.sendFile(path.join(SWAGGER_UI_DIR, file), { maxAge: '1d' });
  });
  return router;
}
