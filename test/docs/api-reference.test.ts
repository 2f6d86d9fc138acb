import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { CHROMIUM, hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../../src/rest/routes.js';
import { createCustomer } from '../rest/helpers.js';
import { startTestService, type TestService } from '../support/service.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

const SCREENSHOTS = path.resolve('test-output/screenshots');

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

/** What the test reads of a rendered Swagger UI operation block (the suite compiles without the DOM lib). */
interface RenderedOperation {
  querySelector(selector: string): { textContent: string | null; getAttribute(name: string): string | null } | null;
}

describe('GET /docs, the offline API reference', () => {
  it('is served without a token from npm packages only, with a strict CSP and links to the GraphQL explorers', async () => {
    const page = await service.call('GET', '/docs', { auth: false });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.text).not.toMatch(/https?:\/\//); // nothing from a CDN
    for (const environment of ['sandbox', 'production-like']) {
      expect(page.text).toContain(`href="/${environment}/graphql"`);
      expect(page.text).toContain(`href="/${environment}/graphiql"`);
    }
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js', 'page.css', 'favicon-32x32.png']) {
      expect(page.text).toContain(`/docs/assets/${asset}`);
      const response = await fetch(`${service.url}/docs/assets/${asset}`);
      expect(response.status, asset).toBe(200);
      await response.arrayBuffer();
    }
    const initialiser = await (await fetch(`${service.url}/docs/assets/init.js`)).text();
    expect(initialiser).toContain("url: '/openapi.json'");
    expect(initialiser).toContain('validatorUrl: null'); // else Swagger UI posts the document to validator.swagger.io
    expect((await fetch(`${service.url}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${service.url}/docs/assets/index.html`)).status).toBe(404);
    const slash = await fetch(`${service.url}/docs/`, { redirect: 'manual' });
    expect(slash.status).toBe(301);
    expect(slash.headers.get('location')).toBe('/docs');
  });

  const browserTest = hasChromium() ? it : it.skip;
  if (!hasChromium()) {
    process.stderr.write(
      `Skipping the headless Chromium test of /docs: ${CHROMIUM} is absent (apt-get install -y chromium).\n`,
    );
  }

  browserTest(
    'lists every operation, and performs an authorised call from the page (Authorize, Try it out, Execute)',
    async () => {
      const { customerId } = await createCustomer(service, { firstName: 'Ada', lastName: 'Lovelace' });
      let browser: Browser | undefined;
      try {
        browser = await launchHeadlessChromium();
        const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`);
        });
        page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
        const offline: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(service.url) && !request.url().startsWith('data:')) offline.push(request.url());
        });

        await page.goto(`${service.url}/docs`);
        await page.locator('.opblock').first().waitFor({ timeout: HUNG_TEST_DEADLINE_MS });

        const listed = await page
          .locator('.opblock')
          .evaluateAll((blocks) =>
            (blocks as unknown as RenderedOperation[]).map(
              (block) =>
                `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
            ),
          );
        const expected = REST_ROUTES.map((route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
        expect(listed.sort()).toEqual(expected.sort());

        try {
          await page.locator('.scheme-container button.authorize').click();
          const dialog = page.locator('.dialog-ux');
          await dialog.locator('input[type="text"], input[type="password"]').first().fill(service.token);
          await dialog.locator('button.authorize').click();
          await dialog.locator('button.btn-done').click();

          const operation = page.locator('#operations-Customers-getCustomer');
          await operation.locator('.opblock-summary').click();
          await operation.locator('button.try-out__btn').click();
          await operation.locator('tr[data-param-name="environment"] input').fill('sandbox');
          await operation.locator('tr[data-param-name="customerId"] input').fill(customerId);
          await operation.locator('button.execute').click();

          const live = operation.locator('.live-responses-table');
          await expect
            .poll(() => live.locator('tr.response .response-col_status').first().innerText(), {
              timeout: HUNG_TEST_DEADLINE_MS,
            })
            .toBe('200');
          const body = await live.locator('tr.response .response-col_description').first().innerText();
          expect(body).toContain(customerId);
          expect(body).toContain('Lovelace');
          expect(body).toContain('log_ref_id');
        } finally {
          mkdirSync(SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: path.join(SCREENSHOTS, 'api-reference.png'), fullPage: true });
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
