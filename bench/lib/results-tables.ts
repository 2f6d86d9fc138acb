import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DataGrowthReport } from './growth-report.js';
import { type BenchReport, renderMarkdown } from './report.js';

/** The stored full run's files: its JSON (`<start time>.json`; quick- and partial- runs are others) and latest.md. */
const FULL_RUN_JSON = /^\d{4}-\d{2}-\d{2}T[\d-]+Z\.json$/;
/** `npm run bench:data-growth`'s runs (`<start time>.json`), summarised in every report. */
const DATA_GROWTH_DIR = 'bench/results/data-growth';

/** The newest stored data-growth run, or null when there is none. */
export function newestDataGrowth(repoRoot: string): DataGrowthReport | null {
  const dir = path.join(repoRoot, DATA_GROWTH_DIR);
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => FULL_RUN_JSON.test(file))
      .sort();
  } catch {
    return null;
  }
  const newest = files.at(-1);
  return newest === undefined ? null : (JSON.parse(readFileSync(path.join(dir, newest), 'utf8')) as DataGrowthReport);
}

/**
 * Writes the latest full run's tables from its JSON alone: `<outDir>/latest.md`, which docs/performance.md links
 * (the page keeps the method and the decisions, the figures stay in the results). bench/run.ts calls it after a
 * full run; `npm run bench:tables` (and so `npm run check:generated`) calls it to prove the committed tables are
 * the stored JSON's. Answers what it did, one line a file.
 */
export function renderBenchTables(repoRoot: string, outDir = path.join(repoRoot, 'bench/results')): string[] {
  const runs = readdirSync(outDir)
    .filter((file) => FULL_RUN_JSON.test(file))
    .sort();
  const latest = runs.at(-1);
  if (latest === undefined) return [`no full run in ${path.relative(repoRoot, outDir)}: nothing rendered`];
  const report = JSON.parse(readFileSync(path.join(outDir, latest), 'utf8')) as BenchReport;
  const markdown = renderMarkdown(report, { dataGrowth: newestDataGrowth(repoRoot) });
  writeFileSync(path.join(outDir, 'latest.md'), markdown);
  return [`${path.relative(repoRoot, path.join(outDir, 'latest.md'))} from ${latest}`];
}
