import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from './lib/contenders.js';
import { killAllChildren } from './lib/processes.js';
import { measureRun } from './lib/measure.js';
import { scratchBenchOptions, withScratchBench } from './lib/scratch-bench.js';
import type { LoadKind } from './load/requests.js';
import { layerOf } from './lib/profile-layers.js';

/**
 * `npx tsx bench/profile.ts --scenario rest-get-customer`: the service under `node --cpu-prof` on the
 * benchmark's seeded database, driven by the benchmark's load generator, then a summary of where its CPU
 * went (self time by function and by package). The .cpuprofile is kept for a flame graph (Chrome
 * DevTools, speedscope). A development tool: measure first, then optimise what the profile shows.
 */

const USAGE = `npx tsx bench/profile.ts [options]
  --scenario KIND     a load of bench/load/requests.ts, e.g. rest-get-customer, rest-search-customer-by-ssn, mixed;
                      rest-balance-as-of and rest-statement need --growth
  --growth SCALE      seed the data-growth history too (as npm run bench:data-growth), e.g. entries=10,busy=1,events=10,audit=10,keys=1
  --duration S        seconds of load after a 3 s warm-up (default 10)
  --customers N       customers seeded (default 10000; accounts 1.5x)
  --connections N     concurrent connections of the load (default 50; 4 shows the cost batching cannot hide)
  --top N             functions listed (default 25)
  --out DIR           where the .cpuprofile goes (default a temporary directory, printed)
  --node PATH         Node binary (default .tools/node26)
  --node-arg FLAG     extra flag for the service's Node (repeatable), e.g. --node-arg=--max-semi-space-size=32
  --summarise FILE    only summarise an existing .cpuprofile
`;

const log = (line: string) => process.stderr.write(`[profile] ${line}\n`);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const SOCKET_WRITES = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'writeAsciiString']);

/** Where a frame's code comes from: a package, the service's own modules, Node itself, or V8's pseudo-frames. */
function origin(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node:*';
  const own = /\/(dist|src)\/(.+?)\/[^/]+$/.exec(url) ?? /\/(dist|src)\/()[^/]+$/.exec(url);
  if (own) return `service:${own[2] || '.'}`;
  return url;
}

/** Self time by function and by origin, of the samples taken `skipMicros` or later after the profile began. */
export function summarise(profile: CpuProfile, top: number, skipMicros = 0): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  let elapsed = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed < skipMicros) continue;
    const id = profile.samples[i]!;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const frameOf = (id: number) => byId.get(id)!.callFrame;
  const sum = (test: (name: string) => boolean) =>
    [...selfMicros].filter(([id]) => test(frameOf(id).functionName)).reduce((a, [, v]) => a + v, 0);
  const idle = sum((name) => name === '(idle)');
  // The profiler samples wall-clock time: on a machine with more runnable processes than cores, a write
  // that wakes PostgreSQL or the load generator is often where the server is preempted, so these
  // native frames hold waiting time as well as work. They are reported apart from the rest.
  const socketWrites = sum((name) => SOCKET_WRITES.has(name));
  const work = total - idle - socketWrites;

  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  const byLayer = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = frameOf(id);
    if (functionName === '(idle)' || SOCKET_WRITES.has(functionName)) continue;
    const where = origin(url, functionName);
    const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|src)\//, '$1/');
    const key = `${functionName || '(anonymous)'}  ${file ? `${file}:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + micros);
    byLayer.set(layerOf(where), (byLayer.get(layerOf(where)) ?? 0) + micros);
  }
  const pct = (micros: number) => `${((100 * micros) / work).toFixed(1).padStart(5)} %`;
  const seconds = (micros: number) => `${(micros / 1e6).toFixed(2)} s`;
  const lines = [
    `sampled ${seconds(total)}: idle ${seconds(idle)}, socket writes ${seconds(socketWrites)} (work and preemption), other ${seconds(work)} = 100 % below`,
    '',
    'self time by layer of the stack:',
    ...[...byLayer]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([name, micros]) => `  ${pct(micros)}  ${name}`),
    '',
    'self time by origin:',
    ...[...byOrigin]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([name, micros]) => `  ${pct(micros)}  ${name}`),
    '',
    `top ${top} functions by self time:`,
    ...[...byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `  ${pct(micros)}  ${name}`),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'rest-get-customer' },
      duration: { type: 'string', default: '10' },
      customers: { type: 'string', default: '10000' },
      connections: { type: 'string', default: '50' },
      top: { type: 'string', default: '25' },
      out: { type: 'string' },
      node: { type: 'string' },
      summarise: { type: 'string' },
      'node-arg': { type: 'string', multiple: true, default: [] },
      growth: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const top = Number(values.top);
  if (values.summarise) {
    process.stdout.write(`${summarise(JSON.parse(readFileSync(values.summarise, 'utf8')) as CpuProfile, top)}\n`);
    return;
  }

  const options = scratchBenchOptions(Number(values.customers), [
    '--connections',
    values.connections,
    ...(values.node ? ['--node', values.node] : []),
    ...(values.growth ? ['--growth', values.growth] : []),
  ]);
  if (options === 'help') return;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-profile-'));
  const profileDir = values.out ? path.resolve(values.out) : path.join(workDir, 'profile');
  mkdirSync(profileDir, { recursive: true });
  try {
    await withScratchBench(options, workDir, log, async (ctx) => {
      const kind = values.scenario as LoadKind;
      const server = await startService(ctx, ctx.referenceNode, [
        ...values['node-arg'],
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir}`,
      ]);
      // Start-up and warm-up are left out of the summary (the .cpuprofile keeps them).
      const skipMicros = (server.readyAfterMs + 3000) * 1000;
      try {
        await measureRun(ctx, server, kind, 3);
        const run = await measureRun(ctx, server, kind, Number(values.duration));
        log(
          `${kind}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99Ms} ms, ${run.errors} errors, server CPU ${run.serverCpuUsPerRequest?.toFixed(0)} µs/req, ` +
            `PG CPU ${run.postgresCpuUsPerRequest?.toFixed(0)} µs/req, SQL/op ${run.statementsPerOperation?.toFixed(2)}, peak RSS ${run.peakRssMb?.toFixed(0)} MB` +
            (run.sampleError ? `, e.g. ${run.sampleError}` : ''),
        );
      } finally {
        await server.stop();
      }
      const file = readdirSync(profileDir)
        .filter((name) => name.endsWith('.cpuprofile'))
        .sort()
        .at(-1);
      if (!file) throw new Error(`no .cpuprofile in ${profileDir} (did the service exit cleanly?)`);
      const profilePath = path.join(profileDir, file);
      log(`profile: ${profilePath}`);
      process.stdout.write(
        `${summarise(JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile, top, skipMicros)}\n`,
      );
    });
  } finally {
    rmSync(path.join(workDir, 'logs'), { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  killAllChildren();
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
