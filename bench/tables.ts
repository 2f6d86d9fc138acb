import { fileURLToPath } from 'node:url';
import { renderBenchTables } from './lib/results-tables.js';

/**
 * `npm run bench:tables`: renders bench/results/latest.md (linked from docs/performance.md) from the stored
 * full run's JSON alone, without measuring anything. `npm run check:generated` runs it to prove the tables
 * match the file.
 */
for (const line of renderBenchTables(fileURLToPath(new URL('..', import.meta.url))))
  process.stderr.write(`[bench:tables] ${line}\n`);
