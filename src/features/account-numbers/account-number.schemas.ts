import { z } from 'zod';
import { ACCOUNT_NUMBER_STATUSES, INBOUND_ACH_DEBITS } from './account-number.js';

const STATUS_MESSAGE = `Must be one of ${ACCOUNT_NUMBER_STATUSES.join(', ')}.`;
const ACH_MESSAGE = `Must be one of ${INBOUND_ACH_DEBITS.join(', ')}.`;

/** `POST …/account-numbers`'s body: nothing but, optionally, the new number's inbound ACH debits (ALLOWED by default). */
export const addAccountNumberSchema = z.strictObject({
  inboundAchDebits: z.enum(INBOUND_ACH_DEBITS, { error: ACH_MESSAGE }).optional(),
});

/** `PUT …/account-numbers/{id}`'s body: a status, inbound ACH debits, or both (at least one). */
export const updateAccountNumberSchema = z
  .strictObject({
    status: z.enum(ACCOUNT_NUMBER_STATUSES, { error: STATUS_MESSAGE }).optional(),
    inboundAchDebits: z.enum(INBOUND_ACH_DEBITS, { error: ACH_MESSAGE }).optional(),
  })
  .refine((body) => body.status !== undefined || body.inboundAchDebits !== undefined, {
    message: 'Give status, inboundAchDebits or both.',
  });

/**
 * `POST /{environment}/account-numbers/lookup`'s body: strings of digits (a number's leading zeros are its own),
 * the routing number's 9, the account number's 10 to 12. The messages never repeat what was sent.
 */
export const lookupAccountNumberSchema = z.strictObject({
  routingNumber: z.string({ error: 'Must be a string of 9 digits.' }).regex(/^\d{9}$/, 'Must be 9 digits.'),
  accountNumber: z
    .string({ error: 'Must be a string of 10 to 12 digits.' })
    .regex(/^\d{10,12}$/, 'Must be 10 to 12 digits.'),
});

export type AddAccountNumberInput = z.output<typeof addAccountNumberSchema>;
export type UpdateAccountNumberInput = z.output<typeof updateAccountNumberSchema>;
export type LookupAccountNumberInput = z.output<typeof lookupAccountNumberSchema>;
