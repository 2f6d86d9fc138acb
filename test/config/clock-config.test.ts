import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { configProblems } from '../support/config.js';

/** The problems loadConfig reports for `env`; fails the test if it accepts it. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  expect(() => loadConfig(env)).toThrow(/^Invalid configuration:/);
  return configProblems(env);
}

describe('environment clocks (ENVIRONMENT_TIME_ZONES, ADJUSTABLE_CLOCK_ENVIRONMENTS)', () => {
  it('defaults: every environment in New York time, the sandbox adjustable, a minute between end-of-day checks', () => {
    expect(loadConfig({ ENVIRONMENTS: 'sandbox,live' }).clock).toEqual({
      timeZones: { sandbox: 'America/New_York', live: 'America/New_York' },
      adjustable: ['sandbox'],
      endOfDayIntervalMs: 60_000,
      endOfDayLeaseMs: 60_000,
    });
  });

  it('gives each named environment its zone and the others the * entry', () => {
    const config = loadConfig({
      ENVIRONMENTS: 'sandbox,live,staging',
      ENVIRONMENT_TIME_ZONES: 'sandbox=America/Los_Angeles, *=Europe/Berlin',
      ADJUSTABLE_CLOCK_ENVIRONMENTS: 'sandbox,staging',
    });
    expect(config.clock.timeZones).toEqual({
      sandbox: 'America/Los_Angeles',
      live: 'Europe/Berlin',
      staging: 'Europe/Berlin',
    });
    expect(config.clock.adjustable).toEqual(['sandbox', 'staging']);
  });

  it('refuses at startup an adjustable production, an unknown zone, and an entry that is no name=zone', () => {
    expect(problemsOf({ ADJUSTABLE_CLOCK_ENVIRONMENTS: 'sandbox,production' })).toEqual([
      'ADJUSTABLE_CLOCK_ENVIRONMENTS: ADJUSTABLE_CLOCK_ENVIRONMENTS must never list production: its time is the real time',
    ]);
    expect(problemsOf({ ENVIRONMENT_TIME_ZONES: 'sandbox=Mars/Olympus_Mons' })).toEqual([
      'ENVIRONMENT_TIME_ZONES: ENVIRONMENT_TIME_ZONES must name IANA time zones (e.g. America/New_York)',
    ]);
    expect(problemsOf({ ENVIRONMENT_TIME_ZONES: 'America/Chicago' })).toEqual([
      'ENVIRONMENT_TIME_ZONES: ENVIRONMENT_TIME_ZONES entries must look like environment=Area/City (or *=Area/City for every other environment)',
    ]);
  });
});
