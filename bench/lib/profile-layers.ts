/**
 * The layer of the service's stack a profile frame's origin belongs to (bench/profile.ts: "self time by layer"),
 * so a profile says how much of the service's own work each part of its stack takes: the HTTP framework, the
 * database client, the features a bare floor does not have (logging, metrics, security headers, validation, rate
 * limits) and the service's own code. An origin is what bench/profile.ts's origin() gives: a package name,
 * `service:<directory>`, `node:*`, `(native)`, or one of V8's pseudo-frames.
 */

// Small utilities Express pulls in (debug, ms, safe-buffer, the get-intrinsic family…) count as Express: on the
// request path nothing else of the service's calls them. A package not listed shows under "other packages".
const LAYER_OF_PACKAGE: Record<string, string> = {};
const assign = (layer: string, packages: string[]) => {
  for (const name of packages) LAYER_OF_PACKAGE[name] = layer;
};
assign('Express (routing, body parsing)', [
  'express',
  'router',
  'body-parser',
  'finalhandler',
  'raw-body',
  'type-is',
  'qs',
  'iconv-lite',
  'content-type',
  'media-typer',
  'on-finished',
  'parseurl',
  'path-to-regexp',
  'forwarded',
  'proxy-addr',
  'depd',
  'http-errors',
  'statuses',
  'encodeurl',
  'escape-html',
  'accepts',
  'negotiator',
  'mime-types',
  'mime-db',
  'send',
  'etag',
  'fresh',
  'range-parser',
  'cookie',
  'setprototypeof',
  'bytes',
  'debug',
  'ms',
  'merge-descriptors',
  'utils-merge',
  'content-disposition',
  'ee-first',
  'unpipe',
  'toidentifier',
  'inherits',
  'safe-buffer',
  'safer-buffer',
  'is-promise',
  'math-intrinsics',
  'es-errors',
  'side-channel',
  'side-channel-map',
  'side-channel-list',
  'side-channel-weakmap',
  'object-inspect',
  'get-intrinsic',
  'call-bound',
  'call-bind-apply-helpers',
  'function-bind',
  'hasown',
  'gopd',
  'dunder-proto',
  'es-object-atoms',
  'has-symbols',
  'get-proto',
  'es-define-property',
]);
assign('database driver: pg', [
  'pg',
  'pg-protocol',
  'pg-pool',
  'pg-types',
  'pg-int8',
  'postgres-array',
  'postgres-bytea',
  'postgres-date',
  'postgres-interval',
  'pg-connection-string',
  'split2',
]);
assign('access log: pino', [
  'pino',
  'pino-std-serializers',
  'fast-redact',
  '@pinojs/redact',
  'sonic-boom',
  'quick-format-unescaped',
  'safe-stable-stringify',
  'atomic-sleep',
  'thread-stream',
  'on-exit-leak-free',
  'process-warning',
  'real-require',
]);
assign('metrics: prom-client', ['prom-client', 'tdigest', 'bintrees']);
assign('security headers and CORS: helmet, cors', ['helmet', 'cors', 'vary', 'object-assign']);
assign('validation: zod', ['zod']);
assign('rate limits: rate-limiter-flexible', ['rate-limiter-flexible']);
assign('GraphQL: Apollo Server, graphql-js', [
  'graphql',
  '@apollo/server',
  '@as-integrations/express5',
  '@graphql-tools/schema',
  '@graphql-tools/utils',
  '@graphql-tools/merge',
  'graphql-depth-limit',
  'graphql-query-complexity',
]);
assign('ids: uuid', ['uuid']);
assign('read coalescing: dataloader', ['dataloader']);

export function layerOf(origin: string): string {
  if (origin.startsWith('@prisma/')) return 'database client: Prisma Client and its adapter';
  if (origin.startsWith('service:')) return `the service's own code: ${origin.slice('service:'.length)}`;
  if (origin === 'node:*') return 'Node core (http, net, streams, crypto)';
  if (origin === '(native)') return 'V8 and Node builtins called from JavaScript (JSON, crypto, buffers)';
  if (origin === '(garbage collector)') return 'garbage collection';
  if (origin.startsWith('(')) return `V8: ${origin}`;
  return LAYER_OF_PACKAGE[origin] ?? `other packages: ${origin}`;
}
