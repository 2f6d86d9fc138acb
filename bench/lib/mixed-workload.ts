import type { LoadKind } from '../load/requests.js';
import { REST_MIX } from '../load/requests.js';
import type { ContenderName } from './contenders.js';
import type { BenchContext } from './context.js';
import { logRatioInterval, type LogRatioSummary, pairedLogRatios } from './interval.js';
import { type OpenLoopStep, runStep } from './open-loop.js';
import type { Pinning } from './pinning.js';
import type { RunningServer } from './processes.js';
import { totalCpuUsPerRequest } from './scenarios.js';
import { checkLedgerAfterRuns, checkUpdate } from './verify.js';

/**
 * The mixed REST workload at a fixed load: what a bank's traffic costs, beside the floor running the same SQL.
 * Reads, creates, updates, transfers, lists and SSN searches in REST_MIX's proportions (bench/load/requests.ts),
 * offered open loop (latency from each request's intended send) at 70 % of the slower contender's closed-loop
 * capacity, the same rate for both. Each cycle runs the service and the floor side by side in time (one after the
 * other, the order turning each cycle); the targets are per-cycle ratios with their 95 % t intervals:
 * - total CPU per request (server process + PostgreSQL), floor ÷ service, at least MIXED_CPU_MINIMUM on the lower bound;
 * - p99 latency, service ÷ floor, at most MIXED_P99_MAXIMUM (a ceiling: met when the whole interval is within it).
 * Total CPU µs per request is also CPU-seconds per million requests.
 */
export const MIXED_LOAD_FRACTION = 0.7;
export const MIXED_CPU_MINIMUM = 0.75;
export const MIXED_P99_MAXIMUM = 1.5;
const CONTENDERS: readonly { name: ContenderName; kind: LoadKind }[] = [
  { name: 'service', kind: 'rest-mixed' },
  { name: 'batching-floor', kind: 'rest-mixed' },
];

export interface MixedWorkloadResult {
  mix: string;
  /** Closed-loop capacity at --connections, each contender's. */
  capacity: { contender: ContenderName; rps: number }[];
  /** Requests per second offered in every cycle: MIXED_LOAD_FRACTION of the slower contender's capacity. */
  offeredRate: number;
  cycles: { service: OpenLoopStep; floor: OpenLoopStep }[];
  /** The ledger's invariants after the runs (the mix moves money). */
  ledgerCheck: string;
  /** Before the runs: each contender's update against the service's read of it (verify.ts, checkUpdate). */
  updateChecks?: string[];
}

export const mixDescription = (): string => REST_MIX.map(([kind, share]) => `${kind} ${share} %`).join(', ');

export async function runMixedWorkload(
  ctx: BenchContext,
  pinning: Pinning,
  servers: Partial<Record<ContenderName, RunningServer>>,
  seconds: number,
): Promise<MixedWorkloadResult> {
  for (const { name } of CONTENDERS) if (!servers[name]) throw new Error(`${name} is not running`);
  // The update is the one request of the mix no other scenario checks: each contender's must be the service's.
  const service = { name: 'service', server: servers.service! };
  const updateChecks = await Promise.all(
    CONTENDERS.map(({ name }, index) => checkUpdate(ctx, { name, server: servers[name]! }, service, index)),
  );
  const step = async (name: ContenderName, load: Parameters<typeof runStep>[5]) => {
    const result = await runStep(ctx, pinning, servers[name]!, name, 'rest-mixed', load);
    ctx.log(
      `[mixed] ${name} ${result.mode === 'open' ? `open ${result.offeredRate} req/s` : 'closed'}: ${result.achievedRate.toFixed(0)} ok/s, p99 ${result.latencyMs.p99} ms, ${result.errors} errors${result.sampleError ? ` (${result.sampleError})` : ''}`,
    );
    return result;
  };
  const connections = ctx.options.connections;
  for (const { name } of CONTENDERS) await step(name, { connections, seconds: ctx.options.warmupSeconds });
  const capacity: MixedWorkloadResult['capacity'] = [];
  for (const { name } of CONTENDERS)
    capacity.push({ contender: name, rps: (await step(name, { connections, seconds })).achievedRate });
  const slower = Math.min(...capacity.map((c) => c.rps));
  if (slower <= 0) throw new Error('a contender answered nothing successfully at capacity');
  const offeredRate = Math.max(1, Math.round(slower * MIXED_LOAD_FRACTION));
  const cycles: MixedWorkloadResult['cycles'] = [];
  for (let cycle = 0; cycle < ctx.options.runs; cycle++) {
    const load = { connections, rate: offeredRate, fraction: MIXED_LOAD_FRACTION, seconds };
    const order = cycle % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
    const done = new Map<ContenderName, OpenLoopStep>();
    for (const { name } of order) done.set(name, await step(name, load));
    cycles.push({ service: done.get('service')!, floor: done.get('batching-floor')! });
  }
  return {
    mix: mixDescription(),
    capacity,
    offeredRate,
    cycles,
    ledgerCheck: await checkLedgerAfterRuns(ctx.benchPool),
    updateChecks,
  };
}

export interface MixedWorkloadFigures {
  /** Floor ÷ service, total CPU per request. */
  cpu: LogRatioSummary;
  /** Service ÷ floor, p99 latency. */
  p99: LogRatioSummary;
  /**
   * Whether every step answered without an error and kept up with the offered rate (within 5 %), and each contender's
   * update answered what the service reads after it.
   */
  clean: boolean;
}

export function mixedWorkloadFigures(result: MixedWorkloadResult): MixedWorkloadFigures {
  const service = result.cycles.map((c) => c.service);
  const floor = result.cycles.map((c) => c.floor);
  const steps = [...service, ...floor];
  return {
    cpu: logRatioInterval(pairedLogRatios(floor.map(totalCpuUsPerRequest), service.map(totalCpuUsPerRequest))),
    p99: logRatioInterval(
      pairedLogRatios(
        service.map((s) => s.latencyMs.p99),
        floor.map((s) => s.latencyMs.p99),
      ),
    ),
    clean:
      steps.every((s) => s.errors === 0 && s.achievedRate >= (s.offeredRate ?? 0) * 0.95) &&
      (result.updateChecks ?? []).every((check) => check.startsWith('updated:')),
  };
}
