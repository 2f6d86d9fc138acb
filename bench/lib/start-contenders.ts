import {
  type ContenderName,
  startAuthPathService,
  startBaseline,
  startBatchingFloor,
  startPostGraphile,
  startService,
  startTransferFloor,
} from './contenders.js';
import type { BenchContext } from './context.js';
import { nodeMajor, nodeVersion, type RunningServer } from './processes.js';
import { HTTP_SCENARIOS, type HttpScenarioName, type Servers } from './scenarios.js';

/**
 * Starts every contender `scenarios` compare on `node`; one that does not start
 * is listed in `failures` with its reason, and the others run without it. Shared by bench/run.ts and
 * bench/data-growth.ts.
 */
export async function startContenders(
  ctx: BenchContext,
  scenarios: HttpScenarioName[],
  node: string,
  failures: string[],
): Promise<Servers> {
  const needed = new Set<ContenderName>(scenarios.flatMap((s) => HTTP_SCENARIOS[s].contenders.map((c) => c.name)));
  if (ctx.baseline && needed.has('service')) needed.add('baseline');
  const servers: Servers = {};
  const starters: Record<ContenderName, (c: BenchContext, n: string) => Promise<RunningServer>> = {
    service: startService,
    baseline: startBaseline,
    'batching-floor': startBatchingFloor,
    'transfer-floor': startTransferFloor,
    postgraphile: startPostGraphile,
    'managed-cached': (c, n) => startAuthPathService(c, n, 'managed-cached'),
    'managed-uncached': (c, n) => startAuthPathService(c, n, 'managed-uncached'),
    'jwt-cached': (c, n) => startAuthPathService(c, n, 'jwt-cached'),
    'jwt-uncached': (c, n) => startAuthPathService(c, n, 'jwt-uncached'),
  };
  for (const name of needed) {
    if (name === 'postgraphile' && nodeMajor(node) < 22) {
      failures.push(`postgraphile needs Node 22+; not run on ${nodeVersion(node)}`);
      continue;
    }
    try {
      servers[name] = await starters[name](ctx, node);
      ctx.pinning.pinServer(servers[name].pid);
      ctx.log(
        `${name} on ${nodeVersion(node)} ready at ${servers[name].baseUrl} after ${servers[name].readyAfterMs.toFixed(0)} ms (pid ${servers[name].pid})`,
      );
    } catch (error) {
      failures.push(`${name} on ${nodeVersion(node)} did not start: ${(error as Error).message.split('\n')[0]}`);
      ctx.log(`${name} did not start: ${(error as Error).message}`);
    }
  }
  return servers;
}
