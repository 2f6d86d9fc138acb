import { z } from 'zod';
import { validationFailed } from './errors.js';

/**
 * The page size of every list the service answers, on every surface: GraphQL `customers` and `accounts`,
 * and the audit trail (REST `GET /{environment}/audit-events`, GraphQL `auditEvents`). One rule, so a
 * client that pages through one list knows the bounds of all of them.
 */
export const PAGE_SIZE = { default: 20, max: 100 } as const;

/** `first` as asked, or the default when absent; VALIDATION_FAILED (OUT_OF_RANGE) outside 1–PAGE_SIZE.max. */
export function pageSize(first: number | null | undefined): number {
  const size = first ?? PAGE_SIZE.default;
  if (!Number.isInteger(size) || size < 1 || size > PAGE_SIZE.max) {
    throw validationFailed([{ field: 'first', code: 'OUT_OF_RANGE', message: `Must be between 1 and ${PAGE_SIZE.max}.` }]);
  }
  return size;
}

/** A query string's `limit` (REST lists paged by `limit`): a whole number from 1 to PAGE_SIZE.max. */
export const limitParameter = z
  .string()
  .regex(/^\d{1,3}$/, `Must be a whole number between 1 and ${PAGE_SIZE.max}.`)
  .transform(Number)
  .refine((limit) => limit >= 1 && limit <= PAGE_SIZE.max, `Must be a whole number between 1 and ${PAGE_SIZE.max}.`);

/**
 * The one list vocabulary of the domain: every list is asked for with a `PageRequest` (of a store, or of a
 * service by GraphQL) and answers a `Page`, whose `nextAfter` is the `after` of the next request (REST answers
 * it under that name in every list).
 */

/** A page to read: at most `first` records, those after the cursor `after` in the list's order. */
export interface PageRequest<Cursor = string> {
  /** How many records, at most. */
  first: number;
  /** Return records that come after this one (an id, or an event's sequence). */
  after?: Cursor | undefined;
}

/** A page read: its records in the list's order, and where the next page starts; null on the last page. */
export interface Page<T, Cursor = string> {
  items: T[];
  nextAfter: Cursor | null;
}

/**
 * Reads one record more than asked to learn whether another page follows, without a count query; the next
 * page starts after the last record of this one.
 */
export async function readPage<T>(request: PageRequest, read: (request: PageRequest) => Promise<T[]>, cursorOf: (record: T) => string): Promise<Page<T>> {
  const rows = await read({ ...request, first: request.first + 1 });
  const items = rows.slice(0, request.first);
  return { items, nextAfter: rows.length > request.first ? cursorOf(items.at(-1)!) : null };
}
