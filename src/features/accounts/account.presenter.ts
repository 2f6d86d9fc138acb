import { z } from 'zod';
import {
  ACCOUNT_CLOSE_REASONS,
  ACCOUNT_FLAGS,
  ACCOUNT_ROLES,
  type Account,
  type AccountFlagDetail,
} from './account.js';
import { presentTransaction, RECENT_TRANSACTIONS, transactionDataSchema } from '../ledger/index.js';
import { recordId } from '../../presenters/record-id.js';
import { clientFieldSchemas, presentClientFields } from '../../presenters/client-fields.js';
import type { Page } from '../../domain/pagination.js';
import type { AnswerShape } from '../../domain/answer-shape.js';

/**
 * What leaves the service for accounts: the response schemas (the OpenAPI document is generated
 * from them; strict objects) and the presenters mapping domain values onto them field by field, so a field added to
 * the domain never reaches a client by accident. Shared by REST (inside its envelope), webhook delivery and the CLI.
 */

export const accountDataSchema = z
  .strictObject({
    accountId: recordId,
    type: z.string().describe('Upper-case words joined by underscores, e.g. CHECKING. Never changes.'),
    name: z.string().describe('Colloquial name, for user interfaces.'),
    amount: z
      .number()
      .describe('The posted balance: negative for a debt (within the overdraft limit). 0 on a new account.'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217 currency code.'),
    customers: z.array(recordId).min(1).describe('Ids of the associated customers, in the order they were linked.'),
    relationships: z
      .array(
        z
          .strictObject({ customerId: recordId, role: z.enum(ACCOUNT_ROLES) })
          .describe('A customer of the account with its role.'),
      )
      .min(1)
      .optional()
      .describe(
        'Not in the contract. Every customer of `customers`, in its order, with its role; only when some customer is not an OWNER.',
      ),
    transactions: z
      .array(transactionDataSchema)
      .max(RECENT_TRANSACTIONS)
      .describe(
        `The ${RECENT_TRANSACTIONS} newest transactions, newest first; the whole history is GET /{environment}/account/{accountId}/transaction.`,
      ),
    flags: z
      .array(z.enum(ACCOUNT_FLAGS))
      .describe(
        'Flags the ledger enforces: FROZEN (nothing posts), DEBITS_BLOCKED, CREDITS_BLOCKED. Empty on a new account.',
      ),
    ...clientFieldSchemas,
    productCode: z
      .string()
      .optional()
      .describe(
        'Not in the contract. The deposit product the account was opened on (docs/products.md); only when it has one.',
      ),
    status: z
      .enum(['CLOSED', 'INACTIVE', 'DORMANT'])
      .optional()
      .describe(
        'Not in the contract. CLOSED on a closed account (`POST …/close`): nothing posts on it. INACTIVE or DORMANT on an open account without customer-initiated activity for INACTIVE_AFTER_DAYS / DORMANT_AFTER_DAYS (docs/dormancy-and-escheatment.md): a DORMANT account refuses debits (ACCOUNT_DORMANT). Absent while plainly open.',
      ),
    statusSince: z
      .string()
      .optional()
      .describe(
        "Not in the contract. Since when the account is INACTIVE or DORMANT (RFC 3339, UTC, by the environment's clock); only then.",
      ),
    lastActivityAt: z
      .string()
      .optional()
      .describe(
        "Not in the contract. The account's last customer-initiated activity (RFC 3339, UTC, by the environment's clock); only when INACTIVE or DORMANT.",
      ),
    closedAt: z
      .string()
      .optional()
      .describe(
        "Not in the contract. When it was closed (RFC 3339, UTC, by the environment's clock); only when closed.",
      ),
    closeReason: z
      .enum(ACCOUNT_CLOSE_REASONS)
      .optional()
      .describe('Not in the contract. Why it was closed; only when closed.'),
  })
  .describe('A depository account, owned by one or more customers.');

export const accountAcknowledgmentDataSchema = z
  .strictObject({ accountId: recordId })
  .describe(
    "The account a write changed, for a token without `accounts:read`: its id only (its version is the answer's ETag). Read the account with `accounts:read`.",
  );

/** A write's answer: the full account with `accounts:read`, its acknowledgment without (src/domain/answer-shape.ts). */
export const accountAnswerDataSchema = z
  .xor([accountDataSchema, accountAcknowledgmentDataSchema])
  .describe('The full account when the token holds `accounts:read`; otherwise only its id (`AccountAcknowledgment`).');

export const accountPageDataSchema = z
  .strictObject({
    accounts: z.array(accountDataSchema).describe('In id order (the order they were opened in).'),
    nextAfter: recordId.nullable().describe('Pass as `after` for the next page; null on the last page.'),
  })
  .describe('A page of accounts matching every given filter.');

const instant = z.string().describe('RFC 3339, UTC, e.g. 2026-12-24T17:00:00.000Z.');

export const accountFlagDetailDataSchema = z
  .strictObject({
    flag: z.enum(ACCOUNT_FLAGS),
    reason: z.string().nullable().describe('Why it was set; null when none was given.'),
    setAt: instant.nullable().describe('When it was set; null for a flag set before flags had details.'),
    setBy: z
      .string()
      .nullable()
      .describe(
        'Who set it: the principal as the audit trail names it (`token:<id>`, `jwt:<subject>`, `static:<label>`); null for a flag set before flags had details.',
      ),
    setByName: z
      .string()
      .nullable()
      .describe(
        "Who set it, as people read it, when it set it: a managed token's name, a JWT's `name` claim, `API_TOKENS entry 2`; null for a flag set before names were kept.",
      ),
    until: instant.nullable().describe('When it lifts itself; null: until cleared.'),
  })
  .describe('A flag the account carries, with its details.');

export const accountFlagsDataSchema = z
  .strictObject({
    flags: z
      .array(accountFlagDetailDataSchema)
      .max(ACCOUNT_FLAGS.length)
      .describe('In the order FROZEN, DEBITS_BLOCKED, CREDITS_BLOCKED; empty when none is set.'),
  })
  .describe("The account's flags with their details.");

export type AccountData = z.infer<typeof accountDataSchema>;
export type AccountPageData = z.infer<typeof accountPageDataSchema>;

/** The contract shows `amount` as a JSON number; the domain keeps it as an exact decimal string. */
export const presentAccount = (account: Account): AccountData => ({
  accountId: account.accountId,
  type: account.type,
  name: account.name,
  amount: Number(account.amount),
  currency: account.currency,
  customers: [...account.customerIds],
  ...(account.relationships !== undefined && {
    relationships: account.relationships.map((relationship) => ({
      customerId: relationship.customerId,
      role: relationship.role,
    })),
  }),
  transactions: account.transactions.map(presentTransaction),
  flags: account.flags as AccountData['flags'],
  ...presentClientFields(account),
  // Only on a product (docs/adr/0112): an account without one has exactly the contract's fields.
  ...(account.productCode !== undefined && { productCode: account.productCode }),
  // Only once closed: an open account has exactly the contract's fields.
  ...(account.status === 'CLOSED' && {
    status: 'CLOSED' as const,
    closedAt: account.closedAt!,
    closeReason: account.closeReason!,
  }),
  // Only while open and not active (docs/adr/0109).
  ...((account.status === 'INACTIVE' || account.status === 'DORMANT') && {
    status: account.status,
    statusSince: account.statusSince!,
    lastActivityAt: account.lastActivityAt!,
  }),
});

/** A write's answer, shaped by the caller's read scope (src/domain/answer-shape.ts). */
export const presentAccountAnswer = (account: Account, shape: AnswerShape): z.infer<typeof accountAnswerDataSchema> =>
  shape === 'full' ? presentAccount(account) : { accountId: account.accountId };

export const presentAccountFlagDetail = (detail: AccountFlagDetail): z.infer<typeof accountFlagDetailDataSchema> => ({
  flag: detail.flag,
  reason: detail.reason,
  setAt: detail.setAt,
  setBy: detail.setBy,
  setByName: detail.setByName,
  until: detail.until,
});

export const presentAccountFlags = (details: readonly AccountFlagDetail[]): z.infer<typeof accountFlagsDataSchema> => ({
  flags: details.map(presentAccountFlagDetail),
});

export const presentAccountPage = (page: Page<Account>): AccountPageData => ({
  accounts: page.items.map(presentAccount),
  nextAfter: page.nextAfter,
});
