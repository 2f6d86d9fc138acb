import { z } from 'zod';
import { ACCOUNT_FLAGS } from './account.js';
import { limitParameter } from '../../domain/pagination.js';
import { maxLength, upperSnakeCase } from '../../domain/validation.js';
import { ACCOUNT_LIMITS, currencySchema } from './account.schemas.js';
import { externalIdSchema, type Metadata, metadataFilterSchema } from '../../domain/metadata.js';

/**
 * How an operator finds accounts (the customer search's twin, customer-search.ts): every given filter must
 * hold, each served by an index (migration 20261203030000_customer_search):
 * - `customerId`: the accounts the customer holds (an id that names no customer matches nothing);
 * - `type`, `currency`: exact;
 * - `flag`: accounts carrying that flag (FROZEN, DEBITS_BLOCKED, CREDITS_BLOCKED);
 * - `externalId`: exact; `metadata`: every given key has exactly the given value (migration 20261204000000);
 * - `accountNumberLast4`: an account number of the account that is not CANCELED ends in these four digits
 *   (migration 20261214010000; the last four are what every reader of an account may see, docs/account-numbers.md).
 * Results are in id order (creation order), a page at a time (`limit`, `after`).
 */
const filterFields = {
  customerId: z.string().max(ACCOUNT_LIMITS.customerIdLength, maxLength(ACCOUNT_LIMITS.customerIdLength)).optional(),
  type: upperSnakeCase(ACCOUNT_LIMITS.typeLength).optional(),
  currency: currencySchema.optional(),
  flag: z.enum(ACCOUNT_FLAGS, { error: `Must be one of ${ACCOUNT_FLAGS.join(', ')}.` }).optional(),
  externalId: externalIdSchema.optional(),
  metadata: metadataFilterSchema.optional(),
  accountNumberLast4: z
    .string()
    .regex(/^[0-9]{4}$/, 'Must be the last four digits of an account number, e.g. 1234.')
    .optional(),
};

/** REST `GET /{environment}/account`. */
export const accountListQuerySchema = z.strictObject({
  ...filterFields,
  limit: limitParameter.optional(),
  after: z.string().optional(),
});

/** GraphQL `AccountFilter`. */
export const accountFilterSchema = z.strictObject(filterFields);

/** The filters a caller gives `AccountService.find`, as a client writes them (validated by the service). */
export type AccountFilterInput = z.input<typeof accountFilterSchema>;

export interface AccountFilter {
  customerId?: string;
  type?: string;
  currency?: string;
  flag?: string;
  externalId?: string;
  metadata?: Metadata;
  accountNumberLast4?: string;
}

export function accountFilterOf(input: z.output<typeof accountFilterSchema>): AccountFilter {
  return {
    ...(input.customerId !== undefined && { customerId: input.customerId.toLowerCase() }),
    ...(input.type !== undefined && { type: input.type }),
    ...(input.currency !== undefined && { currency: input.currency }),
    ...(input.flag !== undefined && { flag: input.flag }),
    ...(input.externalId !== undefined && { externalId: input.externalId }),
    ...(input.metadata !== undefined && { metadata: input.metadata }),
    ...(input.accountNumberLast4 !== undefined && { accountNumberLast4: input.accountNumberLast4 }),
  };
}
