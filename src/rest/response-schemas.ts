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
        'REQUIRED, INVALID_TYPE, INVALID_FORMAT, INVALID_VALUE, TOO_LONG, TOO_SHORT, TOO_LARGE, TOO_SMALL, OUT_OF_RANGE, TOO_PRECISE (more decimals than the currency has), UNKNOWN_FIELD, WEBHOOK_URL_NOT_ALLOWED, FIELD_NOT_UPDATABLE, CUSTOMER_NOT_FOUND or ACCOUNT_NOT_FOUND.',
      ),
    message: z.string().describe('How to fix it; never repeats a submitted value.'),
  })
  .describe('One problem of a failed request.');

export const errorBodySchema = z
  .strictObject({
    code: z.string().describe('Stable error code; each operation lists the codes it can answer, per status.'),
    message: z.string().describe('For developers; never repeats a submitted value.'),
    details: z.array(errorDetailSchema).optional(),
  })
  .describe('Why the request failed.');
