import { z } from 'zod';
import {
  isWellFormedText,
  list,
  maxLength,
  text,
  upperSnakeCase,
  WELL_FORMED_MESSAGE,
} from '../../domain/validation.js';
import { externalIdSchema, metadataChangesSchema, metadataSchema } from '../../domain/metadata.js';
import { normaliseSsn, SSN_RULE } from './ssn.js';

/**
 * Input rules for customers. Limits are ours (the spec gives none); the Limits table of docs/reference/limits.md
 * lists them. These schemas are also the source of the published request schemas.
 */
export const CUSTOMER_LIMITS = {
  nameLength: 100,
  emails: 10,
  emailLength: 254,
  phoneNumbers: 10,
  phoneNumberLength: 32,
  addresses: 10,
  streetLength: 200,
  cityLength: 100,
  stateLength: 100,
  zipLength: 20,
  typeLength: 32,
  earliestDateOfBirth: '1900-01-01',
  /**
   * Accounts one customer may hold. Enforced by the database (migration 20261203010000_customer_account_cap,
   * whose trigger carries the same number); GraphQL's cost analysis counts `Customer.accounts` at this size.
   */
  accounts: 100,
} as const;

const PHONE_RULE = 'Must be a phone number: digits, optionally a leading +, spaces, dots, dashes or parentheses.';

export const phoneSchema = z.strictObject({
  type: upperSnakeCase(CUSTOMER_LIMITS.typeLength),
  // "(555) 010-1234" is how US numbers are commonly written. The length bound aborts first (text), and the two
  // patterns are linear: one class under one quantifier, and "has a digit" on its own (no [..]*[0-9][..]*,
  // which backtracks quadratically on a long value that fails).
  number: text(CUSTOMER_LIMITS.phoneNumberLength)
    .regex(/^\+?[0-9 ().-]+$/, { message: PHONE_RULE, abort: true })
    .regex(/[0-9]/, PHONE_RULE),
});

export const addressSchema = z.strictObject({
  type: upperSnakeCase(CUSTOMER_LIMITS.typeLength),
  street: text(CUSTOMER_LIMITS.streetLength),
  city: text(CUSTOMER_LIMITS.cityLength),
  state: text(CUSTOMER_LIMITS.stateLength),
  zip: text(CUSTOMER_LIMITS.zipLength),
});

export const emailSchema = z
  .string({ error: 'Must be a string.' })
  .max(CUSTOMER_LIMITS.emailLength, maxLength(CUSTOMER_LIMITS.emailLength))
  .pipe(z.email({ error: 'Must be a valid email address.' }));

function isRealPastDate(value: string, today: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && value <= today;
}

export const dateOfBirthSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
  // abort: each rule presumes the previous one holds; a malformed date gets one message, not three.
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Must be a date in the form YYYY-MM-DD.', abort: true })
  .refine((value) => isRealPastDate(value, new Date().toISOString().slice(0, 10)), {
    message: 'Must be a real calendar date, not in the future.',
    abort: true,
  })
  .refine(
    (value) => value >= CUSTOMER_LIMITS.earliestDateOfBirth,
    `Must not be before ${CUSTOMER_LIMITS.earliestDateOfBirth}.`,
  );

export const ssnSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
  .max(11, maxLength(11, SSN_RULE))
  .transform((value, ctx) => {
    const normalised = normaliseSsn(value);
    if (normalised === undefined) {
      ctx.addIssue({ code: 'custom', message: SSN_RULE });
      return z.NEVER;
    }
    return normalised;
  });

const documentLocatorNumberSchema = z
  .number({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a number.') })
  // Not .int(): it also rejects unsafe integers, as "not a whole number"; .max says it precisely.
  .refine(Number.isInteger, { message: 'Must be a whole number.', abort: true })
  .min(0, 'Must not be negative.')
  .max(Number.MAX_SAFE_INTEGER, 'Must be at most 9007199254740991.')
  // The refine above makes it an integer, but JSON Schema generation cannot see through a refine.
  .meta({ type: 'integer' });

/** Middle names are legally absent for many people: the field is required but may be empty. */
const middleNameSchema = z
  .string({
    error: (issue) => (issue.input === undefined ? 'Required (may be an empty string).' : 'Must be a string.'),
  })
  .trim()
  .max(CUSTOMER_LIMITS.nameLength, maxLength(CUSTOMER_LIMITS.nameLength))
  .regex(/^[^\p{Cc}]*$/u, 'Must not contain control characters.')
  .refine(isWellFormedText, WELL_FORMED_MESSAGE);

const contactFields = {
  preferredName: text(CUSTOMER_LIMITS.nameLength),
  emails: list(emailSchema, CUSTOMER_LIMITS.emails),
  phoneNumbers: list(phoneSchema, CUSTOMER_LIMITS.phoneNumbers),
  addresses: list(addressSchema, CUSTOMER_LIMITS.addresses),
};

export const createCustomerSchema = z.strictObject({
  socialSecurityNumber: ssnSchema,
  dateOfBirth: dateOfBirthSchema,
  documentLocatorNumber: documentLocatorNumberSchema,
  firstName: text(CUSTOMER_LIMITS.nameLength),
  middleName: middleNameSchema,
  lastName: text(CUSTOMER_LIMITS.nameLength),
  ...contactFields,
  // Not in the contract; optional, and a customer without them reads exactly as the contract shows.
  externalId: externalIdSchema.nullish(),
  metadata: metadataSchema.nullish(),
});

/** The fields an update may change; arrays are replaced whole. */
export const UPDATABLE_CUSTOMER_FIELDS = [
  'preferredName',
  'emails',
  'phoneNumbers',
  'addresses',
  'externalId',
  'metadata',
] as const;

/**
 * Fields that exist on a customer but can never change. The spec's update parameter list includes
 * documentLocatorNumber, but its description says it cannot be updated; the description wins
 * (docs/adr/0004-spec-open-data-rules.md).
 */
export const NON_UPDATABLE_CUSTOMER_FIELDS = [
  'socialSecurityNumber',
  'dateOfBirth',
  'firstName',
  'middleName',
  'lastName',
  'documentLocatorNumber',
  'customerId',
  'accountIds',
  'accounts',
] as const;

export const updateCustomerSchema = z
  .strictObject({
    preferredName: contactFields.preferredName.optional(),
    emails: contactFields.emails.optional(),
    phoneNumbers: contactFields.phoneNumbers.optional(),
    addresses: contactFields.addresses.optional(),
    /** null clears it. */
    externalId: externalIdSchema.nullable().optional(),
    /** Merged into the stored pairs (an empty string or null removes a key); null removes them all. */
    metadata: metadataChangesSchema.nullable().optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: `Send at least one field to change: ${UPDATABLE_CUSTOMER_FIELDS.join(', ')}.`,
  });

/**
 * A business's own fields (src/features/businesses, docs/adr/0090): on a person's creation or update, refused by
 * name (FIELD_NOT_FOR_CUSTOMER_TYPE), never dropped.
 */
export const BUSINESS_FIELDS = [
  'legalName',
  'doingBusinessAs',
  'taxId',
  'entityType',
  'formationDate',
  'formationState',
  'formationCountry',
  'industry',
  'website',
] as const;

/** A person's own fields: on a business's creation or update, refused by name (FIELD_NOT_FOR_CUSTOMER_TYPE). */
export const PERSON_FIELDS = [
  'socialSecurityNumber',
  'documentLocatorNumber',
  'dateOfBirth',
  'firstName',
  'middleName',
  'lastName',
  'preferredName',
] as const;
