import { z } from 'zod';
import { validationFailed } from './errors.js';

/**
 * The page size of every list the service answers, on every surface: GraphQL `customers` and `accounts`,
 * and the audit trail (REST `GET /{environment}/audit-events`, GraphQL `auditEvents`). One rule, so a
 * client that pages through one list knows the bounds of all of them.
 */
export const PAGE_SIZE = { default: 20, max: 100 } as const;

/** A list's page sizes: the size of a page not asked for, and the largest one may ask for (at least 1). */
export interface PageBounds {
  readonly default: number;
  readonly max: number;
}

/** The one bound rule of every page size, on the typed value: a whole number from 1 to `bounds.max`. */
export const isWithinBounds = (size: number, bounds: PageBounds = PAGE_SIZE): boolean =>
  Number.isInteger(size) && size >= 1 && size <= bounds.max;

/**
 * `first` as asked, or the default when absent; VALIDATION_FAILED (field `first`, OUT_OF_RANGE) outside
 * 1–bounds.max. Every service checks its page with it (through pageOf), so every caller of the domain (GraphQL,
 * the CLI, a test) is refused alike.
 */
export function pageSize(first: number | null | undefined, bounds: PageBounds = PAGE_SIZE): number {
  const size = first ?? bounds.default;
  if (!isWithinBounds(size, bounds)) {
    throw validationFailed([{ field: 'first', code: 'OUT_OF_RANGE', message: `Must be between 1 and ${bounds.max}.` }]);
  }
  return size;
}

/**
 * A query string's `limit` (REST lists paged by `limit`): a whole number from 1 to `bounds.max`. Its refusals
 * are the REST contract's (field `limit`, INVALID_FORMAT or INVALID_VALUE, one message); the bound is
 * isWithinBounds, the rule pageSize applies to the typed value.
 */
export const limitParameterOf = (bounds: PageBounds) =>
  z
    .string()
    .regex(/^\d{1,3}$/, `Must be a whole number between 1 and ${bounds.max}.`)
    .transform(Number)
    .refine((limit) => isWithinBounds(limit, bounds), `Must be a whole number between 1 and ${bounds.max}.`);

/** `limit` of the lists paged by PAGE_SIZE. */
export const limitParameter = limitParameterOf(PAGE_SIZE);

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
 * A page as a caller of a service asks for it, on every surface: at most `first` records (absent: the list's
 * default; checked against the list's bounds by the service), those after the cursor `after`. REST builds it
 * from `limit`/`after` (or the audit trail's `first`), GraphQL from `first`/`after`.
 */
export interface PageQuery<Cursor = string> {
  first?: number | undefined;
  after?: Cursor | undefined;
}

/** The request a store reads for `page`: its size checked by pageSize (VALIDATION_FAILED outside the bounds). */
export function pageOf<Cursor>(page: PageQuery<Cursor>, bounds: PageBounds = PAGE_SIZE): PageRequest<Cursor> {
  return { first: pageSize(page.first, bounds), after: page.after };
}

/**
 * Reads one record more than asked to learn whether another page follows, without a count query; the next
 * page starts after the last record of this one.
 */
export async function readPage<T>(
  request: PageRequest,
  read: (request: PageRequest) => Promise<T[]>,
  cursorOf: (record: T) => string,
): Promise<Page<T>> {
  const rows = await read({ ...request, first: request.first + 1 });
  const items = rows.slice(0, request.first);
  return { items, nextAfter: rows.length > request.first ? cursorOf(items.at(-1)!) : null };
}
