import { z } from 'zod';
import { recordId } from '../../presenters/record-id.js';
import { ACCOUNT_NUMBER_STATUSES, INBOUND_ACH_DEBITS } from './account-number.js';
import type { AccountNumberLookup, MaskedAccountNumber, RevealedAccountNumber } from './account-number.service.js';

/**
 * What leaves the service of an account number (docs/adr/0107): strict schemas the OpenAPI document is generated
 * from, and presenters mapping the domain's values onto them field by field. Only the scoped list holds the digits.
 */
const fields = {
  accountNumberId: recordId,
  accountId: recordId,
  routingNumber: z.string().describe("The environment's ABA routing number (9 digits, ROUTING_NUMBERS)."),
  last4: z.string().describe("The account number's last four digits."),
  status: z
    .enum(ACCOUNT_NUMBER_STATUSES)
    .describe('ACTIVE takes payments; DISABLED refuses them for now; CANCELED for ever (final).'),
  inboundAchDebits: z
    .enum(INBOUND_ACH_DEBITS)
    .describe('Whether inbound ACH debits on this number are ALLOWED or BLOCKED.'),
  createdAt: z.iso.datetime().describe('When the number was issued, ISO 8601 UTC.'),
  updatedAt: z.iso.datetime().describe('When its status or inbound ACH debits last changed (its issue otherwise).'),
};

export const accountNumberDataSchema = z
  .strictObject(fields)
  .describe('An account number as every answer but the scoped list shows it: its last four digits.');

export const revealedAccountNumberSchema = z
  .strictObject({
    accountNumber: z.string().describe('The account number in full: 12 digits, the last a Luhn check digit.'),
    ...fields,
  })
  .describe('An account number in full (`accounts:numbers:read`; every read audited).');

export const accountNumbersDataSchema = z
  .strictObject({
    routingNumber: fields.routingNumber,
    accountNumbers: z.array(revealedAccountNumberSchema).describe('Oldest first.'),
  })
  .describe("An account's account numbers, in full, with the environment's routing number.");

export const accountNumberLookupDataSchema = z
  .strictObject({
    accountId: recordId,
    accountNumberId: recordId,
    status: fields.status,
    inboundAchDebits: fields.inboundAchDebits,
  })
  .describe("The account the numbers name, and the number's controls (the payment's side decides what they mean).");

const maskedOf = (n: MaskedAccountNumber) => ({
  accountNumberId: n.accountNumberId,
  accountId: n.accountId,
  routingNumber: n.routingNumber,
  last4: n.last4,
  status: n.status,
  inboundAchDebits: n.inboundAchDebits,
  createdAt: n.createdAt,
  updatedAt: n.updatedAt,
});

export const presentAccountNumber = (n: MaskedAccountNumber): z.output<typeof accountNumberDataSchema> => maskedOf(n);

export const presentAccountNumbers = (
  routingNumber: string,
  numbers: readonly RevealedAccountNumber[],
): z.output<typeof accountNumbersDataSchema> => ({
  routingNumber,
  accountNumbers: numbers.map((n) => ({ accountNumber: n.accountNumber, ...maskedOf(n) })),
});

export const presentAccountNumberLookup = (
  found: AccountNumberLookup,
): z.output<typeof accountNumberLookupDataSchema> => ({
  accountId: found.accountId,
  accountNumberId: found.accountNumberId,
  status: found.status,
  inboundAchDebits: found.inboundAchDebits,
});
