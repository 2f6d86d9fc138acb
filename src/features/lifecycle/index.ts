/**
 * The lifecycle feature's public face (docs/adr/0106): accounts close (their balance disbursed by a transfer in the
 * same transaction) and reopen within a window, customers archive. Its service, store, REST operations and GraphQL
 * resolvers; the records' status fields are presented by the accounts' and customers' own presenters.
 */
export { LifecycleService, type LifecycleOptions } from './lifecycle.service.js';
export type { LifecycleStore } from './ports.js';
export { PrismaLifecycleStore } from './lifecycle.store.js';
export { DEFAULT_REOPEN_WINDOW_DAYS } from './lifecycle.schemas.js';
export { LIFECYCLE_ROUTES } from './lifecycle.rest.js';
export { lifecycleResolvers } from './lifecycle.resolvers.js';
