import { z } from 'zod';
import { ACCOUNT_CLOSE_REASONS } from '../accounts/index.js';
import { CUSTOMER_ARCHIVE_REASONS } from '../customers/index.js';

/** The most a disbursementAccountId may be long: any longer names no account (as a customer id, account.schemas.ts). */
const ACCOUNT_ID_LENGTH = 64;

/**
 * Closing an account (docs/account-lifecycle.md): why, and where its remaining balance goes. An id that names no
 * account of the environment is refused by the ledger's statement (ACCOUNT_NOT_FOUND, 422), as a transfer's is.
 */
export const closeAccountSchema = z.strictObject({
  reason: z.enum(ACCOUNT_CLOSE_REASONS, { error: `Must be one of ${ACCOUNT_CLOSE_REASONS.join(', ')}.` }),
  disbursementAccountId: z
    .string({ error: 'Must be a string.' })
    .min(1, 'Must be an accountId of this environment.')
    .max(ACCOUNT_ID_LENGTH, `Must be an accountId of this environment (at most ${ACCOUNT_ID_LENGTH} characters).`)
    .optional(),
});
export type CloseAccountInput = z.input<typeof closeAccountSchema>;

/** Reopening takes nothing (the body is optional); an unknown field is refused all the same. */
export const reopenAccountSchema = z.strictObject({});

export const archiveCustomerSchema = z.strictObject({
  reason: z.enum(CUSTOMER_ARCHIVE_REASONS, { error: `Must be one of ${CUSTOMER_ARCHIVE_REASONS.join(', ')}.` }),
});
export type ArchiveCustomerInput = z.input<typeof archiveCustomerSchema>;

/** How long after its closing an account may be reopened, unless configured (ACCOUNT_REOPEN_WINDOW_DAYS). */
export const DEFAULT_REOPEN_WINDOW_DAYS = 30;
