import type { NewAuditEvent } from '../../domain/audit-event.js';
import { externalIdTaken, idempotencyKeyInProgress } from '../../domain/errors.js';
import type { CreationEffects, CreationOutcome } from '../../domain/write-effects.js';
import { isLockTimeout, violatedUniqueIndex } from './errors.js';
import { queryRows, type SqlClient, type Statement } from './sql.js';
import { auditValues, claimValues } from './write-effects.js';

/** The client's own id for a customer, unique per environment (migration 20261204000000_external_ids_and_metadata). */
export const CUSTOMER_EXTERNAL_ID_UNIQUE_INDEX = 'customers_environment_external_id_key';

/** One kind of customer's creation statement and the identifier it is unique by (a person's SSN, a business's tax id). */
export interface CustomerCreation {
  /** The creation alone, and the same with its idempotency key's claim (claimValues after `values`). */
  insert: Statement;
  insertWithKey: Statement;
  /** The statement's parameters, its audit event's included. */
  values: readonly unknown[];
  environment: string;
  externalId: string | undefined;
  identifier: {
    /** The unique index of the identifier's blind index. */
    uniqueIndex: string;
    /** Audits the refusal (parameters: environment, externalId, the audit event) and says whether the externalId is taken too. */
    refusal: Statement;
    refusalAudit: NewAuditEvent;
    /** The domain's refusal of a duplicate identifier. */
    alreadyExists: () => Error;
  };
}

/**
 * Runs a customer's creation statement and translates what refuses it. PostgreSQL stops at the first unique index
 * that clashes, in an order of its own: the answer must not depend on it, so the externalId decides first, also
 * when the identifier's index is the one reported (the refusal statement checks it).
 */
export async function createCustomerRow(
  db: SqlClient,
  creation: CustomerCreation,
  effects: CreationEffects,
  idempotencyWaitMs: number,
): Promise<CreationOutcome> {
  try {
    const [row] = effects.idempotency
      ? await queryRows<{ created: number }>(db, creation.insertWithKey, [
          ...creation.values,
          ...claimValues(effects.idempotency, idempotencyWaitMs),
        ])
      : await queryRows<{ created: number }>(db, creation.insert, creation.values);
    return row!.created > 0 ? 'created' : 'key-taken';
  } catch (error) {
    const index = violatedUniqueIndex(error);
    if (index === CUSTOMER_EXTERNAL_ID_UNIQUE_INDEX) throw externalIdTaken('customer');
    if (index === creation.identifier.uniqueIndex) {
      const { refusal, refusalAudit } = creation.identifier;
      const [answer] = await queryRows<{ external_id_taken: boolean }>(db, refusal, [
        creation.environment,
        creation.externalId ?? null,
        ...auditValues(refusalAudit),
      ]);
      if (answer!.external_id_taken) throw externalIdTaken('customer');
      throw creation.identifier.alreadyExists();
    }
    if (effects.idempotency && isLockTimeout(error)) throw idempotencyKeyInProgress();
    throw error;
  }
}
