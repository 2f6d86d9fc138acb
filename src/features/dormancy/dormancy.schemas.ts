import { z } from 'zod';
import { isRecordId } from '../../domain/ids.js';
import { limitParameter } from '../../domain/pagination.js';
import { maxLength } from '../../domain/validation.js';
import { ESCHEATMENT_STATES } from './escheatment-periods.js';

/** Unless configured (INACTIVE_AFTER_DAYS, DORMANT_AFTER_DAYS, ESCHEATMENT_NOTICE_DAYS: src/config/dormancy.ts). */
export const DEFAULT_DORMANCY_SETTINGS = {
  inactiveAfterDays: 365,
  dormantAfterDays: 730,
  escheatmentNoticeDays: 120,
} as const;

/** Reactivating takes nothing (the body is optional); an unknown field is refused all the same. */
export const reactivateAccountSchema = z.strictObject({});

/** `GET /{environment}/escheatment`: `asOf` (default: the business date), `state`, and the page (`limit`, `after`). */
export const escheatmentQuerySchema = z.strictObject({
  // From 1970: no account's activity is older, and earlier dates are outside what the zone arithmetic handles.
  asOf: z.iso
    .date({ error: 'Must be a date, YYYY-MM-DD.' })
    .refine((date) => date >= '1970-01-01', 'Must be a date from 1970-01-01 on.')
    .optional(),
  state: z.enum(ESCHEATMENT_STATES, { error: 'Must be the USPS code of a US state or DC, e.g. NY.' }).optional(),
  limit: limitParameter.optional(),
  after: z
    .string({ error: 'Must be a string.' })
    .max(36, maxLength(36, 'Must be an accountId from a previous page.'))
    .refine(isRecordId, 'Must be an accountId from a previous page.')
    .optional(),
});
export type EscheatmentQueryInput = z.input<typeof escheatmentQuerySchema>;
