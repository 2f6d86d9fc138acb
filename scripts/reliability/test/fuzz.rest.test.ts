import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCount, recordIfRequested } from '../lib/results.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { runRestFuzz } from '../lib/fuzz/rest-fuzz.js';
import { DEFAULT_SEED } from './seed.js';

/**
 * Property-based fuzzing of the REST surface (fast-check), over real HTTP against the whole service:
 * bodies derived from the zod request schemas and mutated, raw bodies, random paths, methods, headers and
 * content types. `npm run fuzz` runs the same generators for 50,000 requests against a child process.
 * The suite runs a fixed seed (./seed.ts); try others with FUZZ_SEED=<seed> npx vitest run scripts/reliability/test/fuzz.rest.test.ts
 */

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2400);
const SEED = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

describe('REST fuzzing', () => {
  it(
    `answers ${REQUESTS} random and adversarial requests with no 5xx, only well-formed envelopes, and stores nothing it refused`,
    { timeout: 120_000 },
    async () => {
      const report = await runRestFuzz({
        baseUrl: service.url,
        token: service.token,
        pool: service.database.pool,
        requests: REQUESTS,
        workers: 6,
        seed: SEED,
      });
      expect(report.problems, `seed ${SEED}`).toEqual([]);
      expect(report.serverErrors).toBe(0);
      expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
      // The generators reach every layer: successes, validation, routing, auth, media types, size limits.
      expect(Object.keys(report.errorCodes)).toEqual(
        expect.arrayContaining([
          'VALIDATION_FAILED',
          'ROUTE_NOT_FOUND',
          'UNAUTHENTICATED',
          'UNSUPPORTED_MEDIA_TYPE',
          'MALFORMED_REQUEST',
          'METHOD_NOT_ALLOWED',
          'ENVIRONMENT_NOT_FOUND',
        ]),
      );
      expect(report.acknowledgedWrites).toBeGreaterThan(0);
      recordIfRequested({
        id: 'fuzz-rest-suite',
        test: 'REST fuzzing (fast-check, in the suite)',
        operations: `${formatCount(report.requests)} requests (seed ${SEED})`,
        faults: 'schema-derived bodies mutated, raw bodies, random paths, methods, headers, content types',
        result: `0 responses 5xx; every answer a documented envelope; ${report.acknowledgedWrites} acknowledged writes, row counts changed by exactly those`,
        passed: true,
        command: 'npx vitest run scripts/reliability/test/fuzz.rest.test.ts',
        figures: {
          statusCounts: report.statusCounts,
          errorCodes: report.errorCodes,
          kinds: report.kinds,
          maxLatencyMs: Math.round(report.maxLatencyMs),
        },
      });
    },
  );
});
