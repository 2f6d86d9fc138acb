/**
 * The 1099-INT (docs/tax-forms.md, docs/adr/0116): the interest a bank paid a customer in a calendar year, as the
 * payee statement shows it. Amounts are exact decimal strings in US dollars (two decimals); the recipient's TIN is
 * only ever its last four digits (26 CFR 301.6109-4 allows a truncated TIN on a payee statement).
 */

/** The IRS's threshold for interest (the 1099-INT instructions: "at least $10"): Box 1 below it is not reportable. */
export const REPORTING_THRESHOLD = '10.00';
/** The first tax year asked for; the last is the environment's current one (not final until it has ended). */
export const FIRST_TAX_YEAR = 2000;
/** A 1099-INT is in US dollars: accounts in other currencies are left out of Box 1 and named apart. */
export const FORM_CURRENCY = 'USD';

/** The payer, from configuration (TAX_FORM_PAYER_*). */
export interface TaxFormPayer {
  name: string;
  address: string;
  /** The payer's EIN, NN-NNNNNNN. */
  tin: string;
  phone: string;
}

export interface TaxFormAddress {
  street: string;
  city: string;
  state: string;
  zip: string;
}

export interface TaxFormRecipient {
  customerId: string;
  /** A person's full name, a business's legal name. */
  name: string;
  /** The customer's first address; null when it has none. */
  address: TaxFormAddress | null;
  /** SSN for a person, EIN for a business. */
  tinType: 'SSN' | 'EIN';
  /** The TIN's last four digits: never more of it. */
  tinLastFour: string;
}

export interface TaxFormAccountLine {
  accountId: string;
  /** The last four digits of the account's number (the account-numbers feature's); null when it has none. */
  accountNumberLast4: string | null;
  /** Interest posted in the year, in dollars (two decimals). */
  interestPaid: string;
}

export interface OtherCurrencyAccount {
  accountId: string;
  currency: string;
  /** Interest posted in the year in the account's currency (exact decimal text): not on the form. */
  interestPaid: string;
}

export interface Form1099Int {
  form: '1099-INT';
  taxYear: number;
  /** False while the environment's end of day has not closed the year's last date: the amounts may still change. */
  final: boolean;
  /** Box 1 at or above the reporting threshold. */
  reportable: boolean;
  reportingThreshold: string;
  currency: typeof FORM_CURRENCY;
  payer: TaxFormPayer;
  recipient: TaxFormRecipient;
  /** Box 1: the interest posted in the year to the USD accounts the customer is the first owner of. */
  box1InterestIncome: string;
  accounts: TaxFormAccountLine[];
  otherCurrencyAccounts: OtherCurrencyAccount[];
  /** The environment's time the form was read at (ISO 8601). */
  asOf: string;
}

const SCALE = 6;

/** Exact decimal text (at most 6 decimals, as the ledger keeps amounts) as an integer of millionths. */
export function toMillionths(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  if (fraction.length > SCALE) throw new Error(`an amount with more than ${SCALE} decimals: ${amount}`);
  const value = BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, '0'));
  return negative ? -value : value;
}

/** Millionths as text with exactly two decimals; the amount must be whole cents (interest is posted in cents). */
export function dollarsOf(millionths: bigint): string {
  if (millionths % 10_000n !== 0n) throw new Error('a US dollar amount that is not whole cents');
  const cents = millionths / 10_000n;
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** The TIN as the payee statement prints it: every digit but the last four masked. */
export const maskedTin = (recipient: Pick<TaxFormRecipient, 'tinType' | 'tinLastFour'>): string =>
  recipient.tinType === 'SSN' ? `***-**-${recipient.tinLastFour}` : `**-***${recipient.tinLastFour}`;
