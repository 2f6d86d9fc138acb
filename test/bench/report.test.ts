import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headlineOf, type HistoryLine, renderPerformanceFigures } from '../../bench/lib/headline.js';
import { medianOfRuns, type RunMeasurement } from '../../bench/lib/measure.js';
import type { MixedWorkloadResult } from '../../bench/lib/mixed-workload.js';
import type { OpenLoopStep } from '../../bench/lib/open-loop.js';
import {
  type BenchReport,
  evaluateTargets,
  mixedWorkloadRows,
  regressionRows,
  renderMarkdown,
} from '../../bench/lib/report.js';
import {
  FIGURES_END,
  FIGURES_START,
  newestDataGrowth,
  PERFORMANCE_PAGE,
  storedResults,
  withFigures,
} from '../../bench/lib/results-tables.js';
import { type ContenderResult, type ScenarioResult, scenarioRatios } from '../../bench/lib/scenarios.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const run = (rps: number, serverCpu: number, postgresCpu: number): RunMeasurement => ({
  rps,
  p50Ms: 1,
  p90Ms: 2,
  p99Ms: 3,
  responses: rps * 10,
  errors: 0,
  serverCpuUsPerRequest: serverCpu,
  postgresCpuUsPerRequest: postgresCpu,
  statementsPerOperation: 1,
  peakRssMb: 100,
  statusCodes: { '200': rps * 10 },
  sampleError: undefined,
});

const contender = (name: string, runs: RunMeasurement[]): ContenderResult => ({
  name,
  runs,
  median: medianOfRuns(runs),
  check: undefined,
  statementProbe: undefined,
});

const scenario = (name: string, contenders: ContenderResult[]): ScenarioResult =>
  ({
    scenario: name,
    title: name,
    nodeVersion: 'v26.0.0',
    contenders,
    ratios: scenarioRatios(contenders),
  }) as ScenarioResult;

const report = (scenarios: ScenarioResult[]): BenchReport =>
  ({
    startedAt: '2026-12-02T00:00:00.000Z',
    finishedAt: '2026-12-02T00:01:00.000Z',
    elapsedSeconds: 60,
    command: 'npm run bench',
    options: { quick: false, connections: 50, runs: 5, durationSeconds: 10, warmupSeconds: 3, poolSize: 10 },
    machine: { cpuModel: 't', cores: 2, memoryGiB: 4, os: 't', kernel: 't', nodeVersions: { reference: 'v26.0.0' } },
    database: { server: '18', embedded: true, statementCounting: 'pg_stat_statements' },
    dataset: { customers: 10, accounts: 10, sharedAccounts: 0, links: 10, nestedPopulation: 10 },
    scenarios,
    startup: [],
    failures: [],
  }) as unknown as BenchReport;

const searchTarget = (rows: ReturnType<typeof evaluateTargets>) =>
  rows.find((row) => row.target.startsWith('Customer search by SSN'))!;

describe('the bench report`s targets', () => {
  it('judges a floor ratio on the lower bound of the per-cycle t interval', () => {
    const service = contender('service', [run(800, 1, 1), run(820, 1, 1), run(790, 1, 1), run(810, 1, 1)]);
    const floor = contender('batching-floor', [run(1000, 1, 1), run(1000, 1, 1), run(1000, 1, 1), run(1000, 1, 1)]);
    const met = searchTarget(evaluateTargets(report([scenario('rest-search-customer-by-ssn', [service, floor])])));
    expect(met.met).toBe(true);
    const slow = contender('service', [run(700, 1, 1), run(760, 1, 1), run(740, 1, 1), run(720, 1, 1)]);
    const missed = searchTarget(evaluateTargets(report([scenario('rest-search-customer-by-ssn', [slow, floor])])));
    expect(missed.met).toBe(false);
  });

  it('flags a contender whose capacity moved more than 2x within the run, and does not judge against it', () => {
    const service = contender('service', [run(800, 1, 1), run(820, 1, 1), run(790, 1, 1), run(810, 1, 1)]);
    const swinging = contender('batching-floor', [run(300, 1, 1), run(1000, 1, 1), run(1500, 1, 1), run(900, 1, 1)]);
    const stored = report([scenario('rest-search-customer-by-ssn', [service, swinging])]);
    const row = searchTarget(evaluateTargets(stored));
    expect(row.met).toBeNull();
    expect(row.note).toMatch(/varied more than 2×/);
    expect(renderMarkdown(stored)).toMatch(
      /\*\*Unstable capacity\*\*.*batching floor in rest-search-customer-by-ssn: 5\.0×/,
    );
  });

  it('judges the overhead budget at 4 connections on the per-cycle differences: met, inside the noise, missed', () => {
    const floor = contender('batching-floor', [
      run(1000, 100, 50),
      run(1000, 102, 50),
      run(1000, 98, 50),
      run(1000, 100, 50),
    ]);
    const within = contender('service', [run(900, 200, 50), run(900, 206, 50), run(900, 196, 50), run(900, 202, 50)]);
    const overhead = (rows: ReturnType<typeof evaluateTargets>) =>
      rows.find((row) => row.target.startsWith('Overhead budget, GET customer'))!;
    const met = overhead(evaluateTargets(report([scenario('rest-get-customer-4', [within, floor])])));
    expect(met.measured).toMatch(/^101 µs \(9\d–10\d\), 4 cycles$/);
    expect(met.met).toBe(true);
    // A mean under the budget whose interval reaches past it is not decided: inside the noise, and said so.
    const noisy = contender('service', [run(900, 150, 50), run(900, 260, 50), run(900, 170, 50), run(900, 240, 50)]);
    const unsure = overhead(evaluateTargets(report([scenario('rest-get-customer-4', [noisy, floor])])));
    expect(unsure.met).toBeNull();
    expect(unsure.note).toMatch(/^inside the noise: .*server 205 vs 100 µs\/request/);
    const over = contender('service', [run(900, 250, 50), run(900, 256, 50), run(900, 246, 50), run(900, 252, 50)]);
    expect(overhead(evaluateTargets(report([scenario('rest-get-customer-4', [over, floor])]))).met).toBe(false);
    const unmeasured = overhead(evaluateTargets(report([])));
    expect(unmeasured).toMatchObject({ measured: 'not measured', met: null });
  });

  it("judges PostgreSQL's CPU and statements per request against 1.05x the floor's: met only when both whole intervals are within it", () => {
    const withStatements = (measurement: RunMeasurement, statements: number) => ({
      ...measurement,
      statementsPerOperation: statements,
    });
    const floor = contender('transfer-floor', [
      run(500, 600, 2000),
      run(500, 600, 2020),
      run(500, 600, 1980),
      run(500, 600, 2000),
    ]);
    const postgresWork = (rows: ReturnType<typeof evaluateTargets>) =>
      rows.find((row) => row.target.startsWith("PostgreSQL's work per request, Transfer, uniform"))!;
    const same = contender('service', [
      run(450, 1200, 2010),
      run(450, 1200, 2000),
      run(450, 1200, 2030),
      run(450, 1200, 1990),
    ]);
    expect(postgresWork(evaluateTargets(report([scenario('rest-transfer-uniform', [same, floor])])))).toMatchObject({
      met: true,
    });
    const dearer = contender('service', [
      run(450, 1200, 2300),
      run(450, 1200, 2280),
      run(450, 1200, 2320),
      run(450, 1200, 2310),
    ]);
    const missed = postgresWork(evaluateTargets(report([scenario('rest-transfer-uniform', [dearer, floor])])));
    expect(missed.met).toBe(false);
    expect(missed.note).toMatch(/PostgreSQL 2,305 vs 2,000 µs\/request/);
    const moreStatements = contender(
      'service',
      [run(450, 1200, 2000), run(450, 1200, 2000), run(450, 1200, 2000), run(450, 1200, 2000)].map((r) =>
        withStatements(r, 1.2),
      ),
    );
    const chatty = postgresWork(evaluateTargets(report([scenario('rest-transfer-uniform', [moreStatements, floor])])));
    expect(chatty.measured).toMatch(/statements 1\.20×/);
    expect(chatty.met).toBe(false);
  });

  it('reports a build whose whole interval is more than 3 % slower than the --against baseline as a regression', () => {
    const baseline = contender('baseline', [
      run(1000, 200, 50),
      run(1010, 200, 50),
      run(990, 200, 50),
      run(1000, 200, 50),
    ]);
    const same = contender('service', [run(1002, 201, 50), run(998, 199, 50), run(1001, 200, 50), run(999, 200, 50)]);
    const slower = contender('service', [run(940, 215, 50), run(950, 214, 50), run(935, 216, 50), run(945, 215, 50)]);
    const against = (service: ContenderResult) => {
      const stored = report([scenario('rest-get-customer-4', [service, baseline])]);
      stored.baseline = { ref: 'main', commit: '0123456789abcdef' };
      return { rows: regressionRows(stored), markdown: renderMarkdown(stored) };
    };
    expect(against(same).rows).toMatchObject([{ regression: false }]);
    // Unchanged on average but noisy: the interval reaches past 3 % either way, so the run does not decide.
    const noisy = contender('service', [run(1100, 185, 50), run(900, 220, 50), run(1080, 190, 50), run(930, 214, 50)]);
    expect(against(noisy).rows).toMatchObject([{ regression: null }]);
    const regressed = against(slower);
    expect(regressed.rows).toMatchObject([{ regression: true }]);
    expect(regressed.markdown).toMatch(/### Against main \(01234567\)/);
    expect(regressed.markdown).toMatch(/\| rest-get-customer-4 \| 0\.94× .*\| \*\*regression\*\* \|/);
    // Without a baseline there is nothing to compare: no section.
    expect(renderMarkdown(report([scenario('rest-get-customer-4', [same])]))).not.toMatch(/### Against/);
  });

  it('shows only the scenarios and contenders the benchmark still runs', () => {
    const service = contender('service', [run(800, 1, 1), run(800, 1, 1), run(800, 1, 1)]);
    const retired = contender('express-prisma', [run(200, 1, 1), run(200, 1, 1), run(200, 1, 1)]);
    const markdown = renderMarkdown(report([scenario('rest-get-customer', [service, retired])]));
    expect(markdown).not.toMatch(/\| express-prisma \|/);
    expect(markdown).toMatch(/1 rows of this run's JSON/);
  });
});

describe('the headline of a figure', () => {
  const line = (startedAt: string, service: number[], floor: number[], command = 'npm run bench'): HistoryLine => ({
    startedAt,
    command,
    commit: 'abc1234',
    scenarios: [
      {
        scenario: 'rest-search-customer-by-ssn',
        contenders: [
          { name: 'service', rps: service, serverCpuUsPerRequest: service.map(() => 1) },
          { name: 'batching-floor', rps: floor, serverCpuUsPerRequest: floor.map(() => 1) },
        ],
      },
    ],
  });
  const target = { scenario: 'rest-search-customer-by-ssn', comparator: 'batching-floor', by: 'rps' } as const;

  it('needs three runs at least an hour apart, leaving out smoke runs and runs back to back', () => {
    const history = [
      line('2026-12-01T10:00:00Z', [800, 800], [1000, 1000]),
      line('2026-12-01T10:30:00Z', [900, 900], [1000, 1000]),
      line('2026-12-01T12:00:00Z', [700, 700], [1000, 1000], 'npm run bench -- --quick'),
      line('2026-12-01T13:00:00Z', [750, 750], [1000, 1000]),
    ];
    expect(headlineOf(history, target).figure).toBeNull();
    const figure = headlineOf([...history, line('2026-12-01T15:00:00Z', [850, 850], [1000, 1000])], target).figure!;
    // The newest first: 15:00, 13:00, then 10:30 (10:00 is within the hour before it).
    expect(figure.ratio).toBeCloseTo(0.85, 6);
    expect(figure.range[0]).toBeCloseTo(0.75, 6);
    expect(figure.range[1]).toBeCloseTo(0.9, 6);
  });

  it('is what docs/performance.md shows between its markers, rendered from bench/results', () => {
    const stored = storedResults(repoRoot)!;
    const page = readFileSync(`${repoRoot}/${PERFORMANCE_PAGE}`, 'utf8');
    expect(page).toContain(FIGURES_START);
    expect(page).toContain(FIGURES_END);
    expect(withFigures(page, renderPerformanceFigures(stored.report, stored.history))).toBe(page);
    expect(readFileSync(`${repoRoot}/bench/results/latest.md`, 'utf8')).toBe(
      renderMarkdown(stored.report, { dataGrowth: newestDataGrowth(repoRoot) }),
    );
  });

  describe('the mixed REST workload at a fixed load', () => {
    const step = (
      contender: 'service' | 'batching-floor',
      p99: number,
      server: number,
      postgres: number,
    ): OpenLoopStep => ({
      contender,
      mode: 'open',
      connections: 50,
      offeredRate: 400,
      fraction: 0.7,
      achievedRate: 400,
      sent: 4000,
      responses: 4000,
      errors: 0,
      latencyMs: { mean: 3, p50: 2, p90: 5, p99, p999: p99 * 2, max: p99 * 3 },
      sendLagMs: null,
      serverCpuUsPerRequest: server,
      postgresCpuUsPerRequest: postgres,
      generatorCpuUsPerRequest: 50,
      generatorCpuShare: 0.1,
      histogram: '',
      sampleError: undefined,
    });
    const mixed = (cycles: [OpenLoopStep, OpenLoopStep][]): MixedWorkloadResult => ({
      mix: 'test',
      capacity: [
        { contender: 'service', rps: 600 },
        { contender: 'batching-floor', rps: 900 },
      ],
      offeredRate: 400,
      cycles: cycles.map(([service, floor]) => ({ service, floor })),
      ledgerCheck: 'ledger sound',
    });

    it('meets the CPU target on the lower bound and the p99 ceiling on the whole interval, and names the CPU-seconds per million requests', () => {
      const [cpu, p99] = mixedWorkloadRows(
        mixed([
          [step('service', 12, 1000, 1000), step('batching-floor', 10, 600, 1000)],
          [step('service', 12.5, 1010, 990), step('batching-floor', 10, 600, 1010)],
          [step('service', 11.5, 990, 1010), step('batching-floor', 10, 600, 990)],
          [step('service', 12, 1000, 1000), step('batching-floor', 10, 600, 1000)],
        ]),
      );
      expect(cpu!.measured).toMatch(/^0\.80× \(0\.7\d–0\.8\d\), 4 cycles at 400 req\/s$/);
      expect(cpu!.met).toBe(true);
      expect(cpu!.note).toMatch(/^CPU-seconds per million requests: 2,000 vs 1,600 \(medians; server 1,000 vs 600/);
      expect(p99!.met).toBe(true);
      expect(p99!.measured).toMatch(/^1\.20×/);
    });

    it('misses the CPU target on a lower bound under 0.75x and the p99 ceiling when the whole interval is above 1.5x', () => {
      const cycles: [OpenLoopStep, OpenLoopStep][] = [1, 2, 3, 4].map((i) => [
        step('service', 30 + i, 1400 + i * 10, 1000),
        step('batching-floor', 10, 600, 1000),
      ]);
      const [cpu, p99] = mixedWorkloadRows(mixed(cycles));
      expect(cpu!.met).toBe(false);
      expect(p99!.met).toBe(false);
    });

    it('does not judge a run with errors or a contender behind the offered rate, nor a run that did not happen', () => {
      const behind = { ...step('batching-floor', 10, 600, 1000), achievedRate: 300 };
      const rows = mixedWorkloadRows(
        mixed([
          [step('service', 12, 1000, 1000), behind],
          [step('service', 12, 1000, 1000), step('batching-floor', 10, 600, 1000)],
          [{ ...step('service', 12, 1000, 1000), errors: 3 }, step('batching-floor', 10, 600, 1000)],
        ]),
      );
      for (const row of rows) expect(row).toMatchObject({ met: null, note: expect.stringMatching(/^not judged/) });
      for (const row of mixedWorkloadRows(undefined))
        expect(row).toMatchObject({ measured: 'not measured', met: null });
    });

    it("does not judge a run in which a contender's update is not the service's", () => {
      const steady: [OpenLoopStep, OpenLoopStep][] = [1, 2, 3].map(() => [
        step('service', 12, 1000, 1000),
        step('batching-floor', 10, 600, 1000),
      ]);
      const checked = ['updated: 200, the answer is the service read after it', 'updated: 200, the same'];
      expect(mixedWorkloadRows({ ...mixed(steady), updateChecks: checked })[0]!.met).toBe(true);
      const unlike = {
        ...mixed(steady),
        updateChecks: [checked[0]!, 'batching-floor: the update wrote 0 audit events'],
      };
      for (const row of mixedWorkloadRows(unlike))
        expect(row).toMatchObject({ met: null, note: expect.stringMatching(/^not judged/) });
    });
  });

  it("reports each auth path's cache on beside off: req/s, and the CPU a request saves", () => {
    const auth = scenario('rest-get-account-auth-4', [
      contender('managed-cached', [run(1500, 450, 150), run(1480, 460, 150), run(1520, 440, 150)]),
      contender('managed-uncached', [run(600, 1050, 450), run(620, 1060, 460), run(610, 1040, 440)]),
      contender('jwt-cached', [run(1500, 440, 150), run(1500, 440, 150), run(1500, 440, 150)]),
      contender('jwt-uncached', [run(1150, 640, 150), run(1150, 640, 150), run(1150, 640, 150)]),
    ]);
    const rows = evaluateTargets(report([auth])).filter((row) => row.target.startsWith('Auth cache'));
    expect(rows.map((row) => row.target)).toEqual([
      'Auth cache on vs off, managed token, GET account at 4 connections (reported)',
      'Auth cache on vs off, JWT, GET account at 4 connections (reported)',
    ]);
    expect(rows[0]!.measured).toMatch(
      /^req\/s 2\.4\d× \(.*\); saved per request: server CPU 600 µs \(.*\), PostgreSQL CPU 300 µs/,
    );
    expect(rows[1]!.measured).toMatch(/^req\/s 1\.30×.*server CPU 200 µs.*PostgreSQL CPU 0 µs/);
    for (const row of rows) expect(row.met).toBeNull();
  });
});
