import { z } from 'zod';
import { type Address, type BusinessProfile, type Customer, CUSTOMER_ARCHIVE_REASONS, type Phone } from './customer.js';
import type { Page } from '../../domain/pagination.js';
import type { AnswerShape } from '../../domain/answer-shape.js';
import { recordId } from '../../presenters/record-id.js';
import { clientFieldSchemas, presentClientFields } from '../../presenters/client-fields.js';

/**
 * What leaves the service for customers: the response schemas (the OpenAPI document is generated
 * from them; strict objects) and the presenters mapping domain values onto them field by field, so a field added to
 * the domain never reaches a client by accident. Shared by REST (inside its envelope), webhook delivery and the CLI.
 */

export const phoneDataSchema = z
  .strictObject({
    type: z.string().describe('What kind of number, upper case with underscores, e.g. MOBILE.'),
    number: z.string().describe('The phone number.'),
  })
  .describe('A phone number of a customer.');

export const addressDataSchema = z
  .strictObject({
    type: z.string().describe('What kind of address, upper case with underscores, e.g. HOME.'),
    street: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
  })
  .describe('A postal address of a customer.');

/** Only on an archived customer (docs/account-lifecycle.md): an active one answers without them. */
const archiveFieldSchemas = {
  status: z
    .literal('ARCHIVED')
    .optional()
    .describe('Not in the contract. Only on an archived customer (`POST …/archive`); absent while active.'),
  archivedAt: z
    .string()
    .optional()
    .describe(
      "Not in the contract. When it was archived (RFC 3339, UTC, by the environment's clock); only when archived.",
    ),
  archiveReason: z
    .enum(CUSTOMER_ARCHIVE_REASONS)
    .optional()
    .describe('Not in the contract. Why it was archived; only when archived.'),
};

/** The archive's fields of an archived customer; nothing for an active one. */
const presentArchiveFields = (customer: Customer) =>
  customer.status === 'ARCHIVED'
    ? { status: 'ARCHIVED' as const, archivedAt: customer.archivedAt!, archiveReason: customer.archiveReason! }
    : {};

export const customerDataSchema = z
  .strictObject({
    customerId: recordId,
    accountIds: z.array(recordId).describe('Ids of the accounts associated with the customer.'),
    addresses: z.array(addressDataSchema),
    dateOfBirth: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('Legal date of birth, YYYY-MM-DD.'),
    emails: z.array(z.string()),
    firstName: z.string(),
    lastName: z.string(),
    middleName: z.string().describe('Empty when the customer has no middle name.'),
    phoneNumbers: z.array(phoneDataSchema),
    preferredName: z.string(),
    ...clientFieldSchemas,
    ...archiveFieldSchemas,
  })
  .describe('A customer. The social security number and document locator number are never returned.');

/** A business customer (docs/adr/0090): the contract's identity and contact fields and its own; no person field. */
export const businessCustomerDataSchema = z
  .strictObject({
    customerId: recordId,
    customerType: z.literal('BUSINESS'),
    legalName: z.string(),
    doingBusinessAs: z.string().nullable().describe('The name it trades under, when not its legal name.'),
    entityType: z.enum(['CORPORATION', 'LLC', 'PARTNERSHIP', 'SOLE_PROPRIETORSHIP', 'NONPROFIT', 'TRUST']),
    formationDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('YYYY-MM-DD.'),
    formationState: z.string().nullable(),
    formationCountry: z.string().describe('ISO 3166-1 alpha-2.'),
    industry: z.string().nullable().describe('NAICS code, 2 to 6 digits.'),
    website: z.string().nullable(),
    beneficialOwnerIds: z
      .array(recordId)
      .describe(
        'Ids of its beneficial owners (individual customers), in the order of `GET …/customer/{customerId}/beneficial-owner`.',
      ),
    accountIds: z.array(recordId).describe('Ids of the accounts associated with the customer.'),
    emails: z.array(z.string()),
    phoneNumbers: z.array(phoneDataSchema),
    addresses: z.array(addressDataSchema),
    ...clientFieldSchemas,
    ...archiveFieldSchemas,
  })
  .describe('A business customer. Its tax id is never returned.');

/** What a customer's read answers: a person (the contract's fields) or a business. */
export const anyCustomerDataSchema = z
  .xor([customerDataSchema, businessCustomerDataSchema])
  .describe('A customer: a person (`Customer`), or a business (`customerType: BUSINESS`).');

export const createdCustomerDataSchema = z
  .strictObject({ customerId: recordId })
  .describe('The id of the new customer; clients must store it.');

export const customerAcknowledgmentDataSchema = z
  .strictObject({ customerId: recordId })
  .describe(
    "The customer a write changed, for a token without `customers:read`: its id only (its version is the answer's ETag). Read the customer with `customers:read`.",
  );

/** A write's answer: the full customer with `customers:read`, its acknowledgment without (src/domain/answer-shape.ts). */
export const customerAnswerDataSchema = z
  .xor([customerDataSchema, businessCustomerDataSchema, customerAcknowledgmentDataSchema])
  .describe(
    'The full customer when the token holds `customers:read`; otherwise only its id (`CustomerAcknowledgment`).',
  );

export const customerPageDataSchema = z
  .strictObject({
    customers: z
      .array(anyCustomerDataSchema)
      .describe(
        "In id order (creation order); with a lastName or firstName filter, in that name's order (case and accents folded), then id.",
      ),
    nextAfter: recordId.nullable().describe('Pass as `after` for the next page; null on the last page.'),
  })
  .describe('A page of customers matching every given filter.');

export type CustomerData = z.infer<typeof customerDataSchema>;
export type BusinessCustomerData = z.infer<typeof businessCustomerDataSchema>;
export type AnyCustomerData = z.infer<typeof anyCustomerDataSchema>;
export type CustomerPageData = z.infer<typeof customerPageDataSchema>;

const presentPhone = (phone: Phone): Phone => ({ type: phone.type, number: phone.number });

const presentAddress = (address: Address): Address => ({
  type: address.type,
  street: address.street,
  city: address.city,
  state: address.state,
  zip: address.zip,
});

export const presentCustomer = (customer: Customer): CustomerData => ({
  customerId: customer.customerId,
  accountIds: [...customer.accountIds],
  addresses: customer.addresses.map(presentAddress),
  dateOfBirth: customer.dateOfBirth,
  emails: [...customer.emails],
  firstName: customer.firstName,
  lastName: customer.lastName,
  middleName: customer.middleName,
  phoneNumbers: customer.phoneNumbers.map(presentPhone),
  preferredName: customer.preferredName,
  ...presentClientFields(customer),
  ...presentArchiveFields(customer),
});

/** A business as it reads, with its profile (the customer service reads it for every BUSINESS row). */
export const presentBusinessCustomer = (customer: Customer, business: BusinessProfile): BusinessCustomerData => ({
  customerId: customer.customerId,
  customerType: 'BUSINESS',
  legalName: business.legalName,
  doingBusinessAs: business.doingBusinessAs,
  entityType: business.entityType as BusinessCustomerData['entityType'],
  formationDate: business.formationDate,
  formationState: business.formationState,
  formationCountry: business.formationCountry,
  industry: business.industry,
  website: business.website,
  beneficialOwnerIds: [...(business.beneficialOwnerIds ?? [])],
  accountIds: [...customer.accountIds],
  emails: [...customer.emails],
  phoneNumbers: customer.phoneNumbers.map(presentPhone),
  addresses: customer.addresses.map(presentAddress),
  ...presentClientFields(customer),
  ...presentArchiveFields(customer),
});

/** A person exactly as the contract shows it, or a business with its own fields. */
export const presentAnyCustomer = (customer: Customer): AnyCustomerData => {
  if (customer.customerType !== 'BUSINESS') return presentCustomer(customer);
  // Never a business as an empty person: its profile is read with it (CustomerService), or this is a bug.
  if (customer.business === undefined) throw new Error(`The business profile of ${customer.customerId} was not read`);
  return presentBusinessCustomer(customer, customer.business);
};

/** A write's answer, shaped by the caller's read scope (src/domain/answer-shape.ts). */
export const presentCustomerAnswer = (
  customer: Customer,
  shape: AnswerShape,
): z.infer<typeof customerAnswerDataSchema> =>
  shape === 'full' ? presentAnyCustomer(customer) : { customerId: customer.customerId };

export const presentCustomerPage = (page: Page<Customer>): CustomerPageData => ({
  customers: page.items.map(presentAnyCustomer),
  nextAfter: page.nextAfter,
});
