import { fileURLToPath } from 'node:url';
import { renderBenchTables } from './lib/results-tables.js';

/**
 * `npm run bench:tables`: renders bench/results/latest.md and the figures of docs/performance.md from the stored
 * full run's JSON and the history, without measuring anything. `npm run check:generated` runs it to prove the
 * tables match the files.
 */
for (const line of renderBenchTables(fileURLToPath(new URL('..', import.meta.url))))
  process.stderr.write(`[bench:tables] ${line}\n`);
