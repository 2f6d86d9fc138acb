import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compareSettings, type SettingResult } from './lib/compare-settings.js';

/**
 * `npx tsx bench/compare-settings.ts [--baseline LABEL] results.json…`: compares the service under different
 * settings measured in separate `npm run bench` invocations, alternated in time (bench/lib/compare-settings.ts
 * says how each cycle is read).
 */

const { values, positionals } = parseArgs({ allowPositionals: true, options: { baseline: { type: 'string' } } });
if (positionals.length === 0) {
  process.stdout.write('npx tsx bench/compare-settings.ts [--baseline LABEL] results.json…\n');
  process.exit(2);
}
const results = positionals.map((file) => JSON.parse(readFileSync(file, 'utf8')) as SettingResult);
process.stdout.write(compareSettings(results, values.baseline));
