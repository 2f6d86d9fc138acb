import { z } from 'zod';
import { maxLength, text } from '../../domain/validation.js';

/** The FinCEN CDD rule's two prongs (31 CFR 1010.230): owning 25 % or more, and significant control. */
export const PRONGS = ['OWNERSHIP', 'CONTROL'] as const;
export type Prong = (typeof PRONGS)[number];

/**
 * docs/adr/0094: a business has at most this many beneficial owners (the rule asks for at most five). A person's
 * `beneficialOwnerOf` (docs/adr/0097) answers at most `ownershipsListed` businesses, the oldest first.
 */
export const BENEFICIAL_OWNER_LIMITS = { owners: 50, titleLength: 100, ownershipsListed: 100 } as const;

/** 0 to 100, at most two decimal places, as a string: read by PostgreSQL as numeric, never as a float. */
export const PERCENTAGE_PATTERN = /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/;

export const addBeneficialOwnerSchema = z
  .strictObject({
    customerId: z
      .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
      .max(64, maxLength(64)),
    prongs: z
      .array(z.enum(PRONGS, { error: `Must be one of ${PRONGS.join(', ')}.` }), {
        error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be an array.'),
      })
      .min(1, 'Must contain at least one item.')
      .max(PRONGS.length, maxLength(PRONGS.length, `Must contain at most ${PRONGS.length} items.`))
      .refine((prongs) => new Set(prongs).size === prongs.length, 'Must not name a prong twice.'),
    ownershipPercentage: z
      .string({ error: 'Must be a decimal string, e.g. "25" or "33.33".' })
      .max(6, maxLength(6))
      .regex(PERCENTAGE_PATTERN, 'Must be a decimal string from 0 to 100 with at most 2 decimal places, e.g. "33.33".')
      .nullish(),
    title: text(BENEFICIAL_OWNER_LIMITS.titleLength).nullish(),
  })
  .superRefine((input, ctx) => {
    const owns = input.prongs.includes('OWNERSHIP');
    const given = input.ownershipPercentage !== undefined && input.ownershipPercentage !== null;
    if (owns && !given)
      ctx.addIssue({ code: 'custom', path: ['ownershipPercentage'], message: 'Required with the OWNERSHIP prong.' });
    if (!owns && given)
      ctx.addIssue({
        code: 'custom',
        path: ['ownershipPercentage'],
        message: 'Only with the OWNERSHIP prong: a CONTROL-only owner owns no stated share.',
      });
  });

export type AddBeneficialOwnerInput = z.output<typeof addBeneficialOwnerSchema>;
