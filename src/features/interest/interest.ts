import type { Compounding, DayCount, Posting } from '../products/index.js';

/**
 * Interest on deposit products (docs/adr/0113): the arithmetic the database does not do. Each day's accrual is
 * computed by the accrual statement in NUMERIC, kept to ACCRUAL_DECIMALS; a period's posting rounds the sum half-even
 * to the currency's minor unit here, exactly, on decimal text (BigInt), and the residue is carried.
 */

/** Decimal places each day's accrual is kept to (interest_accruals.amount, NUMERIC(30,12)). */
export const ACCRUAL_DECIMALS = 12;

/** What GET /{environment}/account/{accountId}/interest answers. Amounts and rates are exact decimal strings. */
export interface InterestSummary {
  productCode: string;
  /** The rate in force on the environment's business date for the account's posted balance (its tier's). */
  annualRate: string;
  /** Reg DD Appendix A, as a fraction of 1 rounded to 4 decimals (a percentage to 2): "0.0434" is 4.34 %. */
  annualPercentageYield: string;
  /** Interest accrued and not posted yet (the residue carried included), to ACCRUAL_DECIMALS at most. */
  accruedUnpaid: string;
  /** YYYY-MM-DD; null before the first accrual. */
  lastAccrualDate: string | null;
  /** The last period end posted (YYYY-MM-DD); null before the first. */
  lastPostingDate: string | null;
  /** Interest credited in the calendar year of the environment's business date. */
  paidYearToDate: string;
}

/** What the store reads for the summary; the APY is computed from it. */
export interface InterestState extends Omit<InterestSummary, 'annualPercentageYield'> {
  dayCount: DayCount;
  compounding: Compounding;
  posting: Posting;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** `text` (exact decimal) rounded half-even to `digits` decimals, as decimal text without trailing zeros. */
export function roundHalfEven(text: string, digits: number): string {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error('not a decimal');
  const [, sign, whole, fraction = ''] = match;
  const scaled = BigInt(`${whole}${fraction}`);
  const drop = fraction.length - digits;
  let kept: bigint;
  if (drop <= 0) kept = scaled * 10n ** BigInt(-drop);
  else {
    const unit = 10n ** BigInt(drop);
    kept = scaled / unit;
    const rest = (scaled % unit) * 2n;
    if (rest > unit || (rest === unit && kept % 2n === 1n)) kept += 1n;
  }
  return decimalText(sign === '-' && kept !== 0n ? -kept : kept, digits);
}

/** A scaled integer as decimal text without trailing zeros ("0" for zero). */
function decimalText(value: bigint, digits: number): string {
  const negative = value < 0n;
  const digitsText = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const whole = digitsText.slice(0, digitsText.length - digits);
  const fraction = digitsText.slice(digitsText.length - digits).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The last date of `date`'s month (YYYY-MM-DD). */
const monthEnd = (date: string): string => {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
};

/** Whether `date` ends a posting period: a calendar month's last date, or March's, June's, September's, December's. */
export function isPeriodEnd(date: string, posting: Posting): boolean {
  if (monthEnd(date) !== date) return false;
  return posting === 'MONTHLY' || [3, 6, 9, 12].includes(Number(date.slice(5, 7)));
}

/** Whether `date` ends a period of any posting: the end of day's posting step has work only on such dates. */
export const isMonthEnd = (date: string): boolean => monthEnd(date) === date;

const SCALE = 10n ** 30n;

/** `text` (a non-negative decimal of at most 30 decimals) as an integer scaled by SCALE. */
function scaled(text: string): bigint {
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(30, '0').slice(0, 30));
}

function power(base: bigint, exponent: number): bigint {
  let result = SCALE;
  let square = base;
  for (let e = exponent; e > 0; e >>= 1) {
    if (e & 1) result = (result * square) / SCALE;
    square = (square * square) / SCALE;
  }
  return result;
}

/**
 * The annual percentage yield of a stated rate (Reg DD, 12 CFR 1030 Appendix A, Part I): compounded daily,
 * (1 + r/365)^365 − 1 (an ACTUAL_360 product: (1 + r/360)^365 − 1, its daily rate over a 365-day year), monthly
 * (1 + r/12)^12 − 1; as a fraction of 1 rounded half-up to 4 decimals (a percentage to 2, as Reg DD states it).
 */
export function annualPercentageYield(annualRate: string, compounding: Compounding, dayCount: DayCount): string {
  const rate = scaled(annualRate);
  const [periods, perYear] =
    compounding === 'MONTHLY' ? [12, 12n] : dayCount === 'ACTUAL_360' ? [365, 360n] : [365, 365n];
  const growth = power(SCALE + rate / perYear, periods) - SCALE;
  // Half-up at 4 decimals: add half a unit of the 4th decimal, truncate.
  const unit = SCALE / 10_000n;
  return decimalText((growth + unit / 2n) / unit, 4);
}

/**
 * Reg DD Appendix A's general formula, APY = 100 [(1 + Interest/Principal)^(365/Days in term) − 1], as a fraction of 1
 * rounded to 4 decimals: what an account earned over a term (its statement's "annual percentage yield earned").
 */
export function annualPercentageYieldEarned(interest: string, principal: string, days: number): string {
  const apy = Math.pow(1 + Number(interest) / Number(principal), 365 / days) - 1;
  return roundHalfEven(apy.toFixed(12), 4);
}
