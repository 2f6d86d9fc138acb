import { describe, expect, it } from 'vitest';
import type { RunMeasurement } from '../../bench/lib/measure.js';
import { medianOfRuns } from '../../bench/lib/measure.js';
import { type BenchReport, renderMarkdown } from '../../bench/lib/report.js';
import {
  type ContenderResult,
  type HttpScenarioName,
  type ResultName,
  type ScenarioResult,
  scenarioRatios,
} from '../../bench/lib/scenarios.js';

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

const contender = (name: ResultName, runs: RunMeasurement[]): ContenderResult => ({
  name,
  runs,
  median: medianOfRuns(runs),
  check: undefined,
  statementProbe: undefined,
});

function scenario(name: HttpScenarioName, contenders: ContenderResult[]): ScenarioResult {
  return { scenario: name, title: name, nodeVersion: 'v26.0.0', contenders, ratios: scenarioRatios(contenders) };
}

function report(scenarios: ScenarioResult[]): BenchReport {
  return {
    startedAt: '2026-11-26T00:00:00.000Z',
    finishedAt: '2026-11-26T00:01:00.000Z',
    elapsedSeconds: 60,
    command: 'npm run bench',
    options: { quick: false, connections: 50, runs: 5, durationSeconds: 10, warmupSeconds: 3, poolSize: 10 },
    machine: {
      cpuModel: 'test',
      cores: 2,
      memoryGiB: 4,
      os: 'test',
      kernel: 'test',
      nodeVersions: { reference: 'v26.0.0', orchestrator: 'v26.0.0' },
      gitCommit: null,
      packages: {},
    },
    database: { server: '18', embedded: true, statementCounting: 'pg_stat_statements' },
    dataset: { customers: 10, accounts: 10, sharedAccounts: 0, links: 10, nestedPopulation: 10 },
    scenarios,
    pgbench: null,
    startup: [],
    failures: [],
  } as unknown as BenchReport;
}

const targetRow = (markdown: string, start: string) =>
  markdown.split('\n').find((line) => line.startsWith(`| ${start}`));

describe('the bench`s floors in the report', () => {
  it('takes the CPU ratio as the floor`s CPU per request over the service`s, server and PostgreSQL together', () => {
    const service = contender('service', [run(5000, 200, 100), run(5000, 200, 100), run(5000, 200, 100)]);
    const floor = contender('batching-floor', [run(8000, 150, 90), run(8000, 150, 90), run(8000, 150, 90)]);
    const [ratio] = scenarioRatios([service, floor]);
    expect(ratio!.comparator).toBe('batching-floor');
    expect(ratio!.cpuRatio).toBeCloseTo(240 / 300, 6);
    expect(ratio!.cpuInterval![0]).toBeCloseTo(0.8, 6);
    expect(ratio!.ratio).toBeCloseTo(5000 / 8000, 6);
  });

  it('names the floor each target is judged against, and the one-statement floor the naive floor', () => {
    const steady = (name: ResultName, serverCpu: number) =>
      contender(name, [run(4000, serverCpu, 100), run(4000, serverCpu, 100), run(4000, serverCpu, 100)]);
    const markdown = renderMarkdown(
      report([
        scenario('rest-get-account', [steady('service', 150), steady('batching-floor', 150), steady('raw-floor', 150)]),
        scenario('rest-get-account-4-connections', [steady('service', 150), steady('raw-floor', 150)]),
        scenario('rest-transfer-uniform', [steady('service', 1000), steady('transfer-floor', 500)]),
      ]),
    );
    expect(targetRow(markdown, 'REST GET account ≥ 0.8× the batching floor by CPU')).toContain(
      '| batching floor | 1.00× (95 % 1.00–1.00) | yes |',
    );
    expect(targetRow(markdown, 'REST GET account, 4 connections ≥ 0.6× the naive floor')).toContain('| naive floor |');
    expect(targetRow(markdown, 'Transfers, uniform ≥ 0.7× the transfer floor by CPU')).toContain(
      '| transfer floor | 0.55× (95 % 0.55–0.55) | no |',
    );
    expect(markdown).toContain('| rest-get-account | v26.0.0 | naive floor |');
    expect(markdown).not.toContain('| raw-floor |');
  });

  it('counts a CPU target as met only when its interval`s lower bound meets it', () => {
    // Median CPU ratio 0.86, but two of five cycles far below: the lower bound misses 0.8.
    const service = contender(
      'service',
      [300, 300, 300, 300, 300].map((cpu) => run(4000, cpu, 0)),
    );
    const floor = contender(
      'batching-floor',
      [258, 258, 258, 150, 150].map((cpu) => run(6000, cpu, 0)),
    );
    const row = targetRow(
      renderMarkdown(report([scenario('rest-get-customer', [service, floor])])),
      'REST GET customer ≥ 0.8× the batching floor',
    );
    expect(row).toContain('0.86×');
    expect(row).toContain('| no |');
  });

  it('names where a missed target`s gap lies, from the run`s CPU per request, and names none for a met one', () => {
    const steady = (name: ResultName, serverCpu: number, postgresCpu: number) =>
      contender(
        name,
        [1, 2, 3].map(() => run(4000, serverCpu, postgresCpu)),
      );
    const markdown = renderMarkdown(
      report([
        // The service's process costs 90 µs more, PostgreSQL 10 µs more: the process.
        scenario('rest-get-account', [steady('service', 150, 40), steady('batching-floor', 60, 30)]),
        // PostgreSQL costs more than the process: PostgreSQL.
        scenario('rest-transfer-uniform', [steady('service', 400, 2000), steady('transfer-floor', 350, 1000)]),
        scenario('rest-get-customer', [steady('service', 100, 40), steady('batching-floor', 100, 40)]),
      ]),
    );
    expect(targetRow(markdown, 'REST GET account ≥ 0.8× the batching floor by CPU')).toMatch(
      /\| no \| server 150 vs 60 µs\/request, PostgreSQL 40 vs 30: the gap is in the service's process \(its per-request stack.*\|$/,
    );
    expect(targetRow(markdown, 'Transfers, uniform ≥ 0.7× the transfer floor by CPU')).toMatch(
      /\| no \| server 400 vs 350 µs\/request, PostgreSQL 2,000 vs 1,000: the gap is in PostgreSQL \|$/,
    );
    expect(targetRow(markdown, 'REST GET customer ≥ 0.8× the batching floor by CPU')).toMatch(/\| yes \| {2}\|$/);
  });

  it('judges the outbox side by side on the lower bound of its median per-run ratio, and names its cost when missed', () => {
    const sample = (creations: number, cpuPerCreation: number) => ({
      creations,
      errors: 0,
      serverCpuUs: (cpuPerCreation * creations) / 2,
      backendsCpuUs: (cpuPerCreation * creations) / 2,
    });
    // Median CPU ratio 0.92, but four of ten runs at 0.80: the lower bound misses 0.9.
    const cpuPerCreation = [2000, 2000, 2000, 2000, 2000, 2000, 2500, 2500, 2500, 2500];
    const runs = cpuPerCreation.map((withOutbox) => ({
      contenders: { service: sample(1000, withOutbox), 'no-outbox': sample(1000, 1840) },
      restOfPostgresCpuUs: 0,
    }));
    const sideBySide = {
      seconds: 4,
      runs,
      ratios: { 'no-outbox': { rps: runs.map(() => 1), cpu: cpuPerCreation.map((withOutbox) => 1840 / withOutbox) } },
    };
    const markdown = renderMarkdown({ ...report([]), outboxSideBySide: sideBySide } as BenchReport);
    expect(
      targetRow(
        markdown,
        'Create customer with the outbox ≥ 0.9× the same build without the outbox insert, loaded side by side, by req/s',
      ),
    ).toMatch(/\| 1\.00× \(95 % 1\.00–1\.00, 10 runs\) \| yes \| {2}\|$/);
    expect(
      targetRow(
        markdown,
        'Create customer with the outbox ≥ 0.9× the same build without the outbox insert, loaded side by side, by CPU',
      ),
    ).toMatch(
      /\| 0\.92× \(95 % 0\.74–0\.92, 10 runs\) \| no \| 2,000 vs 1,840 µs of CPU per creation \(server \+ its backends\): 160 µs for the outbox, .*\|$/,
    );
  });
});
