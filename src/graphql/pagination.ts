import type { Account } from '../features/accounts/index.js';
import type { AuditEvent } from '../domain/audit-event.js';
import type { Customer } from '../features/customers/index.js';
import type { Transaction } from '../features/ledger/index.js';
import type { Note } from '../features/notes/index.js';
import type { MaintenanceFeeAssessment } from '../features/fees/index.js';
import type { Product } from '../features/products/index.js';
import { validationFailed } from '../domain/errors.js';
import { isRecordId } from '../domain/ids.js';
import { type Page, type PageRequest, pageSize } from '../domain/pagination.js';

/**
 * Cursor pagination for the `customers`, `accounts` and `Account.transactions` connections, over the
 * domain's pages (src/domain/pagination.ts). The order is the id order, which the domain's list() guarantees and UUIDv7 makes creation order, so a page never shifts when records are
 * added after it. Cursors are opaque to clients (base64url of kind and id) so the scheme can change.
 * Page sizes are the domain's rule (src/domain/pagination.ts), shared with the audit trail.
 */

/** The domain's pages as the connections' parents (codegen.ts maps each connection type to one of these). */
export type CustomerPage = Page<Customer>;
export type AccountPage = Page<Account>;
/** Newest first (the ledger's order, not the id order); the cursor is a transactionId all the same. */
export type TransactionPage = Page<Transaction>;
/** Oldest first; the cursor is the event id itself (not encoded), as REST answers it. */
export type AuditPage = Page<AuditEvent>;
/** Newest first; the cursor is the noteId itself (not encoded), as REST answers it. */
export type NotePage = Page<Note>;
/** Newest month first; the cursor is the month itself (YYYY-MM), as REST answers it. */
export type FeeAssessmentPage = Page<MaintenanceFeeAssessment>;
/** By code; the cursor is the code itself, as REST answers it. */
export type ProductPage = Page<Product>;

type Kind = 'customer' | 'account' | 'transaction';

export const encodeCursor = (kind: Kind, id: string): string =>
  Buffer.from(`${kind}:${id}`, 'utf8').toString('base64url');

function decodeCursor(kind: Kind, cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const id = decoded.startsWith(`${kind}:`) ? decoded.slice(kind.length + 1) : '';
  if (!isRecordId(id)) {
    throw validationFailed([
      {
        field: 'after',
        code: 'INVALID_CURSOR',
        message: `Must be a cursor returned by the ${kind}s connection (pageInfo.endCursor).`,
      },
    ]);
  }
  return id;
}

/** The domain's page request for these arguments; VALIDATION_FAILED when `first` or `after` is unusable. */
export function pageRequest(kind: Kind, args: { first?: number | null; after?: string | null }): PageRequest {
  const first = pageSize(args.first);
  return args.after === undefined || args.after === null ? { first } : { first, after: decodeCursor(kind, args.after) };
}
