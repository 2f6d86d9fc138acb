import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { openWatchedPage, type WatchedPage } from './helpers.js';

/**
 * The console tests' watcher: a fetch cancelled by a navigation or by the page itself (ERR_ABORTED) is no failure, as
 * Apollo Client cancels a query whose view is gone; a request that fails in any other way is a problem.
 */

let server: Server;
let origin: string;
let browser: Browser | undefined;

const pages: Record<string, string> = {
  '/abandon': `<script>fetch('/slow')</script>`,
  '/abort': `<script>const c = new AbortController(); fetch('/slow', { signal: c.signal }).catch(() => {}); setTimeout(() => c.abort(), 50)</script>`,
  '/next': `<p>next</p>`,
  '/lost': `<script>fetch('/reset').catch(() => {})</script>`,
};

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/reset') {
      request.socket.destroy();
      return;
    }
    if (request.url === '/slow') {
      setTimeout(() => response.end('late'), 2_000).unref();
      return;
    }
    response.setHeader('content-type', 'text/html');
    response.end(`<!doctype html><title>t</title>${pages[request.url ?? ''] ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (hasChromium()) browser = await launchHeadlessChromium();
});
afterAll(async () => {
  await browser?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const browserIt = hasChromium() ? it : it.skip;

/** Every failed request of the page, as the browser reports it, so a test knows the case it builds did happen. */
function failuresOf(watched: WatchedPage): string[] {
  const failures: string[] = [];
  watched.page.on('requestfailed', (request) =>
    failures.push(`${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  return failures;
}

describe('the console tests’ page watcher', () => {
  browserIt('forgives a request the test’s navigation left behind', async () => {
    const watched = await openWatchedPage(browser!, origin);
    const failures = failuresOf(watched);
    await watched.page.goto(`${origin}/abandon`);
    await watched.page.waitForTimeout(100);
    await watched.page.goto(`${origin}/next`);
    await expect.poll(() => failures).toEqual([`${origin}/slow net::ERR_ABORTED`]);
    expect(watched.problems).toEqual([]);
    await watched.close();
  });

  browserIt('forgives a request the page cancels itself', async () => {
    const watched = await openWatchedPage(browser!, origin);
    const failures = failuresOf(watched);
    await watched.page.goto(`${origin}/abort`);
    await expect.poll(() => failures).toEqual([`${origin}/slow net::ERR_ABORTED`]);
    expect(watched.problems).toEqual([]);
    await watched.close();
  });

  browserIt('reports a request whose connection is lost', async () => {
    const watched = await openWatchedPage(browser!, origin);
    await watched.page.goto(`${origin}/lost`);
    await expect.poll(() => watched.problems).toContain(`request failed: ${origin}/reset net::ERR_EMPTY_RESPONSE`);
    await watched.close();
  });
});
