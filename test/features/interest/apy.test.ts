import { describe, expect, it } from 'vitest';
import {
  annualPercentageYield,
  annualPercentageYieldEarned,
  isPeriodEnd,
  roundHalfEven,
} from '../../../src/features/interest/index.js';

/**
 * The arithmetic of interest the database does not do (docs/adr/0113): half-even rounding of an accrued amount to the
 * currency's minor unit, Reg DD's annual percentage yield (12 CFR 1030, Appendix A), posting period ends.
 */

describe('roundHalfEven', () => {
  it('rounds to the nearest, a tie to the even digit, exactly on decimal text', () => {
    expect(roundHalfEven('13.698630136986', 2)).toBe('13.7');
    expect(roundHalfEven('0.125', 2)).toBe('0.12');
    expect(roundHalfEven('0.135', 2)).toBe('0.14');
    expect(roundHalfEven('0.1250000000001', 2)).toBe('0.13');
    expect(roundHalfEven('0.004999999999', 2)).toBe('0');
    expect(roundHalfEven('2.5', 0)).toBe('2');
    expect(roundHalfEven('3.5', 0)).toBe('4');
    expect(roundHalfEven('1.0005', 3)).toBe('1');
    expect(roundHalfEven('-0.125', 2)).toBe('-0.12');
    expect(roundHalfEven('7', 2)).toBe('7');
    // Beyond any float's precision.
    expect(roundHalfEven('123456789012345678.005000000001', 2)).toBe('123456789012345678.01');
  });
});

describe('annual percentage yield (Reg DD Appendix A)', () => {
  it("Part I's general formula: the appendix's worked examples", () => {
    // $61.68 on $1,000 over a 365-day year: 6.17 %.
    expect(annualPercentageYieldEarned('61.68', '1000', 365)).toBe('0.0617');
    // $30.37 on a $1,000 six-month certificate of 182 days: 6.18 %.
    expect(annualPercentageYieldEarned('30.37', '1000', 182)).toBe('0.0618');
    // Part II (APY earned): $5.25 on an average daily balance of $1,000 over a 30-day period: 6.58 %.
    expect(annualPercentageYieldEarned('5.25', '1000', 30)).toBe('0.0658');
  });

  it('a stated rate compounded daily or monthly, to two decimals of a percent', () => {
    // (1 + 0.05/365)^365 - 1 = 0.051267…; (1 + 0.0425/365)^365 - 1 = 0.043413…; (1 + 0.0425/12)^12 - 1 = 0.043338…
    expect(annualPercentageYield('0.05', 'DAILY', 'ACTUAL_365')).toBe('0.0513');
    expect(annualPercentageYield('0.0425', 'DAILY', 'ACTUAL_365')).toBe('0.0434');
    expect(annualPercentageYield('0.0425', 'MONTHLY', 'ACTUAL_365')).toBe('0.0433');
    // A 360-day year's daily rate over 365 days: (1 + 0.05/360)^365 - 1 = 0.051997…
    expect(annualPercentageYield('0.05', 'DAILY', 'ACTUAL_360')).toBe('0.052');
    expect(annualPercentageYield('0', 'DAILY', 'ACTUAL_365')).toBe('0');
    // The stated rate is the yield when interest compounds once a year: the general formula agrees.
    expect(annualPercentageYieldEarned('50', '1000', 365)).toBe('0.05');
  });

  it('agrees with the general formula applied to a year of the compounded interest', () => {
    for (const rate of ['0.001', '0.0199', '0.0375', '0.0499', '0.12']) {
      const daily = (1 + Number(rate) / 365) ** 365 - 1;
      expect(annualPercentageYield(rate, 'DAILY', 'ACTUAL_ACTUAL')).toBe(
        annualPercentageYieldEarned((daily * 1000).toFixed(9), '1000', 365),
      );
    }
  });
});

describe('posting period ends', () => {
  it('a month ends on its last date; a quarter in March, June, September, December', () => {
    expect(isPeriodEnd('2027-01-31', 'MONTHLY')).toBe(true);
    expect(isPeriodEnd('2027-01-30', 'MONTHLY')).toBe(false);
    expect(isPeriodEnd('2027-02-28', 'MONTHLY')).toBe(true);
    expect(isPeriodEnd('2028-02-28', 'MONTHLY')).toBe(false);
    expect(isPeriodEnd('2028-02-29', 'MONTHLY')).toBe(true);
    expect(isPeriodEnd('2027-01-31', 'QUARTERLY')).toBe(false);
    expect(isPeriodEnd('2027-03-31', 'QUARTERLY')).toBe(true);
    expect(isPeriodEnd('2026-12-31', 'QUARTERLY')).toBe(true);
    expect(isPeriodEnd('2027-06-30', 'QUARTERLY')).toBe(true);
  });
});
