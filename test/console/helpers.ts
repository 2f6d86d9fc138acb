import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe-core's browser build, evaluated through the debugger protocol so the page's own CSP stays in force. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Script errors, console errors, CSP refusals, failed loads and 5xx answers seen so far. */
  problems: string[];
  /** Requests to anything but the service's origin. */
  offsite: string[];
  close(): Promise<void>;
}

/**
 * A fresh tab (its own sessionStorage) that records what must never happen. 4xx answers are not problems by
 * themselves: a refused token is part of the flows and the page shows it.
 */
export async function openWatchedPage(browser: Browser, origin: string): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const offsite: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) problems.push(`console: ${message.text()} at ${JSON.stringify(message.location())}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`${response.status()} from ${response.url()}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) offsite.push(url);
  });
  return { page, context, problems, offsite, close: () => context.close() };
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
