import { z } from 'zod';

/**
 * The schemas of REST's own answers, around the resources of src/presenters/: the empty answer of a
 * deletion and the error body. The OpenAPI document is generated from them.
 */

export const emptyDataSchema = z.strictObject({}).describe('Deletions answer an empty object.');

export const errorDetailSchema = z
  .strictObject({
    field: z.string().optional().describe('The request field the problem is about (dotted path), when there is one.'),
    code: z
      .string()
      .describe(
        'REQUIRED, INVALID_TYPE, INVALID_FORMAT, INVALID_VALUE, TOO_LONG, TOO_SHORT, TOO_LARGE, TOO_SMALL, OUT_OF_RANGE, TOO_PRECISE (more decimals than the currency has), UNKNOWN_FIELD, NOT_ALLOWED_IN_URL, WEBHOOK_URL_NOT_ALLOWED, FIELD_NOT_UPDATABLE, FIELD_NOT_FOR_CUSTOMER_TYPE, TAX_ID_ALREADY_EXISTS, EXTERNAL_ID_TAKEN, CUSTOMER_NOT_FOUND, ACCOUNT_NOT_FOUND, or, for the relationships of an account, NOT_ASSOCIATED, OWNER_REQUIRED and ROLE_REQUIRES_INDIVIDUAL; for the refusals of a product (with a `value`), MINIMUM_BALANCE, AVAILABLE, DAILY_WITHDRAWAL_TOTAL, WITHDRAWALS_PER_MONTH, USED and MINIMUM_OPENING_DEPOSIT.',
      ),
    message: z.string().describe('How to fix it; never repeats a submitted value.'),
    value: z
      .string()
      .optional()
      .describe(
        "The amount or count the detail is about, as an exact decimal string: a product's minimum or limit, or what the account has or used (a product's refusals, docs/products.md).",
      ),
  })
  .describe('One problem of a failed request.');

export const errorBodySchema = z
  .strictObject({
    code: z.string().describe('Stable error code; each operation lists the codes it can answer, per status.'),
    message: z.string().describe('For developers; never repeats a submitted value.'),
    details: z.array(errorDetailSchema).optional(),
  })
  .describe('Why the request failed.');
