import type { Account } from '../domain/accounts/account.js';
import type { Customer } from '../domain/customers/customer.js';
import type { Transaction } from '../domain/ledger/transaction.js';
import { validationFailed } from '../domain/errors.js';
import { isRecordId } from '../domain/ids.js';
import { pageSize } from '../domain/pagination.js';

/**
 * Cursor pagination for the `customers`, `accounts` and `Account.transactions` connections. The order is the id order, which the
 * domain's list() guarantees and UUIDv7 makes creation order, so a page never shifts when records are
 * added after it. Cursors are opaque to clients (base64url of kind and id) so the scheme can change.
 * Page sizes are the domain's rule (src/domain/pagination.ts), shared with the audit trail.
 */

export interface Page<T> {
  items: T[];
  hasNextPage: boolean;
}
export type CustomerPage = Page<Customer>;
export type AccountPage = Page<Account>;
/** Newest first (the ledger's order, not the id order); the cursor is a transactionId all the same. */
export type TransactionPage = Page<Transaction>;

type Kind = 'customer' | 'account' | 'transaction';

export const encodeCursor = (kind: Kind, id: string): string => Buffer.from(`${kind}:${id}`, 'utf8').toString('base64url');

function decodeCursor(kind: Kind, cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const id = decoded.startsWith(`${kind}:`) ? decoded.slice(kind.length + 1) : '';
  if (!isRecordId(id)) {
    throw validationFailed([{ field: 'after', code: 'INVALID_CURSOR', message: `Must be a cursor returned by the ${kind}s connection (pageInfo.endCursor).` }]);
  }
  return id;
}

/** The domain's page request for these arguments; VALIDATION_FAILED when `first` or `after` is unusable. */
export function pageRequest(kind: Kind, args: { first?: number | null; after?: string | null }): { first: number; after?: string } {
  const first = pageSize(args.first);
  return args.after === undefined || args.after === null ? { first } : { first, after: decodeCursor(kind, args.after) };
}

/**
 * Reads one record more than asked to learn whether another page follows, without a count query.
 */
export async function fetchPage<T>(request: { first: number; after?: string }, list: (page: { first: number; after?: string }) => Promise<T[]>): Promise<Page<T>> {
  const rows = await list({ ...request, first: request.first + 1 });
  return { items: rows.slice(0, request.first), hasNextPage: rows.length > request.first };
}
