import pg from 'pg';
import { runGraphqlFuzz } from './lib/fuzz/graphql-fuzz.js';
import { runRestFuzz } from './lib/fuzz/rest-fuzz.js';
import { startDedicatedPostgres } from './lib/postgres.js';
import { formatCount, recordResult } from './lib/results.js';
import { log, options, round, runScript } from './lib/script.js';
import { buildOnce, runSecrets, startServiceProcess } from './lib/service-process.js';

/**
 * `npm run fuzz`: the suite's REST and GraphQL fuzzers (scripts/reliability/lib/fuzz/) at full size against the
 * service as operators run it (`node dist/main.js`, production mode, a dedicated PostgreSQL). The GraphQL
 * part fails loudly while the endpoint is missing. Replay a failure with the seed it prints.
 */

const opts = options(
  {
    requests: { default: '50000', help: 'requests per surface' },
    workers: { default: '8', help: 'parallel fast-check runs per surface' },
    seed: { default: String(Date.now() % 1_000_000), help: 'base seed' },
    surfaces: { default: 'rest,graphql', help: 'which fuzzers to run' },
    record: { default: 'true', help: 'write the results to docs/reliability-results.json' },
  },
  'npm run fuzz -- [options]',
);

runScript('fuzz', async () => {
  const requests = Number(opts.requests);
  const workers = Number(opts.workers);
  const seed = Number(opts.seed);
  const surfaces = new Set(opts.surfaces.split(','));
  buildOnce(log);
  const postgres = await startDedicatedPostgres();
  const secrets = runSecrets();
  const service = await startServiceProcess({
    name: 'fuzz',
    env: {
      DATABASE_URL: postgres.databaseUrl,
      ENVIRONMENTS: 'sandbox,production-like',
      GRAPHQL_INTROSPECTION: 'true',
      ...secrets,
    },
  });
  const pool = new pg.Pool({ connectionString: postgres.databaseUrl, max: 4 });
  pool.on('error', (error) => log(`monitoring connection failed: ${error.message}`));
  let passed = true;
  try {
    if (surfaces.has('rest')) {
      const started = performance.now();
      log(`REST: ${formatCount(requests)} requests, ${workers} workers, seed ${seed}`);
      const report = await runRestFuzz({
        baseUrl: service.url,
        token: secrets.API_TOKENS!,
        pool,
        requests,
        workers,
        seed,
        onProgress: (n) => n % 10_000 === 0 && log(`REST: ${formatCount(n)} requests`),
      });
      const seconds = round((performance.now() - started) / 1000);
      const ok = report.problems.length === 0 && report.serverErrors === 0 && service.isRunning();
      for (const problem of report.problems) log(`REST PROBLEM: ${problem.slice(0, 1500)}`);
      log(
        `REST: ${JSON.stringify({ requests: report.requests, seconds, statusCounts: report.statusCounts, errorCodes: report.errorCodes, acknowledgedWrites: report.acknowledgedWrites })}`,
      );
      passed &&= ok;
      if (opts.record === 'true') {
        recordResult({
          id: 'fuzz-rest',
          test: 'REST fuzzing at full size (npm run fuzz)',
          operations: `${formatCount(report.requests)} requests in ${seconds} s (seed ${seed})`,
          faults: 'schema-derived bodies mutated, raw bodies, random paths, methods, headers, content types',
          result: ok
            ? `0 responses 5xx; every answer a documented envelope; ${formatCount(report.acknowledgedWrites)} acknowledged writes, row counts changed by exactly those`
            : `${report.serverErrors} responses 5xx, ${report.problems.length} problems: ${report.problems[0]?.slice(0, 300)}`,
          passed: ok,
          command: 'npm run fuzz',
          figures: {
            statusCounts: report.statusCounts,
            errorCodes: report.errorCodes,
            kinds: report.kinds,
            maxLatencyMs: round(report.maxLatencyMs),
            before: report.before,
            after: report.after,
          },
        });
      }
    }
    if (surfaces.has('graphql')) {
      const started = performance.now();
      log(`GraphQL: ${formatCount(requests)} requests, ${workers} workers, seed ${seed}`);
      let ok = false;
      let summary: string;
      let figures: Record<string, unknown> = {};
      let count = 0;
      try {
        const report = await runGraphqlFuzz({
          baseUrl: service.url,
          token: secrets.API_TOKENS!,
          pool,
          requests,
          workers,
          seed,
          onProgress: (n) => n % 10_000 === 0 && log(`GraphQL: ${formatCount(n)} requests`),
        });
        count = report.requests;
        ok = report.problems.length === 0 && report.serverErrors === 0 && service.isRunning();
        for (const problem of report.problems) log(`GraphQL PROBLEM: ${problem.slice(0, 1500)}`);
        summary = ok
          ? `0 responses 5xx; every answer a GraphQL response with documented codes; ${formatCount(report.answersWithData)} answers with data, tables changed only by those`
          : `${report.serverErrors} responses 5xx, ${report.problems.length} problems: ${report.problems[0]?.slice(0, 300)}`;
        figures = {
          statusCounts: report.statusCounts,
          errorCodes: report.errorCodes,
          kinds: report.kinds,
          maxLatencyMs: round(report.maxLatencyMs),
        };
      } catch (error) {
        summary = (error as Error).message;
      }
      const seconds = round((performance.now() - started) / 1000);
      log(`GraphQL: ${summary}`);
      passed &&= ok;
      if (opts.record === 'true') {
        recordResult({
          id: 'fuzz-graphql',
          test: 'GraphQL fuzzing at full size (npm run fuzz)',
          operations: `${formatCount(count)} requests in ${seconds} s (seed ${seed})`,
          faults:
            'schema-driven operations with adversarial arguments and variables, broken documents, floods, malformed requests',
          result: summary,
          passed: ok,
          command: 'npm run fuzz',
          figures,
        });
      }
    }
  } finally {
    await pool.end();
    await service.stop();
    await postgres.dispose();
  }
  return passed;
});
