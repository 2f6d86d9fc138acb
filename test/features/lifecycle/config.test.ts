import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { configProblems } from '../../support/config.js';

describe('ACCOUNT_REOPEN_WINDOW_DAYS', () => {
  it('defaults to 30 days and takes a whole number of days from 1 to 3650', () => {
    expect(loadConfig({}).lifecycle).toEqual({ reopenWindowDays: 30 });
    expect(loadConfig({ ACCOUNT_REOPEN_WINDOW_DAYS: '90' }).lifecycle).toEqual({ reopenWindowDays: 90 });
  });

  it('refuses at startup anything else', () => {
    for (const value of ['0', '3651', '1.5', 'thirty'])
      expect(configProblems({ ACCOUNT_REOPEN_WINDOW_DAYS: value })).toEqual([
        expect.stringMatching(/^ACCOUNT_REOPEN_WINDOW_DAYS: /),
      ]);
  });
});
