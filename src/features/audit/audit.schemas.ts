import { z } from 'zod';
import { isRecordId } from '../../domain/ids.js';
import { PAGE_SIZE } from '../../domain/pagination.js';
import { instantSchema, maxLength } from '../../domain/validation.js';
import { AUDIT_OPERATIONS } from '../../domain/audit-event.js';

// An id is a UUID: 36 characters. The bound aborts before the UUID check reads a longer value.
const recordId = (what: string) =>
  z
    .string({ error: 'Must be a string.' })
    .max(36, maxLength(36, `Must be ${what}.`))
    .refine(isRecordId, `Must be ${what}.`);

const filterFields = {
  resourceId: recordId('a customerId, accountId, endpointId or rotation run id').optional(),
  principalId: z
    .string({ error: 'Must be a string.' })
    .min(1, 'Must not be empty.')
    .max(300, maxLength(300))
    .optional(),
  operation: z.enum(AUDIT_OPERATIONS, { error: `Must be one of ${AUDIT_OPERATIONS.join(', ')}.` }).optional(),
  from: instantSchema.optional(),
  to: instantSchema.optional(),
};

/** `from` before `to`, when both are given (instants, compared as moments: offsets may differ). */
const fromBeforeTo: [
  (query: { from?: string | undefined; to?: string | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  (query) => query.from === undefined || query.to === undefined || Date.parse(query.from) < Date.parse(query.to),
  { message: 'from must be earlier than to.', path: ['from'] },
];

/** A page's cursor: the eventId of the previous page's last event. */
export const auditCursorSchema = recordId('an eventId from a previous page');

/** The audit trail's filters (`AuditService.find`; GraphQL `auditEvents`' arguments). */
export const auditFilterSchema = z.strictObject(filterFields).refine(...fromBeforeTo);

/** The filters a caller gives `AuditService.find`: instants as RFC 3339 text, an operation's name (all validated by the service). */
export interface AuditFilter {
  resourceId?: string | undefined;
  principalId?: string | undefined;
  operation?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** Query of REST `GET /{environment}/audit-events`: the filters and the page; `first` is a numeric string, as query strings carry it. */
export const auditQuerySchema = z
  .strictObject({
    first: z.coerce
      .number({ error: 'Must be a whole number.' })
      .int('Must be a whole number.')
      .min(1, 'Must be at least 1.')
      .max(PAGE_SIZE.max, `Must be at most ${PAGE_SIZE.max}.`)
      .default(PAGE_SIZE.default),
    after: auditCursorSchema.optional(),
    ...filterFields,
  })
  .refine(...fromBeforeTo);
