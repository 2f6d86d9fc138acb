import { describe, expect, it } from 'vitest';
import { startupBanner } from '../../src/http/startup-banner.js';

describe("npm start's banner", () => {
  const facts = {
    host: '127.0.0.1',
    port: 3000,
    url: 'http://127.0.0.1:3000',
    firstEnvironment: 'sandbox',
    tokens: { kind: 'development', file: '.data/dev-api-token' },
  } as const;

  it('names where it listens, the console, the API reference, REST, GraphQL and the token to use', () => {
    expect(startupBanner(facts).split('\n')).toEqual([
      'Customer & Account Service on http://127.0.0.1:3000',
      '  listening on   127.0.0.1 port 3000 only (this machine; set HOST to serve others)',
      '  console        http://127.0.0.1:3000/console',
      '  API reference  http://127.0.0.1:3000/docs',
      '  REST           http://127.0.0.1:3000/sandbox/customer',
      '  GraphQL        http://127.0.0.1:3000/sandbox/graphql (subscriptions: ws://127.0.0.1:3000/sandbox/graphql)',
      '  bearer token   the development token printed above (every scope; kept in .data/dev-api-token)',
      '',
    ]);
  });

  it('says so when it serves every interface, and names configured tokens without their values', () => {
    const banner = startupBanner({
      ...facts,
      host: '0.0.0.0',
      tokens: { kind: 'configured', names: ['API_TOKENS', 'managed tokens (npm run token)'] },
    });
    expect(banner).toContain('  listening on   every interface (HOST=0.0.0.0), port 3000\n');
    expect(banner).toContain('  bearer token   API_TOKENS, managed tokens (npm run token)\n');
  });
});
