import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LatencySummaryMs, OpenLoopOutcome, OpenLoopSpec } from '../load/open-loop-protocol.js';
import type { LoadKind } from '../load/requests.js';
import { processCpuMicros, processTreeCpuMicros } from '../../scripts/lib/proc.js';
import type { Pinning } from './pinning.js';
import {
  type ContenderName,
  startBatchingFloor,
  startPostGraphile,
  startService,
  startTransferFloor,
} from './contenders.js';
import type { BenchContext } from './context.js';
import { nodeMajor, nodeVersion, type RunningServer, runToCompletion } from './processes.js';
import { BENCH_ENVIRONMENT } from './seed.js';
import { childEnvironment } from '../../scripts/lib/child-environment.js';
import { type MixedWorkloadResult, runMixedWorkload } from './mixed-workload.js';
import { totalCpuUsPerRequest } from './scenarios.js';

/**
 * Issue 34 item 4: latency at fixed offered rates (open loop, no coordinated omission), beside closed-loop figures
 * at 1 and 4 connections where batching cannot help. Per scenario: the service's closed-loop capacity at
 * --connections, then every contender at 1 and 4 connections closed loop, then at 25, 50, 75 and 90 % of that
 * capacity offered on a constant schedule (the same rate for every contender). The generator
 * (bench/load/open-loop-worker.ts) runs on core 0, the servers and PostgreSQL on core 1 when `taskset` and two
 * cores are there.
 */

/** Fractions of the service's measured closed-loop capacity offered in the open-loop steps. */
export const OPEN_LOOP_FRACTIONS = [0.25, 0.5, 0.75, 0.9] as const;
/** Closed-loop connection counts where batching cannot help. */
export const CLOSED_LOOP_CONNECTIONS = [1, 4] as const;
/** A request unanswered this long counts as an error, at this latency. */
const TIMEOUT_MS = 10_000;
interface OpenLoopScenarioDefinition {
  scenario: string;
  title: string;
  /** The service first, then the comparators at the same offered rates. */
  contenders: { name: ContenderName; kind: LoadKind }[];
  /** For the report: a missing comparator, a changed setting. */
  note?: string;
}

export const OPEN_LOOP_SCENARIOS: OpenLoopScenarioDefinition[] = [
  {
    scenario: 'rest-get-account',
    title: 'REST GET /{env}/account/{id}',
    contenders: [
      { name: 'service', kind: 'rest-get-account' },
      { name: 'batching-floor', kind: 'rest-get-account' },
    ],
  },
  {
    scenario: 'rest-post-customer',
    title: 'REST POST /{env}/customer',
    contenders: [
      { name: 'service', kind: 'rest-post-customer' },
      { name: 'batching-floor', kind: 'rest-post-customer' },
    ],
  },
  {
    scenario: 'rest-transfer-uniform',
    title: 'REST POST /{env}/transfer, random pairs, Idempotency-Key',
    contenders: [
      { name: 'service', kind: 'rest-transfer-uniform' },
      { name: 'transfer-floor', kind: 'rest-transfer-uniform' },
    ],
  },
  {
    scenario: 'graphql-nested',
    title: 'GraphQL customer { accounts { customers } }',
    contenders: [
      { name: 'service', kind: 'graphql-nested' },
      { name: 'postgraphile', kind: 'postgraphile-nested' },
    ],
  },
];

export interface OpenLoopStep {
  contender: ContenderName;
  mode: 'closed' | 'open';
  connections: number;
  /** Open loop: requests per second offered, and which fraction of the service's capacity that is. */
  offeredRate: number | null;
  fraction: number | null;
  /** Successful answers per second over the step (first send to last answer). */
  achievedRate: number;
  sent: number;
  responses: number;
  errors: number;
  latencyMs: LatencySummaryMs;
  sendLagMs: { p99: number; max: number } | null;
  serverCpuUsPerRequest: number | null;
  postgresCpuUsPerRequest: number | null;
  generatorCpuUsPerRequest: number | null;
  /** The generator's CPU over the step as a share of one core (1 = a whole core). */
  generatorCpuShare: number;
  histogram: string;
  sampleError: string | undefined;
}

export interface OpenLoopScenarioResult {
  scenario: string;
  title: string;
  /** The service's successful req/s, closed loop at `connections`: what the fractions are of. */
  serviceCapacity: number;
  capacity: { contender: ContenderName; rps: number; p99Ms: number }[];
  steps: OpenLoopStep[];
  note?: string;
}

export interface OpenLoopResult {
  nodeVersion: string;
  durationSeconds: number;
  connections: number;
  /** Where the generator, the servers and PostgreSQL ran, or why they were not pinned. */
  pinning: string;
  scenarios: OpenLoopScenarioResult[];
  /** The mixed REST workload at 70 % of the slower contender's capacity (bench/lib/mixed-workload.ts). */
  mixed?: MixedWorkloadResult;
  failures: string[];
}

// ---- one step ------------------------------------------------------------------------------------------------

let specCounter = 0;

export async function runStep(
  ctx: BenchContext,
  pinning: Pinning,
  server: RunningServer,
  contender: ContenderName,
  kind: LoadKind,
  load: { connections: number; rate?: number; fraction?: number; seconds: number },
): Promise<OpenLoopStep> {
  const spec: OpenLoopSpec = {
    baseUrl: server.baseUrl,
    kind,
    environment: BENCH_ENVIRONMENT,
    token: ctx.token,
    idsFile: ctx.idsFile,
    ssnSequenceStart: ctx.nextSsnSequence,
    durationSeconds: load.seconds,
    connections: load.connections,
    timeoutMs: TIMEOUT_MS,
    ...(load.rate !== undefined && { rate: load.rate }),
  };
  const specFile = path.join(ctx.workDir, `open-loop-${++specCounter}.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const serverCpuBefore = processCpuMicros(server.pid);
  const postgresCpuBefore = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
  const [command, ...prefix] = [...pinning.generatorPrefix, ctx.referenceNode];
  const stdout = await runToCompletion(
    command!,
    [...prefix, '--import', 'tsx', 'bench/load/open-loop-worker.ts', specFile],
    {
      cwd: ctx.repoRoot,
      env: childEnvironment({ NODE_ENV: 'production' }),
    },
  );
  const serverCpuAfter = processCpuMicros(server.pid);
  const postgresCpuAfter = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
  const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as OpenLoopOutcome;
  ctx.nextSsnSequence = outcome.ssnSequenceEnd + 1;
  const perRequest = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined || outcome.responses === 0
      ? null
      : (after - before) / outcome.responses;
  return {
    contender,
    mode: outcome.mode,
    connections: load.connections,
    offeredRate: outcome.offeredRate,
    fraction: load.fraction ?? null,
    achievedRate: outcome.elapsedSeconds > 0 ? outcome.ok / outcome.elapsedSeconds : 0,
    sent: outcome.sent,
    responses: outcome.responses,
    errors: outcome.errors,
    latencyMs: outcome.latencyMs,
    sendLagMs: outcome.sendLagMs,
    serverCpuUsPerRequest: perRequest(serverCpuBefore, serverCpuAfter),
    postgresCpuUsPerRequest: perRequest(postgresCpuBefore, postgresCpuAfter),
    generatorCpuUsPerRequest: outcome.sent === 0 ? null : outcome.cpuMicros / outcome.sent,
    generatorCpuShare: outcome.elapsedSeconds > 0 ? outcome.cpuMicros / 1e6 / outcome.elapsedSeconds : 0,
    histogram: outcome.histogram,
    sampleError: outcome.sampleError,
  };
}

const describeStep = (step: OpenLoopStep) =>
  `${step.contender} ${step.mode === 'open' ? `open ${step.offeredRate} req/s` : `closed ${step.connections} conn`}: ` +
  `${step.achievedRate.toFixed(0)} ok/s, p50 ${step.latencyMs.p50} ms, p99 ${step.latencyMs.p99} ms, p99.9 ${step.latencyMs.p999} ms, ${step.errors} errors, generator ${(step.generatorCpuShare * 100).toFixed(0)} % of a core`;

// ---- the run ---------------------------------------------------------------------------------------------------

const STARTERS: Partial<Record<ContenderName, (ctx: BenchContext, node: string) => Promise<RunningServer>>> = {
  service: startService,
  'batching-floor': startBatchingFloor,
  'transfer-floor': startTransferFloor,
  postgraphile: startPostGraphile,
};

/**
 * Every scenario of OPEN_LOOP_SCENARIOS against servers started here on `node` (and stopped at the end). The
 * transfer scenario needs the ledger's seed (ctx.ledger).
 */
export async function runOpenLoop(ctx: BenchContext, node: string): Promise<OpenLoopResult> {
  const failures: string[] = [];
  const seconds = ctx.options.openLoopStepSeconds;
  const pinning = ctx.pinning;
  const servers: Partial<Record<ContenderName, RunningServer>> = {};
  const scenarios: OpenLoopScenarioResult[] = [];
  let mixed: MixedWorkloadResult | undefined;
  try {
    const needed = new Set(OPEN_LOOP_SCENARIOS.flatMap((s) => s.contenders.map((c) => c.name)));
    for (const name of needed) {
      if (name === 'postgraphile' && nodeMajor(node) < 22) {
        failures.push(`postgraphile needs Node 22+; not run on ${nodeVersion(node)}`);
        continue;
      }
      try {
        const server = await STARTERS[name]!(ctx, node);
        servers[name] = server;
        pinning.pinServer(server.pid);
        ctx.log(`[open-loop] ${name} ready at ${server.baseUrl} (pid ${server.pid})`);
      } catch (error) {
        failures.push(`${name} did not start: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    // BENCH_OPEN_LOOP_SCENARIOS=graphql-nested,… runs only those (a rerun of one scenario).
    const only = (process.env.BENCH_OPEN_LOOP_SCENARIOS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    for (const definition of OPEN_LOOP_SCENARIOS.filter((d) => only.length === 0 || only.includes(d.scenario))) {
      if (definition.scenario === 'rest-transfer-uniform' && (ctx.ledger?.transferAccountIds.length ?? 0) < 2) {
        failures.push('rest-transfer-uniform: no funded accounts seeded (the ledger seed did not run)');
        continue;
      }
      try {
        scenarios.push(await runScenario(ctx, pinning, definition, servers, seconds));
      } catch (error) {
        failures.push(`${definition.scenario} failed: ${(error as Error).message.split('\n')[0]}`);
        ctx.log(`[open-loop] ${definition.scenario} failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
    if (only.length === 0 || only.includes('rest-mixed')) {
      if ((ctx.ledger?.transferAccountIds.length ?? 0) < 2)
        failures.push('rest-mixed: no funded accounts seeded (the ledger seed did not run)');
      else
        try {
          mixed = await runMixedWorkload(ctx, pinning, servers, seconds);
        } catch (error) {
          failures.push(`rest-mixed failed: ${(error as Error).message.split('\n')[0]}`);
          ctx.log(`[open-loop] rest-mixed failed: ${(error as Error).stack ?? String(error)}`);
        }
    }
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
  return {
    nodeVersion: nodeVersion(node),
    durationSeconds: seconds,
    connections: ctx.options.connections,
    pinning: pinning.description,
    scenarios,
    ...(mixed && { mixed }),
    failures,
  };
}

async function runScenario(
  ctx: BenchContext,
  pinning: Pinning,
  definition: OpenLoopScenarioDefinition,
  servers: Partial<Record<ContenderName, RunningServer>>,
  seconds: number,
): Promise<OpenLoopScenarioResult> {
  const contenders = definition.contenders.filter(({ name }) => servers[name] !== undefined);
  if (!contenders.some(({ name }) => name === 'service')) throw new Error('the service is not running');
  const tag = `[open-loop ${definition.scenario}]`;
  const step = async (name: ContenderName, kind: LoadKind, load: Parameters<typeof runStep>[5]) => {
    const result = await runStep(ctx, pinning, servers[name]!, name, kind, load);
    ctx.log(`${tag} ${describeStep(result)}`);
    return result;
  };
  for (const { name, kind } of contenders)
    await runStep(ctx, pinning, servers[name]!, name, kind, {
      connections: ctx.options.connections,
      seconds: ctx.options.warmupSeconds,
    });

  // Capacity: closed loop at --connections; the service's is what the offered rates are fractions of.
  const capacitySteps: OpenLoopStep[] = [];
  for (const { name, kind } of contenders)
    capacitySteps.push(await step(name, kind, { connections: ctx.options.connections, seconds }));
  const serviceCapacity = capacitySteps.find((s) => s.contender === 'service')!.achievedRate;
  if (serviceCapacity <= 0)
    throw new Error(
      `the service answered nothing successfully at capacity (${capacitySteps[0]?.sampleError ?? 'no error seen'})`,
    );

  const steps: OpenLoopStep[] = [...capacitySteps];
  let round = 0;
  // Each round starts one contender later, so what a step leaves behind (autovacuum, a checkpoint) lands on each in turn.
  const rotated = () => contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
  for (const connections of CLOSED_LOOP_CONNECTIONS) {
    for (const { name, kind } of rotated()) steps.push(await step(name, kind, { connections, seconds }));
    round += 1;
  }
  for (const fraction of OPEN_LOOP_FRACTIONS) {
    const rate = Math.max(1, Math.round(serviceCapacity * fraction));
    for (const { name, kind } of rotated())
      steps.push(await step(name, kind, { connections: ctx.options.connections, rate, fraction, seconds }));
    round += 1;
  }
  return {
    scenario: definition.scenario,
    title: definition.title,
    serviceCapacity,
    capacity: capacitySteps.map((s) => ({ contender: s.contender, rps: s.achievedRate, p99Ms: s.latencyMs.p99 })),
    steps,
    ...(definition.note !== undefined && { note: definition.note }),
  };
}

// ---- the report --------------------------------------------------------------------------------------------------

const num = (value: number | null | undefined, digits = 0): string =>
  value === null || value === undefined || Number.isNaN(value)
    ? '–'
    : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The open-loop tables, as Markdown lines (bench/open-loop.ts's latest.md, and the section of `npm run bench`'s report). */
export function renderOpenLoop(result: OpenLoopResult): string[] {
  const lines = [
    `Servers on ${result.nodeVersion}; ${result.pinning}. Each step ${result.durationSeconds} s. Capacity: the service's successful req/s closed loop at ${result.connections} connections;` +
      ` open loop: a constant schedule at ${OPEN_LOOP_FRACTIONS.map((f) => `${f * 100} %`).join(', ')} of it, the same rate for every contender, at most ${result.connections} requests in flight,` +
      " latency from each request's intended send time (HdrHistogram). Closed loop at 1 and 4 connections: latency from the send.",
    '',
    '| Scenario | Contender | Load | offered req/s | achieved req/s | p50 ms | p99 ms | p99.9 ms | max ms | errors | server CPU µs/req | PG CPU µs/req | generator CPU µs/req | generator, share of a core | send lag p99 ms |',
    '|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const scenario of result.scenarios) {
    for (const s of scenario.steps) {
      const load =
        s.mode === 'open'
          ? `open, ${num((s.fraction ?? 0) * 100)} %`
          : s.connections === result.connections
            ? `closed, ${s.connections} conn (capacity)`
            : `closed, ${s.connections} conn`;
      lines.push(
        `| ${scenario.title} | ${s.contender} | ${load} | ${num(s.offeredRate)} | ${num(s.achievedRate)} | ${num(s.latencyMs.p50, 2)} | ${num(s.latencyMs.p99, 2)} | ${num(s.latencyMs.p999, 2)} | ${num(s.latencyMs.max, 1)} | ${num(s.errors)} |` +
          ` ${num(s.serverCpuUsPerRequest)} | ${num(s.postgresCpuUsPerRequest)} | ${num(s.generatorCpuUsPerRequest)} | ${num(s.generatorCpuShare * 100)} % | ${s.sendLagMs === null ? '' : num(s.sendLagMs.p99, 2)} |`,
      );
    }
  }
  if (result.mixed) {
    const mixed = result.mixed;
    lines.push(
      '',
      `Mixed REST workload (${mixed.mix}): capacity ${mixed.capacity.map((c) => `${c.contender} ${num(c.rps)} req/s`).join(', ')}; offered ${num(mixed.offeredRate)} req/s to each, cycle by cycle. ${mixed.ledgerCheck}.${(mixed.updateChecks ?? []).map((check, i) => ` Update, ${mixed.capacity[i]?.contender ?? i}: ${check}.`).join('')}`,
      '',
      '| Cycle | Contender | achieved req/s | p50 ms | p99 ms | p99.9 ms | errors | server CPU µs/req | PG CPU µs/req | total CPU µs/req |',
      '|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    mixed.cycles.forEach((cycle, i) => {
      for (const s of [cycle.service, cycle.floor])
        lines.push(
          `| ${i + 1} | ${s.contender} | ${num(s.achievedRate)} | ${num(s.latencyMs.p50, 2)} | ${num(s.latencyMs.p99, 2)} | ${num(s.latencyMs.p999, 2)} | ${num(s.errors)} | ${num(s.serverCpuUsPerRequest)} | ${num(s.postgresCpuUsPerRequest)} | ${num(totalCpuUsPerRequest(s))} |`,
        );
    });
  }
  const notes = result.scenarios.filter((s) => s.note !== undefined).map((s) => `- ${s.scenario}: ${s.note}`);
  const samples = result.scenarios.flatMap((scenario) =>
    scenario.steps
      .filter((s) => s.sampleError !== undefined)
      .slice(0, 1)
      .map((s) => `- ${scenario.scenario}, ${s.contender}: first error ${s.sampleError}`),
  );
  if (notes.length + samples.length + result.failures.length > 0)
    lines.push('', ...notes, ...samples, ...result.failures.map((f) => `- failed: ${f}`));
  return lines;
}

/** One run's raw figures for a history.ndjson: every step, with its latency histogram (compressed, µs) unless `histograms` is false. */
export function openLoopHistory(result: OpenLoopResult, options: { histograms: boolean } = { histograms: true }) {
  return {
    nodeVersion: result.nodeVersion,
    durationSeconds: result.durationSeconds,
    connections: result.connections,
    pinning: result.pinning,
    scenarios: result.scenarios.map((scenario) => ({
      scenario: scenario.scenario,
      serviceCapacity: Math.round(scenario.serviceCapacity),
      steps: scenario.steps.map((s) => ({
        contender: s.contender,
        mode: s.mode,
        connections: s.connections,
        offeredRate: s.offeredRate,
        achievedRate: Math.round(s.achievedRate),
        errors: s.errors,
        latencyMs: s.latencyMs,
        serverCpuUsPerRequest: s.serverCpuUsPerRequest === null ? null : Math.round(s.serverCpuUsPerRequest),
        generatorCpuShare: Math.round(s.generatorCpuShare * 1000) / 1000,
        ...(options.histograms && { histogramUs: s.histogram }),
      })),
    })),
    ...(result.mixed && {
      mixed: {
        offeredRate: result.mixed.offeredRate,
        capacity: result.mixed.capacity.map((c) => ({ contender: c.contender, rps: Math.round(c.rps) })),
        cycles: result.mixed.cycles.map((cycle) =>
          [cycle.service, cycle.floor].map((s) => ({
            contender: s.contender,
            achievedRate: Math.round(s.achievedRate),
            errors: s.errors,
            p99Ms: s.latencyMs.p99,
            totalCpuUsPerRequest: totalCpuUsPerRequest(s) === null ? null : Math.round(totalCpuUsPerRequest(s)!),
          })),
        ),
      },
    }),
    failures: result.failures,
  };
}
