/**
 * The README's screenshot: the offline API reference (`/docs`) of a service started on a throw-away embedded
 * PostgreSQL, in Debian's Chromium. `npx tsx scripts/docs-screenshot.ts` writes docs/images/api-reference.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchHeadlessChromium } from '../test/support/browser.js';
import { startServiceProcess } from './reliability/lib/service-process.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-screenshot-'));
const service = await startServiceProcess({
  name: 'screenshot',
  defaults: { NODE_ENV: 'development', LOG_LEVEL: 'warn' },
  env: { DATA_DIR: path.join(dataDir, 'data') },
});
const browser = await launchHeadlessChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${service.url}/docs`, { waitUntil: 'networkidle' });
  await page.getByText('List and filter customers').first().waitFor();
  await page.screenshot({ path: 'docs/images/api-reference.png' });
  process.stdout.write('docs/images/api-reference.png written\n');
} finally {
  await browser.close();
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
