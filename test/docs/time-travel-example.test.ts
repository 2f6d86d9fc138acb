import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/processes.js';
import { startTestService, type TestService } from '../support/service.js';

describe('examples/time-travel.sh', () => {
  let service: TestService;
  beforeAll(async () => {
    // Only the example's advance closes days and expires holds and flags here: the intra-day sweeps, which would
    // race its end of day for them (either voids a hold once), wait.
    service = await startTestService({ HOLD_EXPIRY_INTERVAL_MS: '3600000', FLAG_EXPIRY_INTERVAL_MS: '3600000' });
  });
  afterAll(() => service?.stop());

  it('moves the sandbox a month forward in one call: the hold expired, the freeze ended, 30 days closed', async () => {
    const result = await runProcess('bash', ['examples/time-travel.sh'], {
      ...process.env,
      BASE: service.url,
      TOKEN: service.token,
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('Days closed: 30; holds voided: 1; flags lifted: 1');
    expect(result.stdout).toContain('Done.');
    expect(result.stdout).not.toMatch(/123-?45-?\d{4}/);
  }, 120_000);
});
