import { z } from 'zod';
import { instantSchema as instant } from '../../domain/validation.js';

/** Days one advance may move at most by `days` (three years, a leap day included); `to` is held to three calendar years. */
export const MAX_ADVANCE_DAYS = 1096;
/** Business dates one read of the end of day lists at most. */
export const MAX_END_OF_DAY_DATES = 366;

const date = z.iso.date({ error: 'Must be a date, YYYY-MM-DD.' });

/** `POST /{environment}/clock/advance`: to an instant (`to`) or by whole days of 24 hours (`days`), one of them. */
export const clockAdvanceSchema = z
  .strictObject({
    to: instant.optional(),
    days: z
      .number({ error: 'Must be a whole number of days.' })
      .int('Must be a whole number of days.')
      .min(1, 'Must be at least 1.')
      .max(MAX_ADVANCE_DAYS, `Must be at most ${MAX_ADVANCE_DAYS} (three years).`)
      .optional(),
  })
  .refine((input) => (input.to === undefined) !== (input.days === undefined), {
    message: 'Give exactly one of to and days.',
    path: ['to'],
  });
export type ClockAdvanceInput = z.input<typeof clockAdvanceSchema>;

/** `GET /{environment}/end-of-day`: the business dates [from, to], both included (absent: the last 31 up to today). */
export const endOfDayQuerySchema = z
  .strictObject({ from: date.optional(), to: date.optional() })
  .refine((range) => range.from === undefined || range.to === undefined || range.from <= range.to, {
    message: 'from must not be after to.',
    path: ['from'],
  });
export interface EndOfDayRange {
  from?: string | undefined;
  to?: string | undefined;
}
