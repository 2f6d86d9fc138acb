import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as hdr from 'hdr-histogram-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenLoopOutcome, OpenLoopSpec } from '../../bench/load/open-loop-protocol.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/**
 * The open-loop generator (bench/load/open-loop-worker.ts) against a local server whose first answer stalls: the
 * requests due during the stall wait behind it on the one connection, and each must carry that wait in its
 * latency (measured from when it was due), not the few milliseconds from its actual send to its answer.
 */
describe('the open-loop generator', () => {
  const STALL_MS = 300;
  let server: http.Server;
  let baseUrl: string;
  let workDir: string;
  let answered = 0;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      request.resume();
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
      answered += 1;
      if (answered === 1) setTimeout(answer, STALL_MS);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-open-loop-test-'));
    writeFileSync(
      path.join(workDir, 'ids.json'),
      JSON.stringify({ customerIds: ['c'], accountIds: ['a'], nestedCustomerIds: ['c'] }),
    );
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(workDir, { recursive: true, force: true });
  });

  async function generate(
    load: Pick<OpenLoopSpec, 'connections' | 'durationSeconds'> & { rate?: number },
  ): Promise<OpenLoopOutcome> {
    const spec: OpenLoopSpec = {
      baseUrl,
      kind: 'rest-get-account',
      environment: 'sandbox',
      token: 'test',
      idsFile: path.join(workDir, 'ids.json'),
      ssnSequenceStart: 0,
      timeoutMs: 10_000,
      ...load,
    };
    const specFile = path.join(workDir, `spec-${load.rate ?? 'closed'}.json`);
    writeFileSync(specFile, JSON.stringify(spec));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/load/open-loop-worker.ts', specFile], {
      cwd: repoRoot,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as OpenLoopOutcome;
  }

  it('times every request from its intended send, so the requests queued behind a stall carry it', async () => {
    answered = 0;
    const outcome = await generate({ rate: 100, durationSeconds: 1, connections: 1 });

    expect(outcome).toMatchObject({ mode: 'open', offeredRate: 100, sent: 100, responses: 100, ok: 100, errors: 0 });
    // About the first 30 requests were due during the stall, each waiting what was left of it: a fifth of all
    // waited at least a third of it. Timed from their actual sends, all but the first would be a few ms.
    expect(outcome.latencyMs.p90).toBeGreaterThanOrEqual(STALL_MS / 3);
    expect(outcome.latencyMs.max).toBeGreaterThanOrEqual(STALL_MS);
    expect(outcome.sendLagMs).not.toBeNull();
    // The stored histogram is the same distribution.
    const histogram = hdr.decodeFromCompressedBase64(outcome.histogram);
    expect(histogram.totalCount).toBe(100);
    expect(histogram.getValueAtPercentile(90) / 1000).toBeCloseTo(outcome.latencyMs.p90, 0);
  });

  it('in closed loop sends the next request when the previous one is answered', async () => {
    answered = 1;
    const outcome = await generate({ durationSeconds: 1, connections: 2 });

    expect(outcome).toMatchObject({ mode: 'closed', offeredRate: null, errors: 0, sendLagMs: null });
    expect(outcome.responses).toBe(outcome.sent);
    expect(outcome.responses).toBeGreaterThan(0);
  });
});
