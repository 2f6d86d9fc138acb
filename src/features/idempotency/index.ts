/**
 * Idempotent creation's public face, for the features that create (customers, accounts, the ledger), the
 * GraphQL wiring and the composition root. The key's record itself is a write effect (src/domain/write-effects.ts).
 */
export { type CreateOptions, type Creation, IdempotentCreation, idempotencyKeySchema } from './idempotent-creation.js';
export type { IdempotencyRecord, IdempotencyStore } from './ports.js';
export { PrismaIdempotencyStore } from './idempotency.store.js';
