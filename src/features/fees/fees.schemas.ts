import { z } from 'zod';
import { limitParameter } from '../../domain/pagination.js';

/** A month as the fee list names it and pages by: YYYY-MM (months 01–12). */
export const FEE_MONTH = z
  .string({ error: 'Must be a month (YYYY-MM) from a previous page.' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Must be a month (YYYY-MM) from a previous page.');

/** Query of `GET …/account/{accountId}/fees`: `limit` (1–100, default 20) and `after` (the `nextAfter` of the previous page). */
export const feePageQuerySchema = z.strictObject({
  limit: limitParameter.optional(),
  after: FEE_MONTH.optional(),
});
