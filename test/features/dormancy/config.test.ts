import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { configProblems } from '../../support/config.js';

describe('INACTIVE_AFTER_DAYS, DORMANT_AFTER_DAYS, ESCHEATMENT_NOTICE_DAYS', () => {
  it('default to 365, 730 and 120 days and take whole numbers of days', () => {
    expect(loadConfig({}).dormancy).toEqual({
      inactiveAfterDays: 365,
      dormantAfterDays: 730,
      escheatmentNoticeDays: 120,
    });
    expect(
      loadConfig({ INACTIVE_AFTER_DAYS: '30', DORMANT_AFTER_DAYS: '31', ESCHEATMENT_NOTICE_DAYS: '0' }).dormancy,
    ).toEqual({ inactiveAfterDays: 30, dormantAfterDays: 31, escheatmentNoticeDays: 0 });
  });

  it('refuses at startup a value out of range or not a whole number', () => {
    for (const [name, value] of [
      ['INACTIVE_AFTER_DAYS', '0'],
      ['INACTIVE_AFTER_DAYS', '1.5'],
      ['DORMANT_AFTER_DAYS', '7301'],
      ['DORMANT_AFTER_DAYS', 'two years'],
      ['ESCHEATMENT_NOTICE_DAYS', '-1'],
      ['ESCHEATMENT_NOTICE_DAYS', '731'],
    ] as const)
      expect(configProblems({ [name]: value })).toEqual([expect.stringMatching(new RegExp(`^${name}: `))]);
  });

  it('refuses at startup DORMANT_AFTER_DAYS not after INACTIVE_AFTER_DAYS', () => {
    for (const [inactive, dormant] of [
      ['400', '400'],
      ['400', '365'],
    ])
      expect(configProblems({ INACTIVE_AFTER_DAYS: inactive, DORMANT_AFTER_DAYS: dormant })).toEqual([
        expect.stringMatching(/^DORMANT_AFTER_DAYS \(\d+\) must be more than INACTIVE_AFTER_DAYS/),
      ]);
    // Only DORMANT_AFTER_DAYS given: measured against the default INACTIVE_AFTER_DAYS.
    expect(configProblems({ DORMANT_AFTER_DAYS: '300' })).toHaveLength(1);
  });
});
