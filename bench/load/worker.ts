import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './protocol.js';
import { type LoadIds, RequestFactory } from './requests.js';

/**
 * The load generator, run as its own process so that it never shares an event loop with a server or
 * with the orchestrator's bookkeeping. Reads a LoadSpec (JSON file named by argv[2]), drives
 * autocannon, and prints one LoadResult as JSON on its last stdout line.
 */

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
const ids = JSON.parse(readFileSync(spec.idsFile, 'utf8')) as LoadIds;
const factory = new RequestFactory(spec.environment, ids, spec.ssnSequenceStart);
const checksGraphqlBodies =
  spec.kind === 'graphql-nested' || spec.kind === 'postgraphile-nested' || spec.kind === 'mixed';
let graphqlErrors = 0;
let sampleError: string | undefined;
// Error pages may be HTML: keep their text only, on one line, for the report.
const plain = (body: string) =>
  body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

// The generator's own CPU over the run (start-up and module loading left out): the scaling bench reports it.
const cpuAtStart = process.cpuUsage();
const result = await autocannon({
  url: spec.baseUrl,
  connections: spec.connections,
  duration: spec.durationSeconds,
  pipelining: 1,
  timeout: 10,
  ...(spec.rate !== undefined && { overallRate: spec.rate }),
  headers: { authorization: `Bearer ${spec.token}`, 'content-type': 'application/json' },
  requests: [
    {
      setupRequest: (request) => {
        const built = factory.build(spec.kind);
        return { ...request, ...built, headers: { ...request.headers, ...built.headers } };
      },
      onResponse: (status: number, body: string) => {
        const graphqlError = checksGraphqlBodies && status === 200 && body.includes('"errors"');
        if (graphqlError) graphqlErrors += 1;
        if ((status >= 300 || graphqlError) && sampleError === undefined)
          sampleError = `HTTP ${status} ${plain(body).slice(0, 200)}`;
      },
    },
  ],
});

const cpuUsed = process.cpuUsage(cpuAtStart);
const statusCodes = Object.fromEntries(
  Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, (stats as { count: number }).count]),
);
const responses = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
const output: LoadResult = {
  durationSeconds: result.duration,
  responses,
  ok: result['2xx'] - graphqlErrors,
  errors: result.non2xx + result.errors + result.timeouts + graphqlErrors,
  statusCodes,
  graphqlErrors,
  latencyMs: {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    mean: result.latency.mean,
    max: result.latency.max,
  },
  ssnSequenceEnd: factory.ssnSequencesUsed,
  sampleError,
  cpuMicros: cpuUsed.user + cpuUsed.system,
};
process.stdout.write(`\n${JSON.stringify(output)}\n`);
