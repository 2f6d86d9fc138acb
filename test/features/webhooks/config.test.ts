import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { configProblems } from '../../support/config.js';

describe('webhook configuration', () => {
  it('defaults to the Standard Webhooks schedule, 10 s time-outs, a 24 h overlap and no private networks', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivateNetworks: false,
      timeoutMs: 10_000,
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      secretOverlapMs: 86_400_000,
      pollIntervalMs: 1000,
      concurrency: 10,
      maxEndpointsPerEnvironment: 16,
      allowedPorts: [443, 80, 8443],
      requireHttps: false,
    });
    expect(loadConfig({ WEBHOOKS_RETRY_SCHEDULE: '250ms, 2s,1m' }).webhooks.retryScheduleMs).toEqual([
      250, 2000, 60_000,
    ]);
  });

  it('refuses private networks in production, and malformed schedules', () => {
    expect(
      configProblems({
        NODE_ENV: 'production',
        API_TOKENS: 'a-LU2SQR2HESN5RObDWvaw15lYDAlFQteSVsLeuNlhP5w_R1PZGH5aI5iC5hcnXfOucT-rSO8GG3PXK8hY2OfAIYI',
        WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      }),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^WEBHOOKS_ALLOW_PRIVATE_NETWORKS must not be true in production/),
      ]),
    );
    expect(configProblems({ WEBHOOKS_RETRY_SCHEDULE: '5 seconds' })).toEqual([
      expect.stringMatching(/WEBHOOKS_RETRY_SCHEDULE must be/),
    ]);
    expect(configProblems({ WEBHOOKS_RETRY_SCHEDULE: '25h' })).toEqual([expect.stringMatching(/at most 24h/)]);
  });
});
