import { createRequire } from 'node:module';
import path from 'node:path';
import { type Request, type Response, Router } from 'express';
import { documentSecurityHeaders } from '../http/security-headers.js';

/**
 * The offline explorer: GraphiQL served entirely from npm packages (GraphiQL 3's bundle and React 18's
 * UMD files from node_modules), so it works on air-gapped networks where Apollo's hosted Sandbox
 * cannot load. Page: GET /{environment}/graphiql; it queries /{environment}/graphql with whatever
 * Authorization header the user types into its Headers tab (never persisted to localStorage), and runs
 * subscriptions over ws(s)://…/{environment}/graphql with the same headers as connection parameters.
 */
const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

const ASSETS: Record<string, { file: string; type: string }> = {
  'react.production.min.js': {
    file: path.join(packageDir('react'), 'umd/react.production.min.js'),
    type: 'text/javascript',
  },
  'react-dom.production.min.js': {
    file: path.join(packageDir('react-dom'), 'umd/react-dom.production.min.js'),
    type: 'text/javascript',
  },
  'graphiql.min.js': { file: path.join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.min.css': { file: path.join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
};

const DEFAULT_QUERY = `# Set the Authorization header in the Headers tab below, then run (Ctrl-Enter).
# Subscriptions run over WebSocket with the same header, e.g.
#   subscription { events { type sequence resourceId } }
query FirstCustomers {
  customers(first: 5) {
    nodes {
      customerId
      firstName
      lastName
      accounts { accountId name amount currency }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`;

// The bootstrap is a script file, not inline, so the page's CSP can forbid inline scripts.
const BOOTSTRAP = `(function () {
  var endpoint = window.location.pathname.replace(/\\/graphiql\\/?$/, '/graphql');
  // Subscriptions: the same path over WebSocket. GraphiQL sends the Headers tab as the connection_init
  // payload, so the Authorization header typed there authenticates the connection too.
  var subscriptionUrl = (window.location.protocol === 'https:' ? 'wss://' : 'ws://') + window.location.host + endpoint;
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: GraphiQL.createFetcher({ url: endpoint, subscriptionUrl: subscriptionUrl }),
    defaultQuery: ${JSON.stringify(DEFAULT_QUERY)},
    defaultHeaders: ${JSON.stringify(JSON.stringify({ Authorization: 'Bearer <your API token>' }, null, 2))},
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false
  }));
})();
`;

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // GraphiQL sets style attributes
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function page(environment: string): string {
  const assets = `/${environment}/graphiql/assets`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>GraphiQL · ${environment} · Customer &amp; Account Service</title>
<link rel="stylesheet" href="${assets}/graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${assets}/react.production.min.js"></script>
<script src="${assets}/react-dom.production.min.js"></script>
<script src="${assets}/graphiql.min.js"></script>
<script src="${assets}/explorer.js"></script>
</body>
</html>
`;
}

/** The explorer's own policy for its own assets, in place of the API's (which forbids every script). */
function pagePolicy(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
}

/** Routes of the explorer; `environmentGate` answers unknown environments before they run. */
export function explorerRouter(environmentGate: (req: Request, res: Response, next: () => void) => void): Router {
  const router = Router();
  // The inline <style> needs 'unsafe-inline' for styles only; scripts stay 'self'.
  router.get('/:environment/graphiql', environmentGate, documentSecurityHeaders(), (req, res) => {
    pagePolicy(res);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page(String(req.params.environment)));
  });
  router.get('/:environment/graphiql/assets/:file', environmentGate, (req, res, next) => {
    const name = String(req.params.file);
    pagePolicy(res);
    if (name === 'explorer.js') {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('text/javascript').send(BOOTSTRAP);
      return;
    }
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) {
      next();
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.sendFile(asset.file, { headers: { 'Content-Type': asset.type } });
  });
  return router;
}
