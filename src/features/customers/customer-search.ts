import { z } from 'zod';
import { limitParameter } from '../../domain/pagination.js';
import { instantSchema as instant, maxLength, text } from '../../domain/validation.js';
import { externalIdSchema, type Metadata, metadataFilterSchema } from '../../domain/metadata.js';
import { CUSTOMER_LIMITS, dateOfBirthSchema, emailSchema, phoneSchema, ssnSchema } from './customer.schemas.js';
import { DEFAULT_PHONE_REGION, phoneSearchKey } from './phone-numbers.js';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../verification/index.js';

/**
 * How a support agent finds a customer (docs/adr/0054-finding-customers.md). Every filter is served by an
 * index (migration 20261203030000_customer_search) and all given filters must hold:
 * - `lastName`, `firstName`: a prefix, case- and accent-insensitive ("mull" finds "Müller"): both sides are
 *   folded by the database's `cas_search_key` (lower case, unaccented), so the rule lives in one place;
 * - `email`: exact, case-insensitive;
 * - `dateOfBirth`: exact (YYYY-MM-DD);
 * - `createdFrom` / `createdTo`: the creation instant, from (inclusive) and to (exclusive);
 * - `phoneNumber`: exact after both sides are normalised to E.164 (phone-numbers.ts; default region US);
 * - `externalId`: exact; `metadata`: every given key has exactly the given value
 *   (docs/adr/0055-external-ids-and-metadata.md);
 * - `socialSecurityNumber` (search only, in a request body, never a URL): exact, through the HMAC blind index;
 * - `verificationStatus`: the customer's verification status (docs/adr/0101), the review queue with NEEDS_REVIEW;
 *   it tells verification data, so it needs `verification:read` besides the list's own scope.
 * Results are in id order (creation order), or with a name filter in that name's folded order then id (so a
 * page reads only its own rows from the name's index), a page at a time (`limit`, `after`).
 */
/** A phone number as a filter: its E.164 search key. libphonenumber only reads a number that passed phoneSchema (length first). */
const phoneFilter = phoneSchema.shape.number.transform((number, ctx) => {
  const key = phoneSearchKey(number);
  if (key === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `Must be a phone number: with its country code (+44 …), or a number of ${DEFAULT_PHONE_REGION}.`,
    });
    return z.NEVER;
  }
  return key;
});

/**
 * A tax id as a search names it: the form a business's creation stores (src/features/businesses/tax-id.ts): an
 * EIN's dash dropped, letters in upper case. The formation country is not known here; both rules agree on it.
 */
const taxIdFilter = z
  .string({ error: 'Must be a string.' })
  .max(32, maxLength(32))
  .transform((value, ctx) => {
    if (/^\d{2}-\d{7}$/.test(value)) return value.replace('-', '');
    if (/^[A-Za-z0-9]{1,32}$/.test(value)) return value.toUpperCase();
    ctx.addIssue({
      code: 'custom',
      message: 'Must be a tax id: an EIN (NN-NNNNNNN or nine digits), or 1-32 letters and digits.',
    });
    return z.NEVER;
  });

const filterFields = {
  /** INDIVIDUAL or BUSINESS (docs/adr/0090). */
  customerType: z.enum(['INDIVIDUAL', 'BUSINESS'], { error: 'Must be INDIVIDUAL or BUSINESS.' }).optional(),
  /** A business's legal name: a prefix, case- and accent-insensitive, as lastName. */
  legalName: text(200).optional(),
  lastName: text(CUSTOMER_LIMITS.nameLength).optional(),
  firstName: text(CUSTOMER_LIMITS.nameLength).optional(),
  email: emailSchema.optional(),
  phoneNumber: phoneFilter.optional(),
  dateOfBirth: dateOfBirthSchema.optional(),
  createdFrom: instant.optional(),
  createdTo: instant.optional(),
  externalId: externalIdSchema.optional(),
  metadata: metadataFilterSchema.optional(),
  verificationStatus: z
    .enum(VERIFICATION_STATUSES, { error: `Must be one of ${VERIFICATION_STATUSES.join(', ')}.` })
    .optional(),
  /**
   * ACTIVE or ARCHIVED (docs/account-lifecycle.md). Absent: active customers only, except in a search by SSN or tax
   * id, which finds the person whatever its status (the number stays enrolled once archived).
   */
  status: z.enum(['ACTIVE', 'ARCHIVED'], { error: 'Must be ACTIVE or ARCHIVED.' }).optional(),
};

/** The filters as a query string carries them (REST `GET /{environment}/customer`). */
export const customerListQuerySchema = z.strictObject({
  ...filterFields,
  limit: limitParameter.optional(),
  after: z.string().optional(),
});

/** The same filters as an object (GraphQL `CustomerFilter`). */
export const customerFilterSchema = z.strictObject(filterFields);

/** A search's filters (the domain's `search`): the filters and an SSN. */
export const customerSearchFilterSchema = z.strictObject({
  ...filterFields,
  socialSecurityNumber: ssnSchema.optional(),
  taxId: taxIdFilter.optional(),
});

/** A search's body (REST `POST /{environment}/customer/search`): the filters, an SSN and the page. */
export const customerSearchSchema = z.strictObject({
  ...filterFields,
  socialSecurityNumber: ssnSchema.optional(),
  /** A business's tax id: exact, through its blind index, searched (scope, audit, budget) as an SSN is. */
  taxId: taxIdFilter.optional(),
  limit: z.number().int().min(1).max(100).optional(),
  after: z.string().optional(),
});

/** The filters a caller gives `CustomerService.find`, as a client writes them (validated by the service). */
export type CustomerFilterInput = z.input<typeof customerFilterSchema>;

/** The filters and the SSN a caller gives `CustomerService.search` (validated by the service). */
export type CustomerSearchInput = z.input<typeof customerSearchFilterSchema>;

/** Query parameters that would put an SSN in a URL (and so in access logs): refused, never read. */
export const SSN_QUERY_PARAMETERS = ['socialSecurityNumber', 'ssn', 'social_security_number'] as const;

/** Query parameters that would put a business's tax id in a URL: refused as an SSN is. */
export const TAX_ID_QUERY_PARAMETERS = ['taxId', 'tax_id', 'ein'] as const;

/**
 * The input fields that carry a secret: the write-only personal data of a customer (never answered, kept
 * sealed). None of them may travel in a URL on either surface: REST refuses SSN_QUERY_PARAMETERS, GraphQL
 * refuses a GET whose document or variables name one of these (src/graphql/url-guard.ts). The one list;
 * test/graphql/url-guard.test.ts checks it against every input field schema.graphql marks write-only.
 */
export const SECRET_INPUT_FIELDS = ['socialSecurityNumber', 'documentLocatorNumber', 'taxId'] as const;

/** What the store matches: the filters as given (the database folds names), and the SSN as its blind index. */
export interface CustomerFilter {
  lastNamePrefix?: string;
  firstNamePrefix?: string;
  email?: string;
  dateOfBirth?: string;
  createdFrom?: string;
  createdTo?: string;
  /** E.164 (phone-numbers.ts). */
  phoneKey?: string;
  externalId?: string;
  metadata?: Metadata;
  ssnBlindIndex?: Uint8Array;
  customerType?: 'INDIVIDUAL' | 'BUSINESS';
  legalNamePrefix?: string;
  taxIdBlindIndex?: Uint8Array;
  verificationStatus?: VerificationStatus;
  status?: 'ACTIVE' | 'ARCHIVED';
}

type FilterInput = { [K in keyof typeof filterFields]?: z.output<(typeof filterFields)[K]> };

export function customerFilterOf(
  input: FilterInput,
  ssnBlindIndex?: Uint8Array,
  taxIdBlindIndex?: Uint8Array,
): CustomerFilter {
  return {
    ...(input.customerType !== undefined && { customerType: input.customerType }),
    ...(input.legalName !== undefined && { legalNamePrefix: input.legalName }),
    ...(taxIdBlindIndex !== undefined && { taxIdBlindIndex }),
    ...(input.lastName !== undefined && { lastNamePrefix: input.lastName }),
    ...(input.firstName !== undefined && { firstNamePrefix: input.firstName }),
    ...(input.email !== undefined && { email: input.email.toLowerCase() }),
    ...(input.dateOfBirth !== undefined && { dateOfBirth: input.dateOfBirth }),
    ...(input.createdFrom !== undefined && { createdFrom: input.createdFrom }),
    ...(input.createdTo !== undefined && { createdTo: input.createdTo }),
    ...(input.phoneNumber !== undefined && { phoneKey: input.phoneNumber }),
    ...(input.externalId !== undefined && { externalId: input.externalId }),
    ...(input.metadata !== undefined && { metadata: input.metadata }),
    ...(ssnBlindIndex !== undefined && { ssnBlindIndex }),
    ...(input.verificationStatus !== undefined && { verificationStatus: input.verificationStatus }),
    ...(input.status !== undefined && { status: input.status }),
  };
}
