import { auditQuerySchema } from './audit.schemas.js';
import { auditPageDataSchema } from './audit.presenter.js';
import { failure, validationFailureOf } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { Caller } from '../../domain/caller.js';
import type { PageQuery } from '../../domain/pagination.js';
import type { AuditFilter } from './audit.schemas.js';

/** `GET /{environment}/audit-events`: the query string as AuditService.find's filter and page. */
export function listAuditEventsQuery(caller: Caller, query: QueryString): { filter: AuditFilter; page: PageQuery } {
  const { first, after, ...filter } = parseQuery(caller, 'audit:read', auditQuerySchema, query);
  return { filter, page: { first, after } };
}

/** The operations tagged Audit, in the order of the reference. */
export const AUDIT_ROUTES = [
  {
    operationId: 'listAuditEvents',
    method: 'GET',
    path: '/:environment/audit-events',
    family: 'customer',
    tag: 'Audit',
    summary: 'Read the audit trail',
    description:
      'Not in the contract: every successful write of this environment, oldest first, a page at a time. ' +
      'Searches by social security number (`customer.search`) and creations refused because the number is on file (`customer.create.refused`) are there too. ' +
      "Events name the fields a write set, never their values. Uses the customer endpoints' envelope (`log_ref_id`).",
    scope: 'audit:read',
    query: { schema: auditQuerySchema, example: { first: 20, operation: 'customer.create' } },
    success: { status: 200, description: 'A page of events.', data: auditPageDataSchema, component: 'AuditPage' },
    failures: [
      failure(
        'VALIDATION_FAILED',
        'A filter is malformed or unknown, or `from` is not before `to`.',
        validationFailureOf(auditQuerySchema, { first: '0' }),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
