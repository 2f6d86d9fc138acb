import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DataGrowthReport } from './growth-report.js';
import { type BenchReport, renderMarkdown } from './report.js';

/** The stored full run's files: its JSON (`<start time>.json`; quick- and partial- runs are others) and latest.md. */
const FULL_RUN_JSON = /^\d{4}-\d{2}-\d{2}T[\d-]+Z\.json$/;
const TABLE_START = '<!-- bench-results:start -->';
const TABLE_END = '<!-- bench-results:end -->';
/** The page whose "Latest results" carry the table between the markers (the README links to it). */
const TABLE_PAGE = 'docs/performance.md';
/** `npm run bench:data-growth`'s runs (`<start time>.json`), summarised in every report. */
const DATA_GROWTH_DIR = 'bench/results/data-growth';

/** The newest stored data-growth run, or null when there is none. */
export function newestDataGrowth(repoRoot: string): DataGrowthReport | null {
  const dir = path.join(repoRoot, DATA_GROWTH_DIR);
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => FULL_RUN_JSON.test(file)).sort();
  } catch {
    return null;
  }
  const newest = files.at(-1);
  return newest === undefined ? null : (JSON.parse(readFileSync(path.join(dir, newest), 'utf8')) as DataGrowthReport);
}

/**
 * Writes the latest full run's tables from its JSON alone: `<outDir>/latest.md` and docs/performance.md's
 * "Latest results" between its markers. bench/run.ts calls it after a full run; `npm run bench:tables` (and so
 * `npm run check:generated`) calls it to prove the committed tables are the stored JSON's. Answers what it
 * did, one line a file.
 */
export function renderBenchTables(repoRoot: string, outDir = path.join(repoRoot, 'bench/results')): string[] {
  const runs = readdirSync(outDir).filter((file) => FULL_RUN_JSON.test(file)).sort();
  const latest = runs.at(-1);
  if (latest === undefined) return [`no full run in ${path.relative(repoRoot, outDir)}: nothing rendered`];
  const report = JSON.parse(readFileSync(path.join(outDir, latest), 'utf8')) as BenchReport;
  const markdown = renderMarkdown(report, { dataGrowth: newestDataGrowth(repoRoot) });
  writeFileSync(path.join(outDir, 'latest.md'), markdown);
  const done = [`${path.relative(repoRoot, path.join(outDir, 'latest.md'))} from ${latest}`];

  const page = path.join(repoRoot, TABLE_PAGE);
  const text = readFileSync(page, 'utf8');
  const from = text.indexOf(TABLE_START);
  const to = text.indexOf(TABLE_END);
  if (from < 0 || to < from) return [...done, `${TABLE_PAGE} has no bench-results markers: table not updated`];
  const body = pageSections(markdown.replace(/^## Benchmark .*\n/, 'Latest full run (`bench/results/latest.md`):\n'));
  writeFileSync(page, `${text.slice(0, from + TABLE_START.length)}\n${body.trim()}\n${text.slice(to)}`);
  return [...done, `${TABLE_PAGE} performance table updated`];
}

/** Sections of the report left to bench/results/latest.md, so the page stays readable (and under 60 KB). */
const LATEST_MD_ONLY = ['### SQL statements', '### Open-loop latency'];

/** The report without the sections LATEST_MD_ONLY names, and a line saying where they are. */
function pageSections(markdown: string): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('### ')) skipping = LATEST_MD_ONLY.some((prefix) => line.startsWith(prefix));
    if (!skipping) kept.push(line);
  }
  return `${kept.join('\n').trim()}\n\nIn \`bench/results/latest.md\` only: the SQL statements per request and per transfer, and the open-loop latency tables.\n`;
}
