import { renderTables } from './lib/results.js';

/**
 * `npm run reliability:tables`: renders the reliability tables (docs/results/reliability.md) from
 * docs/reliability-results.json alone. `npm run check:generated` runs it to prove the tables match the file.
 */
renderTables();
