import { z } from 'zod';
import { instantSchema, list, maxLength, text, upperSnakeCase } from '../../domain/validation.js';
import { ACCOUNT_FLAGS, ACCOUNT_ROLES } from './account.js';
import { isDepositCurrency } from './currencies.js';
import { externalIdSchema, metadataChangesSchema, metadataSchema } from '../../domain/metadata.js';

export const ACCOUNT_LIMITS = {
  nameLength: 100,
  typeLength: 64,
  associatedCustomers: 20,
  customerIdLength: 64,
} as const;

export const currencySchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
  // abort: a malformed code is one problem, not also "not an active currency".
  .regex(/^[A-Z]{3}$/, { message: 'Must be a three-letter upper-case ISO 4217 code, e.g. USD.', abort: true })
  .refine(isDepositCurrency, 'Must be an active ISO 4217 currency code.');

/**
 * Any string up to the length of a plausible id: an id of the wrong shape names no customer, so the account
 * is refused with CUSTOMER_NOT_FOUND (422) like a well-formed unknown id, as `GET /{env}/customer/{malformed}`
 * answers 404. Only a non-string or an absurd length is VALIDATION_FAILED.
 */
const customerIdSchema = z
  .string({ error: 'Must be a string.' })
  .min(1, 'Must be a customerId returned when the customer was created.')
  .max(
    ACCOUNT_LIMITS.customerIdLength,
    maxLength(
      ACCOUNT_LIMITS.customerIdLength,
      `Must be a customerId returned when the customer was created (at most ${ACCOUNT_LIMITS.customerIdLength} characters).`,
    ),
  );

/** A customer's role on an account (docs/adr/0091); an unknown one is VALIDATION_FAILED (INVALID_VALUE). */
export const accountRoleSchema = z.enum(ACCOUNT_ROLES, { error: `Must be one of ${ACCOUNT_ROLES.join(', ')}.` });

/** A customer of a new account with its role. */
export const accountRelationshipInputSchema = z.strictObject({
  customerId: customerIdSchema,
  role: accountRoleSchema,
});

export const createAccountSchema = z
  .strictObject({
    associatedCustomerIds: list(customerIdSchema, ACCOUNT_LIMITS.associatedCustomers, 1).refine(
      (ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length,
      'Must not contain the same customer twice.',
    ),
    name: text(ACCOUNT_LIMITS.nameLength),
    currency: currencySchema,
    type: upperSnakeCase(ACCOUNT_LIMITS.typeLength),
    // Not in the contract; optional, and an account without them reads exactly as the contract shows.
    externalId: externalIdSchema.nullish(),
    metadata: metadataSchema.nullish(),
    /** Not in the contract: the deposit product it opens on (docs/adr/0112); its type and currency must be the account's. */
    productCode: z
      .string({ error: 'Must be a string.' })
      .min(1, 'Must not be empty.')
      .max(32, maxLength(32, 'Must be the code of a product of this environment (at most 32 characters).'))
      .nullish(),
    /**
     * Not in the contract: the roles of some (or all) of associatedCustomerIds; a customer not named is an OWNER.
     * Every id must be one of associatedCustomerIds, each at most once, and at least one customer must stay an OWNER.
     */
    relationships: list(accountRelationshipInputSchema, ACCOUNT_LIMITS.associatedCustomers)
      .refine(
        (relationships) =>
          new Set(relationships.map((relationship) => relationship.customerId.toLowerCase())).size ===
          relationships.length,
        'Must not name the same customer twice.',
      )
      .optional(),
  })
  .superRefine((input, context) => {
    if (input.relationships === undefined) return;
    const associated = new Set(input.associatedCustomerIds.map((id) => id.toLowerCase()));
    input.relationships.forEach((relationship, index) => {
      if (!associated.has(relationship.customerId.toLowerCase()))
        context.addIssue({
          code: 'custom',
          path: ['relationships', index, 'customerId'],
          message: 'Must be one of associatedCustomerIds.',
          params: { code: 'NOT_ASSOCIATED' },
        });
    });
    const roles = new Map(input.relationships.map((r) => [r.customerId.toLowerCase(), r.role]));
    if (!input.associatedCustomerIds.some((id) => (roles.get(id.toLowerCase()) ?? 'OWNER') === 'OWNER'))
      context.addIssue({
        code: 'custom',
        path: ['relationships'],
        message: 'At least one customer of the account must be an OWNER.',
        params: { code: 'OWNER_REQUIRED' },
      });
  });
export type CreateAccountInput = z.output<typeof createAccountSchema>;

/** name and currency are required on every update (the contract's PUT); externalId and metadata are optional. */
export const UPDATABLE_ACCOUNT_FIELDS = ['name', 'currency', 'externalId', 'metadata'] as const;

/** Fields of an account that an update can never change. */
export const NON_UPDATABLE_ACCOUNT_FIELDS = [
  'type',
  'accountId',
  'amount',
  'customers',
  'associatedCustomerIds',
  'relationships',
  'transactions',
  'flags',
] as const;

export const updateAccountSchema = z.strictObject({
  name: text(ACCOUNT_LIMITS.nameLength),
  currency: currencySchema,
  /** null clears it. */
  externalId: externalIdSchema.nullable().optional(),
  /** Merged into the stored pairs (an empty string or null removes a key); null removes them all. */
  metadata: metadataChangesSchema.nullable().optional(),
});

/**
 * A customer to link, by id: any string up to the length of a plausible id (a malformed one names nothing: 404),
 * with its role (not in the contract; OWNER when absent, the contract's call).
 */
export const addAccountCustomerSchema = z.strictObject({
  customerId: z
    .string({ error: 'Must be a string.' })
    .min(1, 'Must not be empty.')
    .max(ACCOUNT_LIMITS.customerIdLength, maxLength(ACCOUNT_LIMITS.customerIdLength)),
  role: accountRoleSchema.optional(),
});

/** A linked customer's new role. */
export const setAccountCustomerRoleSchema = z.strictObject({ role: accountRoleSchema });

export const accountFlagSchema = z.strictObject({
  flag: z.enum(ACCOUNT_FLAGS, { error: `Must be one of ${ACCOUNT_FLAGS.join(', ')}.` }),
});

export const FLAG_LIMITS = { reasonLength: 500 } as const;

/**
 * What may come with setting a flag (docs/adr/0058-flags-with-reason-and-end.md): both optional, so the
 * contract's body-less call keeps working. `until` must be in the future (checked by the service against its clock).
 */
export const setAccountFlagSchema = z.strictObject({
  reason: text(FLAG_LIMITS.reasonLength).optional(),
  until: instantSchema.optional(),
});
export type SetAccountFlagInput = z.output<typeof setAccountFlagSchema>;

/** Why a flag is lifted (docs/adr/0111): kept with the lift, read back in the customer's timeline. */
export const clearAccountFlagSchema = z.strictObject({
  reason: text(FLAG_LIMITS.reasonLength).optional(),
});
/** `POST …/flags/{flag}/lift`: the same, with the reason required (the call exists to say why). */
export const liftAccountFlagSchema = z.strictObject({
  reason: text(FLAG_LIMITS.reasonLength),
});

export const overdraftLimitSchema = z.strictObject({
  overdraftLimit: z.union([z.number(), z.string().max(32, { abort: true })], {
    error: 'Must be a decimal number, 0 or more.',
  }),
});
