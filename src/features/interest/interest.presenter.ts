import { z } from 'zod';
import type { InterestSummary } from './interest.js';

/**
 * What leaves the service of an account's interest (docs/adr/0113): the strict schema the OpenAPI document is
 * generated from, and its presenter. Rates and amounts are exact decimal strings, never floats.
 */
const decimal = (what: string) => z.string().describe(what);
const date = (what: string) => z.iso.date().nullable().describe(what);

export const interestDataSchema = z
  .strictObject({
    productCode: z.string().describe("The code of the account's deposit product."),
    annualRate: decimal(
      "The rate in force on the environment's business date for the account's posted balance (the tier it reached), a fraction of 1.",
    ),
    annualPercentageYield: decimal(
      'Reg DD (12 CFR 1030, Appendix A) annual percentage yield of that rate with the product\'s compounding, a fraction of 1 to 4 decimals ("0.0434" is 4.34 %).',
    ),
    accruedUnpaid: decimal(
      'Interest accrued and not posted yet, the rounding residue carried from the last posting included (to 12 decimals at most).',
    ),
    lastAccrualDate: date('The last business date accrued; null before the first.'),
    lastPostingDate: date("The last posting period's end; null before the first."),
    paidYearToDate: decimal("Interest posted in the calendar year of the environment's business date."),
  })
  .describe("An account's interest.");

export type InterestData = z.infer<typeof interestDataSchema>;

export const presentInterest = (interest: InterestSummary): InterestData => ({
  productCode: interest.productCode,
  annualRate: interest.annualRate,
  annualPercentageYield: interest.annualPercentageYield,
  accruedUnpaid: interest.accruedUnpaid,
  lastAccrualDate: interest.lastAccrualDate,
  lastPostingDate: interest.lastPostingDate,
  paidYearToDate: interest.paidYearToDate,
});
