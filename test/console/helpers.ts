import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { hasChromium, launchHeadlessChromium } from '../support/browser.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/service.js';

/** axe-core's browser build, evaluated through the debugger protocol so the page's own CSP stays in force. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Script errors, console errors, CSP refusals, failed loads and 5xx answers seen so far. */
  problems: string[];
  /** Requests to anything but the service's origin. */
  offsite: string[];
  /** Resolves once no HTTP request of the page has been in flight for a moment (a WebSocket is not a request). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh tab (its own sessionStorage) that records what must never happen. 4xx answers are not problems by
 * themselves: a refused token is part of the flows and the page shows it.
 */
export async function openWatchedPage(browser: Browser, origin: string): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Playwright's 30 s per wait decided tests on a busy machine; a wait for what the page shows only stops a hung test.
  context.setDefaultTimeout(HUNG_TEST_DEADLINE_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  const offsite: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    )
      problems.push(`console: ${message.text()} at ${JSON.stringify(message.location())}`);
  });
  // ERR_ABORTED on a fetch is a cancellation, not a failure anyone sees: the test navigated the tab elsewhere, or
  // the console dropped a query whose view is gone (Apollo Client aborts a query when its last watcher unmounts: a
  // route change, signing out). A view that lost a query it needs shows it, and the tests read the view. Any other
  // failure (refused, reset, blocked by CSP) is a problem, and so is an aborted navigation.
  page.on('requestfailed', (request) => {
    const errorText = request.failure()?.errorText ?? '';
    if (errorText === 'net::ERR_ABORTED' && !request.isNavigationRequest()) return;
    problems.push(`request failed: ${request.url()} ${errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`${response.status()} from ${response.url()}`);
  });
  const inFlight = new Set<Request>();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) offsite.push(url);
    inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  // Leaving a page before its queries answered would abort them (ERR_ABORTED): a test's navigation, not the console's fault.
  const settled = async () => {
    for (let quiet = 0; quiet < 3;) {
      await page.waitForTimeout(50);
      quiet = inFlight.size === 0 ? quiet + 1 : 0;
    }
  };
  return { page, context, problems, offsite, settled, close: () => context.close() };
}

export async function signIn(page: Page, token: string, environment = 'sandbox'): Promise<void> {
  await page.getByLabel('Environment').selectOption(environment);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Runs axe-core on the page as it is now; answers the serious and critical violations, described. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  // A string, evaluated in the page (this project's TypeScript has no DOM types).
  const violations = await page.evaluate(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    if (result.passes.length === 0) throw new Error('axe-core checked nothing');
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 3) }));
  })()`);
  return (violations as { id: string; impact: string; targets: string[] }[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.targets.join(', ')}`);
}

export async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await seriousAccessibilityViolations(page), where).toEqual([]);
}

/**
 * Inside a describe: `open()` a watched page on `origin` (closed after each test), and `expectClean()` that it saw no
 * browser error and no request to another origin. Getters, because the browser and the service start in beforeAll.
 */
export function watchedPages(
  browser: () => Browser,
  origin: () => string,
): { open: () => Promise<WatchedPage>; expectClean: () => void } {
  let watched: WatchedPage | undefined;
  afterEach(async () => {
    await watched?.close();
    watched = undefined;
  });
  return {
    open: async () => {
      watched = await openWatchedPage(browser(), origin());
      return watched;
    },
    expectClean: () => {
      expect(watched!.problems).toEqual([]);
      expect(watched!.offsite).toEqual([]);
    },
  };
}

export interface ConsoleSuite {
  /** The live service; read it in a hook or a test (it starts in beforeAll). */
  readonly service: TestService;
  /** `it` where Chromium is installed, `it.skip` elsewhere. */
  readonly browserIt: typeof it | typeof it.skip;
  /** watchedPages() on the suite's browser and service: inside a describe. */
  watchedPages(): ReturnType<typeof watchedPages>;
  /** Goes to `path` of the service (`/console/…`) and signs in there: with the service's own token unless told. */
  signInAt(page: Page, path: string, token?: string): Promise<void>;
}

/**
 * One console test file's live service and headless Chromium (where installed), started in beforeAll and stopped
 * after the file's last test. Call it at the top of the file, before the file's own beforeAll: vitest runs beforeAll
 * hooks in the order they are registered, so that one can write its records through `suite.service`. `env`: the
 * service's configuration beyond the test defaults.
 */
export function consoleSuite(env: Record<string, string> = {}): ConsoleSuite {
  let service: TestService | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    service = await startTestService(env);
    if (hasChromium()) browser = await launchHeadlessChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });
  const started = () => {
    if (!service) throw new Error('The console suite has not started: read its service in a hook or a test');
    return service;
  };
  return {
    get service() {
      return started();
    },
    browserIt: hasChromium() ? it : it.skip,
    watchedPages: () =>
      watchedPages(
        () => browser!,
        () => started().url,
      ),
    signInAt: async (page, path, token = started().token) => {
      await page.goto(`${started().url}${path}`);
      await signIn(page, token);
    },
  };
}
