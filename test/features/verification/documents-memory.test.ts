import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService, type SpawnedService } from '../../runtime/process-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { buildCustomerInput } from '../../support/factories.js';
import { TEST_PII_ENV } from '../../support/service.js';
import { fileOf, sha256 } from './documents-support.js';

/**
 * docs/adr/0103 end to end: the service runs as its own process (its memory is not the test runner's) and takes
 * 10 MiB uploads, and answers their content, while its peak resident set (VmHWM, reset before each request) grows by
 * less than GROWTH_BOUND_MB: the content is read a piece at a time and sealed in 256 KiB chunks, never copied whole
 * into a string (base64, hex) or held twice. Repeated, the resident set does not keep growing (nothing is kept).
 */
// A 10 MiB upload holds its 10 MiB of ciphertext until the transaction stores it, plus the pieces in flight and
// the driver's transient copies of one chunk per statement; garbage waits for V8's next collection. Measured here
// on production's 12 MB semi-spaces: 30-35 MB per upload, about 4 MB per download. Generous on purpose (a busy CI
// machine collects later); what matters is the order of magnitude: the same upload sent to the database in batches
// of 8 chunks measured 50-80 MB, and a body buffered, then base64- or hex-encoded whole, costs several times more.
const GROWTH_BOUND_MB = 64;
const TEN_MIB = 10 * 1024 * 1024;
const TOKEN = `documents-memory-${randomBytes(32).toString('base64url')}`;

let database: TestDatabase;
let service: SpawnedService;
let customerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  service = await spawnService(['--max-semi-space-size=12', '--import', 'tsx', 'src/main.ts'], {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: database.url,
    API_TOKENS: TOKEN,
    ENVIRONMENTS: 'sandbox',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
    MIGRATE_ON_START: 'false',
    ...TEST_PII_ENV,
  });
  const res = await fetch(`${service.url}/sandbox/customer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(buildCustomerInput()),
  });
  expect(res.status).toBe(201);
  customerId = ((await res.json()) as { data: { customerId: string } }).data.customerId;
}, 120_000);
afterAll(async () => {
  service?.child.kill('SIGTERM');
  await service?.exited;
  await database?.drop();
});

const status = (field: 'VmHWM' | 'VmRSS') =>
  Number(
    new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))![1],
  ) / 1024;

/** Runs `request` and measures how far the service's resident set rose above where it was: the peak is reset first. */
async function measured<T>(request: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
  // "5" resets the peak resident set (proc(5), clear_refs); where it cannot be written, VmHWM still only grows.
  const clearRefs = `/proc/${service.child.pid}/clear_refs`;
  if (existsSync(clearRefs)) writeFileSync(clearRefs, '5');
  const before = status('VmRSS');
  const value = await request();
  return { value, growthMb: status('VmHWM') - before };
}

const upload = async (bytes: Buffer) => {
  const res = await fetch(`${service.url}/sandbox/customer/${customerId}/document?type=ID_DOCUMENT`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/pdf' },
    body: bytes,
  });
  return { status: res.status, json: (await res.json()) as { data: { documentId: string; sha256: string } } };
};

describe('a 10 MiB document', () => {
  it('is uploaded and downloaded with the resident set bounded, and repeating it does not add up', async () => {
    const bytes = fileOf('application/pdf', TEN_MIB);
    // Two uploads first: the code paths loaded, the pools and the heap at their working size, as in a running service.
    for (let warm = 0; warm < 2; warm++) expect((await upload(bytes)).status).toBe(201);

    const growths: number[] = [];
    const rssAfter: number[] = [];
    let documentId = '';
    for (let round = 0; round < 5; round++) {
      const { value, growthMb } = await measured(() => upload(bytes));
      expect(value.status).toBe(201);
      expect(value.json.data.sha256).toBe(sha256(bytes));
      documentId = value.json.data.documentId;
      growths.push(growthMb);
      rssAfter.push(status('VmRSS'));
    }
    const download = await measured(async () => {
      const res = await fetch(`${service.url}/sandbox/customer/${customerId}/document/${documentId}/content`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      return Buffer.from(await res.arrayBuffer());
    });
    expect(download.value.equals(bytes)).toBe(true);

    process.stdout.write(
      `10 MiB uploads: peak growth ${growths.map((g) => g.toFixed(1)).join(', ')} MB; RSS after ${rssAfter
        .map((r) => r.toFixed(0))
        .join(', ')} MB; download peak growth ${download.growthMb.toFixed(1)} MB\n`,
    );
    for (const growth of growths) expect(growth).toBeLessThan(GROWTH_BOUND_MB);
    expect(download.growthMb).toBeLessThan(GROWTH_BOUND_MB);
    // Fifty MiB went through: what stays resident after the last is within the bound of the first.
    expect(rssAfter.at(-1)! - rssAfter[0]!).toBeLessThan(GROWTH_BOUND_MB);
  }, 120_000);

  it('of exactly 10 MiB is taken, and one byte more is refused (413) before it is stored', async () => {
    expect((await upload(fileOf('application/pdf', TEN_MIB))).status).toBe(201);
    const over = await upload(fileOf('application/pdf', TEN_MIB + 1));
    expect(over.status).toBe(413);
  }, 60_000);
});
