/**
 * The audit trail's public face, for the composition root: reading the trail (its service, store,
 * presenter, REST route and GraphQL resolvers). Writing it is every write's own business: the event's
 * shape is the shared kernel's (src/domain/audit-event.ts), committed by each store with its change.
 */
export type { AuditStore } from './ports.js';
export { AuditService } from './audit.service.js';
export { PrismaAuditStore } from './audit.store.js';
export { auditEventDataSchema, presentAuditPage } from './audit.presenter.js';
export { AUDIT_ROUTES, listAuditEventsQuery } from './audit.rest.js';
export type { AuditFilter } from './audit.schemas.js';
export { auditResolvers } from './audit.resolvers.js';
