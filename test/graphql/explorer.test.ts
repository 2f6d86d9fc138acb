import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { CHROMIUM, hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createCustomer } from './helpers.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

const SCREENSHOTS = path.resolve('test-output/screenshots');
const STUDIO = 'https://studio.apollographql.com';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

describe('Apollo Sandbox landing page and CORS', () => {
  it('GET /{environment}/graphql from a browser shows the embedded Sandbox pointed at this endpoint, without a token', async () => {
    const result = await service.call('GET', '/sandbox/graphql', {
      auth: false,
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^text\/html/);
    expect(result.text).toContain('embeddable-sandbox');
    expect(result.text).toContain('"endpointIsEditable":false');
    expect(result.text).toContain('"sharedHeaders":{"Authorization":"Bearer \\u003cyour API token\\u003e"}');
    expect(result.text).toContain('initialEndpoint = window.location.href');
    expect(result.text).toContain('"runTelemetry":false');
    // The page takes no token, so it is served only in a configured environment (it lists none when it refuses).
    const unknown = await service.call('GET', '/staging/graphql', {
      auth: false,
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors[0].extensions.code).toBe('ENVIRONMENT_NOT_FOUND');
    expect(unknown.text).not.toMatch(/sandbox|production-like/);
  });

  it('answers the CORS preflight of Apollo Studio, exposing X-Request-Id', async () => {
    const preflight = await service.call('OPTIONS', '/sandbox/graphql', {
      auth: false,
      headers: {
        origin: STUDIO,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(STUDIO);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    const post = await service.call('POST', '/sandbox/graphql', {
      body: { query: '{ __typename }' },
      headers: { origin: STUDIO },
    });
    expect(post.headers.get('access-control-allow-origin')).toBe(STUDIO);
    expect(post.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/i);
  });

  it('gives no CORS grant to an origin outside CORS_ORIGINS', async () => {
    const preflight = await service.call('OPTIONS', '/sandbox/graphql', {
      auth: false,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('offline GraphiQL explorer', () => {
  it('is served from npm packages with a strict CSP, for configured environments only', async () => {
    const page = await service.call('GET', '/sandbox/graphiql', { auth: false });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    for (const asset of [
      'react.production.min.js',
      'react-dom.production.min.js',
      'graphiql.min.js',
      'graphiql.min.css',
      'explorer.js',
    ]) {
      expect(page.text).toContain(`/sandbox/graphiql/assets/${asset}`);
      const response = await fetch(`${service.url}/sandbox/graphiql/assets/${asset}`);
      expect(response.status, asset).toBe(200);
      await response.arrayBuffer();
    }
    expect(page.text).not.toMatch(/https?:\/\/(?!www\.w3\.org)/); // nothing from a CDN
    expect((await service.call('GET', '/staging/graphiql', { auth: false })).status).toBe(404);
    expect((await fetch(`${service.url}/sandbox/graphiql/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  const browserTest = hasChromium() ? it : it.skip;
  if (!hasChromium()) {
    process.stderr.write(
      `Skipping the headless Chromium test of GraphiQL: ${CHROMIUM} is absent (apt-get install -y chromium).\n`,
    );
  }

  browserTest(
    'renders in headless Chromium and runs a query, then a subscription over WebSocket, with an Authorization header',
    async () => {
      const customerId = await createCustomer(service, buildCustomerInput({ firstName: 'Grace', lastName: 'Hopper' }));
      let browser: Browser | undefined;
      try {
        browser = await launchHeadlessChromium();
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        // 4xx answers are part of the flow (the introspection sent before the token is typed in is refused
        // with 401); script errors, CSP refusals, failed loads and 5xx answers are not.
        page.on('console', (message) => {
          if (
            message.type() === 'error' &&
            !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
          )
            problems.push(`console: ${message.text()}`);
        });
        page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
        page.on('response', (response) => {
          if (response.status() >= 500) problems.push(`${response.status()} from ${response.url()}`);
        });
        const offline: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(service.url) && !request.url().startsWith('data:')) offline.push(request.url());
        });

        await page.goto(`${service.url}/sandbox/graphiql`);
        await page.locator('.graphiql-container').waitFor({ timeout: HUNG_TEST_DEADLINE_MS });

        // Replace the placeholder header with the real token, and the query with ours.
        await page.locator('.graphiql-editor-tools button', { hasText: 'Headers' }).click();
        await page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').click();
        await page.keyboard.press('Control+A');
        await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${service.token}` }));
        await page.locator('.graphiql-query-editor .CodeMirror').click();
        await page.keyboard.press('Control+A');
        await page.keyboard.insertText(
          `query FindCustomer { customer(customerId: "${customerId}") { customerId firstName lastName } }`,
        );

        // GraphiQL re-parses the editor after a short debounce; run until it runs the new operation.
        const result = page.locator('.result-window');
        try {
          await expect
            .poll(
              async () => {
                await page.locator('.graphiql-execute-button').click();
                await page.waitForTimeout(300);
                return result.innerText();
              },
              { timeout: HUNG_TEST_DEADLINE_MS },
            )
            .toContain('Hopper');
        } finally {
          mkdirSync(SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: path.join(SCREENSHOTS, 'graphiql-offline-explorer.png'), fullPage: true });
        }
        expect(await result.innerText()).toContain(customerId);

        // A subscription, over ws://…/sandbox/graphql with the same Authorization header (GraphiQL's Headers tab
        // becomes the connection_init payload): a customer created over REST shows up in the result pane.
        await page.locator('.graphiql-query-editor .CodeMirror').click();
        await page.keyboard.press('Control+A');
        await page.keyboard.insertText(
          'subscription NewCustomers { events(types: ["customer.created"]) { type customer { lastName } } }',
        );
        await expect
          .poll(
            async () => {
              if (service.subscriptions.followers() === 0) {
                await page.locator('.graphiql-execute-button').click();
                await page.waitForTimeout(300);
              }
              return service.subscriptions.followers();
            },
            { timeout: HUNG_TEST_DEADLINE_MS },
          )
          .toBe(1);
        await createCustomer(service, buildCustomerInput({ firstName: 'Ada', lastName: 'Lovelace' }));
        try {
          await expect.poll(() => result.innerText(), { timeout: HUNG_TEST_DEADLINE_MS }).toContain('Lovelace');
        } finally {
          await page.screenshot({
            path: path.join(SCREENSHOTS, 'graphiql-offline-explorer-subscription.png'),
            fullPage: true,
          });
        }
        expect(problems).toEqual([]);
        expect(offline).toEqual([]);
      } finally {
        await browser?.close();
      }
    },
    60_000,
  );
});
