import { describe, expect, it } from 'vitest';
import { compareSettings, type SettingResult } from '../../bench/lib/compare-settings.js';

/** bench/compare-settings.ts: each cycle read against the comparator beside it, settings pooled across invocations. */

const run = (serverCpuUsPerRequest: number | null, peakRssMb: number | null = 200) => ({
  serverCpuUsPerRequest,
  peakRssMb,
});

function invocation(
  env: Record<string, string>,
  service: (number | null)[],
  floor: (number | null)[],
  mixed: number[],
  peak: number,
): SettingResult {
  return {
    options: { serviceEnv: env },
    serviceNodeFlags: ['--max-semi-space-size=12'],
    scenarios: [
      {
        scenario: 'rest-get-customer',
        contenders: [
          { name: 'service', runs: service.map((cpu, i) => run(cpu, i === 0 ? peak : 150)) },
          { name: 'batching-floor', runs: floor.map((cpu) => run(cpu, 90)) },
        ],
        ratios: [{ comparator: 'batching-floor' }],
      },
      { scenario: 'mixed', contenders: [{ name: 'service', runs: mixed.map((cpu) => run(cpu)) }], ratios: [] },
    ],
  };
}

describe('the settings comparison', () => {
  // Absolute CPU doubles in the second pair of invocations (a slower moment): per cycle against the floor, it cancels.
  const results = [
    invocation({ CAS_LOG: 'off' }, [200, 210, 190], [100, 100, 100], [300, 310, 290], 201),
    invocation({ CAS_LOG: 'on' }, [150, 160, 140, null], [100, 100, 100, 100], [250, 260, 240], 210),
    invocation({ CAS_LOG: 'off' }, [400, 420, 380], [200, 200, 200], [600, 620, 580], 205),
    invocation({ CAS_LOG: 'on' }, [300, 320, 280], [200, 200, 0], [500, 520, 480], 212),
  ];

  it('pools each setting`s cycles read against the floor beside them, and sets them against the baseline with an interval', () => {
    const table = compareSettings(results, 'CAS_LOG=off');
    expect(table).toContain('Baseline: `--max-semi-space-size=12 CAS_LOG=off`.');
    expect(table).toContain(
      '| rest-get-customer (÷ batching-floor) | `--max-semi-space-size=12 CAS_LOG=off` | 6 | 2.00 | — |',
    );
    // The cycle without service CPU and the one whose floor measured nothing are dropped: 5 cycles, median 1.5.
    expect(table).toMatch(
      /\| rest-get-customer \(÷ batching-floor\) \| `--max-semi-space-size=12 CAS_LOG=on` \| 5 \| 1\.50 \| 0\.75 \((0\.\d\d)–(0\.\d\d)\) \|/,
    );
    const [, low, high] = /CAS_LOG=on` \| 5 \| 1\.50 \| 0\.75 \((\d\.\d\d)–(\d\.\d\d)\)/.exec(table)!;
    expect(Number(low)).toBeLessThanOrEqual(0.75);
    expect(Number(high)).toBeGreaterThanOrEqual(0.75);
    expect(Number(high)).toBeLessThan(1);
  });

  it('shows the service`s own CPU where a scenario has no comparator, and each invocation`s peak RSS', () => {
    const table = compareSettings(results, 'CAS_LOG=off');
    expect(table).toContain('| mixed | `--max-semi-space-size=12 CAS_LOG=off` | 6 | 445 µs (no comparator) | — |');
    expect(table).toContain('| `--max-semi-space-size=12 CAS_LOG=off` | 201, 200, 205, 200 |');
    expect(table).toContain('| `--max-semi-space-size=12 CAS_LOG=on` | 210, 200, 212, 200 |');
  });

  it('takes the first setting as the baseline unless told, and refuses a baseline no setting matches', () => {
    expect(compareSettings(results)).toContain('Baseline: `--max-semi-space-size=12 CAS_LOG=off`.');
    expect(() => compareSettings(results, 'SEMI=8')).toThrow(/no setting matches --baseline SEMI=8/);
  });
});
