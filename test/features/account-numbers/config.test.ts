import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { abaRoutingNumberValid, DEFAULT_ROUTING_NUMBER } from '../../../src/features/account-numbers/index.js';
import { configProblems } from '../../support/config.js';

/**
 * ROUTING_NUMBERS (docs/adr/0107): each environment's ABA routing number, checked at startup. A value that is not
 * 9 digits, fails the ABA checksum (3-7-1) or is not `environment=digits` refuses the configuration with
 * ROUTING_NUMBER_INVALID; an environment it does not name answers 011000015.
 */
const env = (routingNumbers?: string) => ({
  ENVIRONMENTS: 'sandbox,production-like',
  ...(routingNumbers !== undefined && { ROUTING_NUMBERS: routingNumbers }),
});

function refused(routingNumbers: string): string[] {
  expect(() => loadConfig(env(routingNumbers))).toThrow(/^Invalid configuration:/);
  return configProblems(env(routingNumbers));
}

describe('ROUTING_NUMBERS', () => {
  it('answers 011000015 (a valid test routing number) for every environment by default', () => {
    expect(DEFAULT_ROUTING_NUMBER).toBe('011000015');
    expect(abaRoutingNumberValid('011000015')).toBe(true);
    expect(loadConfig(env()).accountNumbers.routingNumbers).toEqual({
      sandbox: '011000015',
      'production-like': '011000015',
    });
  });

  it('accepts valid numbers per environment, `*` for the others', () => {
    expect(loadConfig(env('production-like=021000021')).accountNumbers.routingNumbers).toEqual({
      sandbox: '011000015',
      'production-like': '021000021',
    });
    expect(loadConfig(env(' sandbox = 021000021 , *=011000028 ')).accountNumbers.routingNumbers).toEqual({
      sandbox: '021000021',
      'production-like': '011000028',
    });
  });

  it.each([
    ['a bad checksum', 'sandbox=021000022'],
    ['a bad checksum (a digit swapped)', 'sandbox=012000015'],
    ['eight digits', 'sandbox=01100001'],
    ['ten digits', 'sandbox=0110000150'],
    ['letters', 'sandbox=01100001X'],
    ['no environment', '=011000015'],
    ['no `=`', 'sandbox:011000015'],
    ['a bare number', '011000015'],
    ['an environment name with a space', 'sand box=011000015'],
    ['a bad entry among good ones', 'sandbox=011000015,production-like=021000022'],
  ])('refuses %s with ROUTING_NUMBER_INVALID, naming the variable', (_case, value) => {
    const problems = refused(value);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('ROUTING_NUMBERS');
    expect(problems[0]).toContain('ROUTING_NUMBER_INVALID');
  });

  it.each([
    ['an environment not in ENVIRONMENTS (a typo)', 'prodution-like=021000021', /not in ENVIRONMENTS: prodution-like/],
    ['one environment twice', 'sandbox=011000015,sandbox=021000021', /more than once: sandbox/],
  ])('refuses %s with ROUTING_NUMBER_INVALID', (_case, value, message) => {
    const problems = refused(value);
    expect(problems).toEqual([expect.stringMatching(message)]);
    expect(problems[0]).toMatch(/^ROUTING_NUMBER_INVALID: ROUTING_NUMBERS /);
  });

  it('checks the names against the default ENVIRONMENTS (sandbox) too', () => {
    expect(configProblems({ ROUTING_NUMBERS: 'sandbox=021000021' })).toEqual([]);
    expect(configProblems({ ROUTING_NUMBERS: 'production-like=021000021' })).toEqual([
      expect.stringContaining('ROUTING_NUMBER_INVALID'),
    ]);
  });
});
