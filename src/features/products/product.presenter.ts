import { z } from 'zod';
import type { Page } from '../../domain/pagination.js';
import { recordId } from '../../presenters/record-id.js';
import {
  BALANCE_BASES,
  COMPOUNDINGS,
  DAY_COUNTS,
  POSTINGS,
  type Product,
  type ProductRate,
  RATE_HISTORY_LIMIT,
} from './product.js';

/**
 * What leaves the service of a deposit product (docs/adr/0112): strict schemas the OpenAPI document is generated
 * from, and presenters mapping the domain's product onto them field by field. Rates and amounts are decimal strings.
 */
const decimal = (what: string) => z.string().describe(what);

const tierSchema = z
  .strictObject({
    minimumBalance: decimal('From this balance on (inclusive), in the currency; the first tier is "0".'),
    annualRate: decimal('The yearly rate as a fraction of 1 ("0.0425" is 4.25 %).'),
  })
  .describe('A balance tier.');

const rateSchema = z
  .strictObject({
    effectiveFrom: z.iso.date().describe('The business date (YYYY-MM-DD) the rate applies from.'),
    annualRate: decimal('A flat yearly rate as a fraction of 1; null when the rate is tiered.').nullable(),
    tiers: z.array(tierSchema).nullable().describe('Balance tiers, ascending; null for a flat rate.'),
  })
  .describe('A rate from a business date on, until the next rate.');

export const productDataSchema = z
  .strictObject({
    productId: recordId,
    code: z.string().describe("The product's code, unique in the environment for ever."),
    name: z.string(),
    accountType: z.string().describe('The `type` of the accounts opened on it (CHECKING, SAVINGS, …).'),
    currency: z.string().describe('ISO 4217: the currency of its accounts and of every amount here.'),
    interest: z
      .strictObject({
        dayCount: z.enum(DAY_COUNTS),
        balanceBasis: z.enum(BALANCE_BASES),
        compounding: z.enum(COMPOUNDINGS),
        posting: z.enum(POSTINGS),
        rate: rateSchema.nullable().describe("The rate in force on the environment's business date."),
        rateHistory: z
          .array(rateSchema)
          .describe(`Its rates, scheduled ones included, newest date first (at most ${RATE_HISTORY_LIMIT}).`),
      })
      .nullable()
      .describe('Null for a product that pays no interest.'),
    fees: z
      .strictObject({
        monthlyMaintenance: z.strictObject({
          amount: decimal('The monthly maintenance fee.'),
          waivedAtMinimumDailyBalance: decimal(
            'Waived for a month whose lowest daily balance is at least this; null: never.',
          ).nullable(),
        }),
      })
      .nullable()
      .describe('Null: no fees.'),
    minimumOpeningDeposit: decimal('The first deposit an account needs; null: none.').nullable(),
    minimumBalance: decimal('The balance an account should keep; null: none.').nullable(),
    limits: z
      .strictObject({
        dailyWithdrawalTotal: decimal('The most withdrawn per business date; null: no limit.').nullable(),
        withdrawalsPerMonth: z.number().int().nullable().describe('The most withdrawals per month; null: no limit.'),
      })
      .nullable()
      .describe('Stored and answered; not enforced yet (docs/products.md). Null: none.'),
    createdAt: z.iso.datetime().describe('When the product was defined, ISO 8601 UTC.'),
  })
  .describe('A deposit product: the terms accounts are opened on. It never changes but for its rate, forward.');

export const productPageDataSchema = z
  .strictObject({
    products: z.array(productDataSchema).describe('By code.'),
    nextAfter: z.string().nullable().describe('Pass as `after` for the next page; null on the last page.'),
  })
  .describe('A page of products.');

const presentRate = (rate: ProductRate): z.output<typeof rateSchema> => ({
  effectiveFrom: rate.effectiveFrom,
  annualRate: rate.annualRate,
  tiers: rate.tiers
    ? rate.tiers.map((tier) => ({ minimumBalance: tier.minimumBalance, annualRate: tier.annualRate }))
    : null,
});

export const presentProduct = (product: Product): z.output<typeof productDataSchema> => ({
  productId: product.productId,
  code: product.code,
  name: product.name,
  accountType: product.accountType,
  currency: product.currency,
  interest: product.interest
    ? {
        dayCount: product.interest.dayCount,
        balanceBasis: product.interest.balanceBasis,
        compounding: product.interest.compounding,
        posting: product.interest.posting,
        rate: product.rate ? presentRate(product.rate) : null,
        rateHistory: product.rates.map(presentRate),
      }
    : null,
  fees: product.monthlyMaintenanceFee
    ? {
        monthlyMaintenance: {
          amount: product.monthlyMaintenanceFee.amount,
          waivedAtMinimumDailyBalance: product.monthlyMaintenanceFee.waivedAtMinimumDailyBalance,
        },
      }
    : null,
  minimumOpeningDeposit: product.minimumOpeningDeposit,
  minimumBalance: product.minimumBalance,
  limits: product.limits
    ? {
        dailyWithdrawalTotal: product.limits.dailyWithdrawalTotal,
        withdrawalsPerMonth: product.limits.withdrawalsPerMonth,
      }
    : null,
  createdAt: product.createdAt,
});

export const presentProductPage = (page: Page<Product>): z.output<typeof productPageDataSchema> => ({
  products: page.items.map(presentProduct),
  nextAfter: page.nextAfter,
});
