import { z } from 'zod';
import type { Form1099IntPdf } from '../history/index.js';
import { type Form1099Int, maskedTin } from './tax-form.js';

/**
 * What leaves the service of a 1099-INT (docs/adr/0116): the strict schema the OpenAPI document is generated from,
 * its presenter, and the text its PDF is drawn from. The recipient's TIN leaves only as its last four digits.
 */
const dollars = (what: string) => z.string().describe(`${what} Exact decimal text in US dollars, two decimals.`);

const payerSchema = z
  .strictObject({
    name: z.string(),
    address: z.string(),
    tin: z.string().describe("The payer's EIN, NN-NNNNNNN."),
    phone: z.string(),
  })
  .describe('The payer (the bank), from TAX_FORM_PAYER_*.');

const recipientSchema = z
  .strictObject({
    customerId: z.string(),
    name: z.string().describe("A person's full name, a business's legal name."),
    address: z
      .strictObject({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() })
      .nullable()
      .describe("The customer's first address; null when it has none."),
    tinType: z.enum(['SSN', 'EIN']),
    tinLastFour: z
      .string()
      .describe("The last four digits of the recipient's TIN: never more (26 CFR 301.6109-4, a truncated TIN)."),
  })
  .describe('The recipient: the customer.');

export const form1099IntDataSchema = z
  .strictObject({
    form: z.literal('1099-INT'),
    taxYear: z.number().int(),
    final: z
      .boolean()
      .describe(
        "False until the environment's end of day has closed the year's last date: the amounts may still change.",
      ),
    reportable: z.boolean().describe('Box 1 is at least the reporting threshold.'),
    reportingThreshold: dollars('The reporting threshold (10.00).'),
    currency: z.literal('USD'),
    payer: payerSchema,
    recipient: recipientSchema,
    box1InterestIncome: dollars(
      "Box 1: the interest posted in the year (by each posting's business date) to the USD accounts the customer is the first owner of.",
    ),
    accounts: z
      .array(
        z.strictObject({
          accountId: z.string(),
          accountNumberLast4: z.string().nullable().describe("The last four digits of the account's number."),
          interestPaid: dollars('Interest posted to the account in the year.'),
        }),
      )
      .describe('The accounts of Box 1, by id: those with interest posted in the year.'),
    otherCurrencyAccounts: z
      .array(
        z.strictObject({
          accountId: z.string(),
          currency: z.string(),
          interestPaid: z
            .string()
            .describe("Interest posted in the year, exact decimal text in the account's currency."),
        }),
      )
      .describe(
        'Accounts the customer is the first owner of whose interest is in another currency: left out of Box 1.',
      ),
    asOf: z.iso.datetime().describe("The environment's time the form was read at."),
  })
  .describe("A customer's 1099-INT of a tax year (the payee statement's content).");

export type Form1099IntData = z.infer<typeof form1099IntDataSchema>;

export const presentForm1099Int = (form: Form1099Int): Form1099IntData => ({
  form: form.form,
  taxYear: form.taxYear,
  final: form.final,
  reportable: form.reportable,
  reportingThreshold: form.reportingThreshold,
  currency: form.currency,
  payer: { ...form.payer },
  recipient: {
    customerId: form.recipient.customerId,
    name: form.recipient.name,
    address: form.recipient.address && { ...form.recipient.address },
    tinType: form.recipient.tinType,
    tinLastFour: form.recipient.tinLastFour,
  },
  box1InterestIncome: form.box1InterestIncome,
  accounts: form.accounts.map((account) => ({ ...account })),
  otherCurrencyAccounts: form.otherCurrencyAccounts.map((account) => ({ ...account })),
  asOf: form.asOf,
});

/** The text the PDF is drawn from: the TIN already masked, the address as lines. */
export const form1099IntPdfOf = (form: Form1099Int): Form1099IntPdf => {
  const address = form.recipient.address;
  return {
    taxYear: form.taxYear,
    final: form.final,
    reportable: form.reportable,
    reportingThreshold: form.reportingThreshold,
    payer: { ...form.payer },
    recipient: {
      name: form.recipient.name,
      addressLines: address ? [address.street, `${address.city}, ${address.state} ${address.zip}`] : [],
      maskedTin: maskedTin(form.recipient),
    },
    box1InterestIncome: form.box1InterestIncome,
    accounts: form.accounts.map((account) => ({ ...account })),
    otherCurrencyAccounts: form.otherCurrencyAccounts.map((account) => ({ ...account })),
    asOf: form.asOf,
  };
};

/** The PDF's file name: no name, no TIN, only the form, the year and the customer's id. */
export const form1099IntFileName = (form: Form1099Int): string =>
  `1099-INT-${form.taxYear}-${form.recipient.customerId}.pdf`;
