import { z } from 'zod';
import { list, maxLength, text } from '../../domain/validation.js';
import { externalIdSchema, metadataChangesSchema, metadataSchema } from '../../domain/metadata.js';
import { addressSchema, CUSTOMER_LIMITS, emailSchema, phoneSchema } from '../customers/index.js';
import { normaliseTaxId, TAX_ID_RULE } from './tax-id.js';

/** Input rules for business customers (docs/adr/0090); the contact fields are a person's, exactly. */
export const BUSINESS_LIMITS = { nameLength: 200, websiteLength: 2048, stateLength: 100, taxIdLength: 32 } as const;

export const ENTITY_TYPES = ['CORPORATION', 'LLC', 'PARTNERSHIP', 'SOLE_PROPRIETORSHIP', 'NONPROFIT', 'TRUST'] as const;

const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'Required.' : `Must be ${what}.`;

const formationDateSchema = z
  .string({ error: required('a string') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Must be a date in the form YYYY-MM-DD.', abort: true })
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return (
      !Number.isNaN(date.getTime()) &&
      date.toISOString().slice(0, 10) === value &&
      value <= new Date().toISOString().slice(0, 10)
    );
  }, 'Must be a real calendar date, not in the future.');

const countrySchema = z
  .string({ error: required('a string') })
  .regex(/^[A-Z]{2}$/, 'Must be an ISO 3166-1 alpha-2 country code in upper case, e.g. US.');

const industrySchema = z
  .string({ error: required('a string') })
  .regex(/^\d{2,6}$/, 'Must be a NAICS code: 2 to 6 digits.');

const websiteSchema = z
  .string({ error: required('a string') })
  .max(BUSINESS_LIMITS.websiteLength, maxLength(BUSINESS_LIMITS.websiteLength))
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Must be an http or https URL.');

/** The tax id as sent: a string (its form is checked with formationCountry, below), never echoed in a message. */
const taxIdInput = z
  .string({ error: required('a string') })
  .max(BUSINESS_LIMITS.taxIdLength, maxLength(BUSINESS_LIMITS.taxIdLength, TAX_ID_RULE));

const contactFields = {
  emails: list(emailSchema, CUSTOMER_LIMITS.emails),
  phoneNumbers: list(phoneSchema, CUSTOMER_LIMITS.phoneNumbers),
  addresses: list(addressSchema, CUSTOMER_LIMITS.addresses),
};

export const createBusinessSchema = z
  .strictObject({
    customerType: z.literal('BUSINESS'),
    legalName: text(BUSINESS_LIMITS.nameLength),
    doingBusinessAs: text(BUSINESS_LIMITS.nameLength).nullish(),
    taxId: taxIdInput,
    entityType: z.enum(ENTITY_TYPES, { error: `Must be one of ${ENTITY_TYPES.join(', ')}.` }),
    formationDate: formationDateSchema,
    formationState: text(BUSINESS_LIMITS.stateLength).nullish(),
    formationCountry: countrySchema,
    industry: industrySchema.nullish(),
    website: websiteSchema.nullish(),
    ...contactFields,
    externalId: externalIdSchema.nullish(),
    metadata: metadataSchema.nullish(),
  })
  .transform((input, ctx) => {
    const taxId = normaliseTaxId(input.taxId, input.formationCountry);
    if (taxId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['taxId'], message: TAX_ID_RULE });
      return z.NEVER;
    }
    return { ...input, taxId };
  });

export type CreateBusinessInput = z.output<typeof createBusinessSchema>;

/** What a business's PUT may change; lists are replaced whole, null clears an optional field. */
export const UPDATABLE_BUSINESS_FIELDS = [
  'doingBusinessAs',
  'website',
  'industry',
  'emails',
  'phoneNumbers',
  'addresses',
  'externalId',
  'metadata',
] as const;

/** A business's fields that never change: refused as a person's identity fields are (FIELD_NOT_UPDATABLE). */
export const NON_UPDATABLE_BUSINESS_FIELDS = [
  'legalName',
  'taxId',
  'entityType',
  'formationDate',
  'formationCountry',
  'formationState',
  'customerType',
  'customerId',
  'accountIds',
  'accounts',
] as const;

export const updateBusinessSchema = z
  .strictObject({
    doingBusinessAs: text(BUSINESS_LIMITS.nameLength).nullable().optional(),
    website: websiteSchema.nullable().optional(),
    industry: industrySchema.nullable().optional(),
    emails: contactFields.emails.optional(),
    phoneNumbers: contactFields.phoneNumbers.optional(),
    addresses: contactFields.addresses.optional(),
    externalId: externalIdSchema.nullable().optional(),
    metadata: metadataChangesSchema.nullable().optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: `Send at least one field to change: ${UPDATABLE_BUSINESS_FIELDS.join(', ')}.`,
  });

export type BusinessChanges = z.output<typeof updateBusinessSchema>;
