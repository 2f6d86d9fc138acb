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

/** A page to read: the records after a cursor, at most `first` of them. */
export interface PageRequest {
  /** How many records, at most. */
  first: number;
  /** Return records whose id sorts after this one. */
  after?: string | undefined;
}
