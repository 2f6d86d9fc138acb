/**
 * Deposit products (docs/adr/0112): the terms an account is opened on. Rates are exact decimal strings (a fraction
 * of 1 a year: "0.0425" is 4.25 %), amounts decimal strings in the product's currency, as the ledger keeps them.
 * A product never changes once defined, but for its rate, which changes only forward, from a later business date.
 */
export const DAY_COUNTS = ['ACTUAL_365', 'ACTUAL_360', 'ACTUAL_ACTUAL'] as const;
export type DayCount = (typeof DAY_COUNTS)[number];
export const BALANCE_BASES = ['END_OF_DAY', 'AVERAGE_DAILY'] as const;
export type BalanceBasis = (typeof BALANCE_BASES)[number];
export const COMPOUNDINGS = ['DAILY', 'MONTHLY'] as const;
export type Compounding = (typeof COMPOUNDINGS)[number];
export const POSTINGS = ['MONTHLY', 'QUARTERLY'] as const;
export type Posting = (typeof POSTINGS)[number];

/** A rate's bounds: 0 ≤ rate < 1, at most 6 decimals (NUMERIC(7,6)); at most 10 tiers. */
export const RATE_DECIMALS = 6;
export const MAX_TIERS = 10;
/** How many of a product's rates an answer shows, newest effective date first (the one in force is answered besides). */
export const RATE_HISTORY_LIMIT = 24;

/** A balance tier: from `minimumBalance` (inclusive) up to the next tier's, `annualRate` applies. */
export interface RateTier {
  minimumBalance: string;
  annualRate: string;
}

/** A rate from a business date on: a flat `annualRate` or `tiers` (exactly one of them). */
export interface ProductRate {
  /** YYYY-MM-DD, a business date of the environment. */
  effectiveFrom: string;
  annualRate: string | null;
  tiers: RateTier[] | null;
}

export interface InterestTerms {
  dayCount: DayCount;
  balanceBasis: BalanceBasis;
  compounding: Compounding;
  posting: Posting;
}

export interface Product {
  productId: string;
  code: string;
  name: string;
  accountType: string;
  currency: string;
  /** Null for a product that pays no interest. */
  interest: InterestTerms | null;
  /** The rate in force on the business date the product was read; null without interest. */
  rate: ProductRate | null;
  /** Its rates, newest effective date first, at most RATE_HISTORY_LIMIT (scheduled ones included). */
  rates: ProductRate[];
  monthlyMaintenanceFee: { amount: string; waivedAtMinimumDailyBalance: string | null } | null;
  minimumOpeningDeposit: string | null;
  minimumBalance: string | null;
  limits: { dailyWithdrawalTotal: string | null; withdrawalsPerMonth: number | null } | null;
  /** ISO 8601 UTC. */
  createdAt: string;
}
