import { z } from 'zod';
import { isRecordId } from '../../domain/ids.js';
import { PAGE_SIZE } from '../../domain/pagination.js';
import { instantSchema, maxLength } from '../../domain/validation.js';
import { AUDIT_OPERATIONS } from '../../domain/audit-event.js';

// An id is a UUID: 36 characters. The bound aborts before the UUID check reads a longer value.
const recordId = (what: string) => z.string({ error: 'Must be a string.' }).max(36, maxLength(36, `Must be ${what}.`)).refine(isRecordId, `Must be ${what}.`);

const timestamp = instantSchema.transform((value) => new Date(value));

/** Filters of the audit trail; `first` accepts a numeric string too, as query strings carry it. */
export const auditQuerySchema = z
  .strictObject({
    first: z.coerce
      .number({ error: 'Must be a whole number.' })
      .int('Must be a whole number.')
      .min(1, 'Must be at least 1.')
      .max(PAGE_SIZE.max, `Must be at most ${PAGE_SIZE.max}.`)
      .default(PAGE_SIZE.default),
    after: recordId('an eventId from a previous page').optional(),
    resourceId: recordId('a customerId, accountId, endpointId or rotation run id').optional(),
    principalId: z.string({ error: 'Must be a string.' }).min(1, 'Must not be empty.').max(300, maxLength(300)).optional(),
    operation: z.enum(AUDIT_OPERATIONS, { error: `Must be one of ${AUDIT_OPERATIONS.join(', ')}.` }).optional(),
    from: timestamp.optional(),
    to: timestamp.optional(),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from < query.to, {
    message: 'from must be earlier than to.',
    path: ['from'],
  });
