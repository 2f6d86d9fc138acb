import { z } from 'zod';
import { currencySchema } from '../accounts/index.js';
import { amountSchema } from '../ledger/index.js';
import { limitParameter } from '../../domain/pagination.js';
import { list, text, upperSnakeCase } from '../../domain/validation.js';
import { BALANCE_BASES, COMPOUNDINGS, DAY_COUNTS, MAX_TIERS, POSTINGS, RATE_DECIMALS } from './product.js';

/** docs/adr/0112: a code is short upper snake case (it names the product in account creation and URLs). */
export const PRODUCT_LIMITS = { codeLength: 32, nameLength: 100, accountTypeLength: 64, withdrawalsPerMonth: 1000 };

const RATE_MESSAGE = `Must be a decimal string from 0 to less than 1 with at most ${RATE_DECIMALS} decimals, e.g. "0.0425".`;

/**
 * A yearly rate as a fraction of 1 ("0.0425" is 4.25 %): a string, never a float, 0 ≤ rate < 1, at most 6 decimals.
 * The length aborts first, so the pattern never reads a long value.
 */
export const rateSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required.' : RATE_MESSAGE) })
  .max(2 + RATE_DECIMALS, { message: RATE_MESSAGE, abort: true })
  .regex(new RegExp(`^0(\\.\\d{1,${RATE_DECIMALS}})?$`), RATE_MESSAGE);

const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Must be one of ${values.join(', ')}.` });

/** A tier: from `minimumBalance` (inclusive, an amount of the product's currency; the first "0") on, `annualRate`. */
const tierSchema = z.strictObject({ minimumBalance: amountSchema, annualRate: rateSchema });

/** The rate's two forms, exactly one given: a flat `annualRate` or `tiers` (1 to 10, ascending, the first at "0"). */
const rateForms = {
  annualRate: rateSchema.optional(),
  tiers: list(tierSchema, MAX_TIERS, 1).optional(),
};

/** Exactly one of a rate's two forms: the issue names `annualRate`, the form a flat rate takes. */
const oneRateFormIssue = () => ({
  code: 'custom' as const,
  path: ['annualRate'],
  message: 'Give exactly one of annualRate and tiers.',
  params: { code: 'ONE_RATE_FORM' },
});
const oneRateForm = (input: { annualRate?: unknown; tiers?: unknown }): boolean =>
  (input.annualRate === undefined) !== (input.tiers === undefined);

const interestSchema = z
  .strictObject({
    ...rateForms,
    dayCount: enumOf(DAY_COUNTS),
    balanceBasis: enumOf(BALANCE_BASES),
    compounding: enumOf(COMPOUNDINGS),
    posting: enumOf(POSTINGS),
  })
  .superRefine((input, context) => {
    if (!oneRateForm(input)) context.addIssue(oneRateFormIssue());
  });

/** `POST /{environment}/product`'s body and GraphQL's `createProduct` input; amounts are checked by currency after. */
export const createProductSchema = z.strictObject({
  code: upperSnakeCase(PRODUCT_LIMITS.codeLength),
  name: text(PRODUCT_LIMITS.nameLength),
  accountType: upperSnakeCase(PRODUCT_LIMITS.accountTypeLength),
  currency: currencySchema,
  interest: interestSchema.optional(),
  fees: z
    .strictObject({
      monthlyMaintenance: z.strictObject({
        amount: amountSchema,
        waivedAtMinimumDailyBalance: amountSchema.optional(),
      }),
    })
    .optional(),
  minimumOpeningDeposit: amountSchema.optional(),
  minimumBalance: amountSchema.optional(),
  limits: z
    .strictObject({
      dailyWithdrawalTotal: amountSchema.optional(),
      withdrawalsPerMonth: z
        .number({ error: 'Must be a whole number.' })
        .int('Must be a whole number.')
        .min(1, 'Must be at least 1.')
        .max(PRODUCT_LIMITS.withdrawalsPerMonth, `Must be at most ${PRODUCT_LIMITS.withdrawalsPerMonth}.`)
        .optional(),
    })
    .optional(),
});

/** `POST …/product/{code}/rate`'s body: the new rate (one form) and the business date it applies from. */
export const changeProductRateSchema = z
  .strictObject({
    ...rateForms,
    effectiveFrom: z.iso.date({ error: 'Must be a date, YYYY-MM-DD.' }),
  })
  .superRefine((input, context) => {
    if (!oneRateForm(input)) context.addIssue(oneRateFormIssue());
  });

/** A product code in a path or a GraphQL argument: anything else names no product (404, not 422). */
export const isProductCode = (code: string): boolean =>
  code.length <= PRODUCT_LIMITS.codeLength && /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(code);

/** A page's cursor: the code of the previous page's last product. */
export const productCursorSchema = z
  .string({ error: 'Must be a string.' })
  .max(PRODUCT_LIMITS.codeLength, { message: 'Must be a code from a previous page.', abort: true })
  .refine(isProductCode, 'Must be a code from a previous page.');

export type CreateProductInput = z.output<typeof createProductSchema>;
export type ChangeProductRateInput = z.output<typeof changeProductRateSchema>;

/** Query of `GET /{environment}/product`: `limit` (1–100, default 20) and `after` (the `nextAfter` of the previous page). */
export const productPageQuerySchema = z.strictObject({
  limit: limitParameter.optional(),
  after: productCursorSchema.optional(),
});
