import { type AccountNumberStore, last4Shown } from '../account-numbers/index.js';
import { businessDateOf, type EndOfDayStore } from '../clock/index.js';
import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import type { EnvironmentTime } from '../../domain/environment-clock.js';
import {
  customerNotFound,
  taxFormNotApplicable,
  taxFormPayerNotConfigured,
  validationFailed,
} from '../../domain/errors.js';
import { isRecordId } from '../../domain/ids.js';
import {
  dollarsOf,
  FIRST_TAX_YEAR,
  type Form1099Int,
  FORM_CURRENCY,
  REPORTING_THRESHOLD,
  type TaxFormPayer,
  type TaxFormRecipient,
  toMillionths,
} from './tax-form.js';
import type { RecipientRow, TaxFormStore } from './ports.js';

/** Opens a sealed SSN or tax id (src/pii/pii-cipher.ts); the service keeps its last four digits and drops the rest. */
export interface SealedTinOpener {
  open(
    binding: { environment: string; customerId: string },
    field: 'ssn' | 'tax_id',
    keyId: string,
    ciphertext: Uint8Array,
  ): string;
}

export interface TaxFormServiceOptions {
  /** The payer (TAX_FORM_PAYER_*); null: a production service without one, whose forms are refused. */
  payer: TaxFormPayer | null;
  timeZoneOf: (environment: string) => string;
}

/** Businesses that get no 1099-INT: exempt recipients (26 CFR 1.6049-4(c)(1)(ii)). */
const EXEMPT_ENTITY_TYPES: Readonly<Record<string, string>> = {
  CORPORATION: 'a corporation is an exempt recipient',
  NONPROFIT: 'a tax-exempt organisation is an exempt recipient',
};

/**
 * A customer's 1099-INT of a calendar year (docs/tax-forms.md, docs/adr/0116): REST's
 * `GET /{environment}/customer/{customerId}/tax-form/1099-INT/{year}` (JSON or PDF) and GraphQL's
 * `Customer.taxForm1099Int(year)`. Needs `tax-forms:read`; every read is audited (`customer.tax_form.read`) before
 * anything is answered. Refusals, each a coded DomainError that changes nothing: FORBIDDEN, CUSTOMER_NOT_FOUND,
 * VALIDATION_FAILED (`year` not a whole year from FIRST_TAX_YEAR to the environment's current one),
 * TAX_FORM_NOT_APPLICABLE (an exempt or foreign business), TAX_FORM_PAYER_NOT_CONFIGURED.
 */
export class TaxFormService {
  constructor(
    private readonly stores: { taxForms: TaxFormStore; endOfDay: EndOfDayStore; accountNumbers: AccountNumberStore },
    private readonly opener: SealedTinOpener,
    private readonly clock: EnvironmentTime,
    private readonly options: TaxFormServiceOptions,
  ) {}

  async form1099Int(caller: Caller, customerId: string, year: string | number): Promise<Form1099Int> {
    authorize(caller, 'tax-forms:read');
    const environment = caller.environment;
    const now = await this.clock.now(environment);
    const currentYear = Number(businessDateOf(now, this.options.timeZoneOf(environment)).slice(0, 4));
    const taxYear = parseYear(year, currentYear);
    if (!isRecordId(customerId)) throw customerNotFound();
    const id = customerId.toLowerCase();
    const row = await this.stores.taxForms.recipient(environment, id);
    if (row === null) throw customerNotFound();
    refuseExemptRecipients(row);
    const payer = this.options.payer;
    if (payer === null) throw taxFormPayerNotConfigured();
    const recipient = this.recipientOf(environment, id, row);
    const lines = await this.stores.taxForms.interestByAccount(environment, id, taxYear);
    const dollars = lines.filter((line) => line.currency === FORM_CURRENCY);
    const numbers = dollars.length
      ? await this.stores.accountNumbers.listOfMany(
          environment,
          dollars.map((line) => line.accountId),
        )
      : [];
    const box1 = dollars.reduce((sum, line) => sum + toMillionths(line.interestPaid), 0n);
    // The year is final once the end of day has closed its last date: its last posting is then in (docs/adr/0116).
    const { lastCompleted } = await this.stores.endOfDay.progress(environment);
    const final = lastCompleted !== null && lastCompleted >= `${taxYear}-12-31`;
    await this.stores.taxForms.audit(
      auditEventFor(caller, {
        operation: 'customer.tax_form.read',
        resourceType: 'customer',
        resourceId: id,
        changedFields: [],
      }),
    );
    return {
      form: '1099-INT',
      taxYear,
      final,
      reportable: box1 >= toMillionths(REPORTING_THRESHOLD),
      reportingThreshold: REPORTING_THRESHOLD,
      currency: FORM_CURRENCY,
      payer,
      recipient,
      box1InterestIncome: dollarsOf(box1),
      accounts: dollars.map((line, i) => ({
        accountId: line.accountId,
        accountNumberLast4: last4Shown(numbers[i] ?? []),
        interestPaid: dollarsOf(toMillionths(line.interestPaid)),
      })),
      otherCurrencyAccounts: lines
        .filter((line) => line.currency !== FORM_CURRENCY)
        .map(({ accountId, currency, interestPaid }) => ({ accountId, currency, interestPaid })),
      asOf: now.toISOString(),
    };
  }

  /** The recipient with its TIN's last four: the opened TIN is dropped here, never kept, logged or answered. */
  private recipientOf(environment: string, customerId: string, row: RecipientRow): TaxFormRecipient {
    const business = row.customerType === 'BUSINESS';
    const tin = this.opener.open(
      { environment, customerId },
      business ? 'tax_id' : 'ssn',
      row.sealedTin.keyId,
      row.sealedTin.ciphertext,
    );
    return {
      customerId,
      name: row.name,
      address: row.address,
      tinType: business ? 'EIN' : 'SSN',
      tinLastFour: tin.replace(/\D/g, '').slice(-4),
    };
  }
}

/** A whole year from FIRST_TAX_YEAR through the environment's current one; VALIDATION_FAILED on `year` otherwise. */
function parseYear(year: string | number, currentYear: number): number {
  const text = String(year);
  const value = /^\d{4}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < FIRST_TAX_YEAR || value > currentYear)
    throw validationFailed([
      {
        field: 'year',
        code: 'OUT_OF_RANGE',
        message: `Must be a tax year from ${FIRST_TAX_YEAR} to ${currentYear} (the environment's current year, not final until it ends).`,
      },
    ]);
  return value;
}

/** Exempt recipients and businesses without an EIN get no 1099-INT (docs/adr/0116). */
function refuseExemptRecipients(row: RecipientRow): void {
  if (row.customerType !== 'BUSINESS') return;
  const exempt = row.entityType === null ? undefined : EXEMPT_ENTITY_TYPES[row.entityType];
  if (exempt) throw taxFormNotApplicable(exempt);
  if (row.formationCountry !== 'US')
    throw taxFormNotApplicable('a business formed outside the US has no EIN (its interest is reported on Form 1042-S)');
}
