/**
 * What `npm start` prints once it serves: where it really listens, and where a newcomer goes next (the console, the
 * API reference, REST, GraphQL) with which token. Printed to stdout, never through the structured logger, and it
 * names the token's file only, never the token (the development token is printed once, by its own step).
 */
export interface BannerFacts {
  /** The address the listener is bound to (HOST). */
  host: string;
  port: number;
  /** The address a browser on this machine uses. */
  url: string;
  firstEnvironment: string;
  /** How requests authenticate: the development token's file, or the configured kinds. */
  tokens: { kind: 'development'; file: string } | { kind: 'configured'; names: string[] };
}

const EVERY_INTERFACE = new Set(['0.0.0.0', '::']);

export function startupBanner(facts: BannerFacts): string {
  const { url, firstEnvironment } = facts;
  const reach = EVERY_INTERFACE.has(facts.host)
    ? `every interface (HOST=${facts.host}), port ${facts.port}`
    : `${facts.host} port ${facts.port} only${facts.host.startsWith('127.') || facts.host === '::1' || facts.host === 'localhost' ? ' (this machine; set HOST to serve others)' : ''}`;
  const token =
    facts.tokens.kind === 'development'
      ? `the development token printed above (every scope; kept in ${facts.tokens.file})`
      : facts.tokens.names.join(', ');
  return [
    `Customer & Account Service on ${url}`,
    `  listening on   ${reach}`,
    `  console        ${url}/console`,
    `  API reference  ${url}/docs`,
    `  REST           ${url}/${firstEnvironment}/customer`,
    `  GraphQL        ${url}/${firstEnvironment}/graphql (subscriptions: ${url.replace(/^http/, 'ws')}/${firstEnvironment}/graphql)`,
    `  bearer token   ${token}`,
    '',
  ].join('\n');
}
