/**
 * The monthly maintenance fee of deposit products (docs/adr/0115): the records the end of day writes and the API
 * answers, and the little arithmetic the service does on exact decimal text (never floats).
 */

/** What an assessment did: waived (nothing charged), charged (all or part of the fee), or nothing could be charged. */
export type AssessmentOutcome = 'WAIVED' | 'CHARGED' | 'UNCOLLECTED';

/** One month's assessment of an account, as GET /{environment}/account/{accountId}/fees answers it. */
export interface MaintenanceFeeAssessment {
  accountId: string;
  /** YYYY-MM: the month assessed (on its last business date). */
  month: string;
  /** The lowest end-of-day posted balance of the month's days the account existed. */
  minimumDailyBalance: string;
  /** The product's fee as applied. */
  fee: string;
  /** The product's waiver threshold as applied; null: never waived. */
  waivedAtMinimumDailyBalance: string | null;
  outcome: AssessmentOutcome;
  /** Posted to the account (0 unless CHARGED). */
  charged: string;
  /** What did not fit within the overdraft limit, or was refused by the ledger; recorded, never posted later. */
  uncollected: string;
  /** The account's side of the fee's posting; null when nothing was posted. */
  transactionId: string | null;
}

/** The last date of `date`'s month (YYYY-MM-DD). */
export const monthEndOf = (date: string): string => {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
};

/** The first date of `date`'s month (YYYY-MM-DD). */
export const monthStartOf = (date: string): string => `${date.slice(0, 7)}-01`;

/**
 * Whether `date` is its month's last business date. Every calendar day is a business date (docs/adr/0102), so it is
 * the month's last calendar day, in the environment's time zone, as interest posting decides a month's end.
 */
export const isMonthEnd = (date: string): boolean => monthEndOf(date) === date;

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,12}))?$/;
const SCALE = 12;

/** Exact decimal text as an integer of 10^-12 units. */
function units(text: string): bigint {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error('not a decimal');
  const [, sign, whole, fraction = ''] = match;
  const value = BigInt(`${whole}${fraction.padEnd(SCALE, '0')}`);
  return sign === '-' ? -value : value;
}

/** Whether the fee is waived: a threshold is set and the month's minimum daily balance reached it (≥). */
export function isWaived(minimumDailyBalance: string, waivedAt: string | null): boolean {
  return waivedAt !== null && units(minimumDailyBalance) >= units(waivedAt);
}

/** Whether decimal text is greater than zero. */
export const isPositive = (text: string): boolean => units(text) > 0n;

/** The smaller of two decimal texts (exact). */
export const lesserOf = (a: string, b: string): string => (units(a) <= units(b) ? a : b);
