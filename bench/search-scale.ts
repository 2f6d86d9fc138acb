import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './lib/report.js';

/**
 * `npm run bench:search-scale`: issue 30's rule for finding customers at scale. The two search scenarios
 * (a list page by last-name prefix, a search by SSN) run with `npm run bench` twice, on 10,000 and then on
 * 1,000,000 customers, each side by side with the floor running the service's own search statements (the batching
 * floor, bench/comparators/service-sql-floor.ts) and the naive floor (its own leaner SQL, reported only); this
 * compares the service's CPU per request between the two sizes. Rule: at 1,000,000 at most 1.5x what it is at
 * 10,000, and at least 0.75x the same-SQL floor's throughput at both sizes. Extra arguments go to both runs (e.g. `-- --runs 5`).
 * Results: bench/results/search-scale/<customers>/ and bench/results/search-scale/latest.md.
 */

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS = ['rest-list-customers-by-name', 'rest-search-customer-by-ssn'] as const;
const SIZES = (process.env.SEARCH_SCALE_SIZES ?? '10000,1000000').split(',').map(Number);
const outRoot = path.join(repoRoot, 'bench/results/search-scale');
const extra = process.argv.slice(2);

function runAt(customers: number): BenchReport {
  const outDir = path.join(outRoot, String(customers));
  mkdirSync(outDir, { recursive: true });
  const args = [
    'tsx',
    'bench/run.ts',
    '--scenarios',
    SCENARIOS.join(','),
    '--customers',
    String(customers),
    '--accounts',
    String(customers),
    '--out',
    path.relative(repoRoot, outDir),
    ...extra,
  ];
  process.stderr.write(`[search-scale] npx ${args.join(' ')}\n`);
  const result = spawnSync('npx', args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`the bench at ${customers} customers exited with ${result.status}`);
  const newest = readdirSync(outDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .at(-1);
  if (newest === undefined) throw new Error(`no results in ${outDir}`);
  return JSON.parse(readFileSync(path.join(outDir, newest), 'utf8')) as BenchReport;
}

const reports = SIZES.map((customers) => ({ customers, report: runAt(customers) }));
const contender = (report: BenchReport, scenario: string, name: string) =>
  report.scenarios.find((s) => s.scenario === scenario)?.contenders.find((c) => c.name === name);
const cpuRuns = (report: BenchReport, scenario: string) =>
  (contender(report, scenario, 'service')?.runs ?? [])
    .map((run) => run.serverCpuUsPerRequest)
    .filter((v): v is number => v !== null);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const lines = [
  '# Finding customers at scale (issue 30)',
  '',
  `Command: \`npm run bench:search-scale${extra.length > 0 ? ` -- ${extra.join(' ')}` : ''}\`; ${reports.map(({ customers, report }) => `${customers.toLocaleString('en-US')} customers: ${report.startedAt}`).join('; ')}.`,
  '',
  '| scenario | customers | service req/s | same-SQL floor req/s | service ÷ same-SQL floor (≥ 0.75) | naive floor req/s | server CPU µs/request (median, runs) |',
  '|---|---:|---:|---:|---:|---:|---|',
];
for (const scenario of SCENARIOS) {
  for (const { customers, report } of reports) {
    const service = contender(report, scenario, 'service');
    const floor = contender(report, scenario, 'batching-floor');
    const naive = contender(report, scenario, 'raw-floor');
    const ratio = service && floor && floor.median.rps > 0 ? service.median.rps / floor.median.rps : null;
    const cpu = cpuRuns(report, scenario);
    lines.push(
      `| ${scenario} | ${customers.toLocaleString('en-US')} | ${service?.median.rps.toFixed(0) ?? '–'} | ${floor?.median.rps.toFixed(0) ?? '–'} | ${ratio?.toFixed(2) ?? '–'} | ${naive?.median.rps.toFixed(0) ?? '–'} | ${cpu.length > 0 ? `${median(cpu).toFixed(0)} (${cpu.map((v) => v.toFixed(0)).join(', ')})` : '–'} |`,
    );
  }
}
lines.push(
  '',
  '| scenario | CPU per request, largest ÷ smallest size (≤ 1.5) | range over every pair of runs |',
  '|---|---:|---|',
);
const smallest = reports[0]!;
const largest = reports.at(-1)!;
for (const scenario of SCENARIOS) {
  const small = cpuRuns(smallest.report, scenario);
  const large = cpuRuns(largest.report, scenario);
  if (small.length === 0 || large.length === 0) {
    lines.push(`| ${scenario} | not measured | |`);
    continue;
  }
  const pairs = large.flatMap((l) => small.map((s) => l / s));
  lines.push(
    `| ${scenario} | ${(median(large) / median(small)).toFixed(2)} | ${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)} |`,
  );
}
const failures = reports.flatMap(({ customers, report }) =>
  report.failures.map((failure) => `- ${customers}: ${failure}`),
);
const checks = reports.flatMap(({ customers, report }) =>
  SCENARIOS.flatMap((scenario) =>
    (['service', 'batching-floor'] as const).map(
      (name) =>
        `- ${customers.toLocaleString('en-US')}, ${scenario}, ${name}: ${contender(report, scenario, name)?.check ?? 'not checked'}`,
    ),
  ),
);
lines.push('', 'Answers checked against the floor before measuring:', ...checks);
if (failures.length > 0) lines.push('', 'Failures:', ...failures);
writeFileSync(path.join(outRoot, 'latest.md'), `${lines.join('\n')}\n`);
process.stdout.write(`${lines.join('\n')}\n`);
