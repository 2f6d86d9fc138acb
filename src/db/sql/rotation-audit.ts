import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { SqlClient } from './sql.js';
import { auditInsert, auditValues } from './write-effects.js';

const ONE_ROW = '(SELECT 1) AS one';

/**
 * A key rotation batch's audit events, one per environment whose rows it re-encrypted, written inside the
 * batch's own transaction (src/db/sealed-*.store.ts): they commit with the re-encryption or not at all.
 * Unnamed SQL: an operator's command, not a request's hot path.
 */
export async function writeAuditEvents(
  tx: SqlClient,
  environments: readonly string[],
  audit: (environment: string) => NewAuditEvent,
): Promise<void> {
  for (const environment of new Set(environments))
    await tx.$executeRawUnsafe(auditInsert(1, ONE_ROW), ...auditValues(audit(environment)));
}
