import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import type { WriteEffects } from '../../domain/write-effects.js';
import type {
  AccountFreeze,
  CallbackApplication,
  CallbackResult,
  CheckCompletion,
  DueCheck,
  OwnerRejectedAudit,
  SubmissionTaken,
  VerificationHttpStore,
  VerificationState,
} from './ports.js';
import { applyCompletion, lockCustomer } from './verification.store.js';

const SQL = {
  // The job's look-up (docs/adr/0104): a due check of the provider not yet accepted by the vendor, with its customer's
  // row; both held or skipped (SKIP LOCKED), as the sandbox's look-up. due_at is its next attempt.
  takeSubmission: statement(
    'verification_take_submission',
    `SELECT k.id::text AS "checkId", k.customer_id::text AS "customerId", k.environment, k.kind
       FROM verification_checks k JOIN customers c ON c.id = k.customer_id AND c.environment = k.environment
      WHERE k.status = 'PENDING' AND k.provider = $1 AND k.submitted_at IS NULL AND k.due_at <= CURRENT_TIMESTAMP
      ORDER BY k.due_at LIMIT 1 FOR UPDATE OF k FOR NO KEY UPDATE OF c SKIP LOCKED`,
  ),
  // The attempt counted, the next one moved past this one's time-out, and the fields the vendor is sent (the SSN
  // and the tax id sealed: opened by the service for the call alone).
  leaseSubmission: statement(
    'verification_lease_submission',
    `WITH leased AS (
       UPDATE verification_checks k SET attempts = k.attempts + 1,
              due_at = CURRENT_TIMESTAMP + make_interval(secs => $2::double precision / 1000)
        WHERE k.id = $1::uuid RETURNING k.attempts, k.customer_id, k.environment
     )
     SELECT l.attempts, c.customer_type AS "customerType", c.first_name AS "firstName", c.middle_name AS "middleName",
            c.last_name AS "lastName", to_char(c.date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", c.addresses,
            c.pii_key_id AS "ssnKeyId", c.ssn_ciphertext AS "ssnCiphertext", b.legal_name AS "legalName",
            b.pii_key_id AS "taxIdKeyId", b.tax_id_ciphertext AS "taxIdCiphertext", b.entity_type AS "entityType",
            to_char(b.formation_date, 'YYYY-MM-DD') AS "formationDate", b.formation_state AS "formationState",
            b.formation_country AS "formationCountry"
       FROM leased l JOIN customers c ON c.id = l.customer_id AND c.environment = l.environment
       LEFT JOIN business_profiles b ON b.customer_id = c.id AND b.environment = c.environment`,
  ),
  // Checks the vendor accepted and never called back about within the time-out, oldest first: few (only checks in
  // flight are PENDING, and the partial index on PENDING holds only them).
  overdueResults: statement(
    'verification_overdue_results',
    `SELECT k.id::text AS "checkId", k.environment FROM verification_checks k
      WHERE k.status = 'PENDING' AND k.provider = $1 AND k.submitted_at IS NOT NULL
        AND k.submitted_at <= CURRENT_TIMESTAMP - make_interval(secs => $2::double precision / 1000)
      ORDER BY k.submitted_at LIMIT $3`,
  ),
  recordSubmitted: statement(
    'verification_record_submitted',
    `UPDATE verification_checks k SET submitted_at = CURRENT_TIMESTAMP, reference = $2::varchar
      WHERE k.id = $1::uuid AND k.status = 'PENDING'`,
  ),
  recordAttemptFailed: statement(
    'verification_record_attempt_failed',
    `UPDATE verification_checks k SET due_at = CURRENT_TIMESTAMP + make_interval(secs => $2::double precision / 1000)
      WHERE k.id = $1::uuid AND k.status = 'PENDING' AND k.submitted_at IS NULL`,
  ),
  // Which customer a callback's check belongs to, read before any lock: the customer's row is locked first, as every
  // verification write does (then the check's), so a callback never holds a check a customer's delete waits for.
  checkOwner: statement(
    'verification_check_owner',
    `SELECT k.customer_id::text AS "customerId" FROM verification_checks k
      WHERE k.id = $1::uuid AND k.environment = $2 AND k.provider = $3`,
  ),
  lockCheck: statement(
    'verification_lock_check',
    `SELECT k.id::text AS "checkId", k.customer_id::text AS "customerId", k.environment, k.kind, k.provider, k.reference,
            k.status FROM verification_checks k WHERE k.id = $1::uuid AND k.environment = $2 FOR UPDATE`,
  ),
  rememberCallback: statement(
    'verification_remember_callback',
    `INSERT INTO verification_callbacks (webhook_id, environment, check_id) VALUES ($1::varchar, $2::varchar, $3::uuid)
     ON CONFLICT (webhook_id) DO NOTHING RETURNING webhook_id`,
  ),
  // The vendor's reference when its callback names one and the 202 did not (its answer was lost).
  callbackReference: statement(
    'verification_callback_reference',
    `UPDATE verification_checks k SET reference = $2::varchar, submitted_at = coalesce(k.submitted_at, CURRENT_TIMESTAMP)
      WHERE k.id = $1::uuid`,
  ),
  pruneCallbacks: statement(
    'verification_prune_callbacks',
    `DELETE FROM verification_callbacks WHERE received_at < CURRENT_TIMESTAMP - make_interval(secs => $1::double precision / 1000)`,
  ),
  // The gates (docs/adr/0104): no row reads as UNVERIFIED.
  unverifiedAmong: statement(
    'verification_unverified_among',
    `SELECT c.id::text AS "customerId" FROM customers c
       LEFT JOIN customer_verifications v ON v.customer_id = c.id AND v.environment = c.environment
      WHERE c.environment = $1 AND c.id = ANY($2::uuid[]) AND coalesce(v.status, 'UNVERIFIED') <> 'VERIFIED'
      ORDER BY c.id`,
  ),
  unverifiedHoldersOf: statement(
    'verification_unverified_holders_of',
    `SELECT DISTINCT l.customer_id::text AS "customerId" FROM account_customers l
       LEFT JOIN customer_verifications v ON v.customer_id = l.customer_id AND v.environment = l.environment
      WHERE l.environment = $1 AND l.account_id = ANY($2::uuid[]) AND coalesce(v.status, 'UNVERIFIED') <> 'VERIFIED'
      ORDER BY 1`,
  ),
};

interface LeaseRow {
  attempts: number;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  addresses: unknown;
  ssnKeyId: string | null;
  ssnCiphertext: Uint8Array | null;
  legalName: string | null;
  taxIdKeyId: string | null;
  taxIdCiphertext: Uint8Array | null;
  entityType: string | null;
  formationDate: string | null;
  formationState: string | null;
  formationCountry: string | null;
}

/** The `http` provider's submissions and callbacks, and the gates' reads, on verification_checks (docs/adr/0104). */
export class PrismaVerificationHttpStore implements VerificationHttpStore {
  constructor(private readonly prisma: PrismaClient) {}

  async takeSubmission(provider: string, leaseMs: number): Promise<SubmissionTaken | null> {
    return this.prisma.$transaction(async (tx) => {
      const [taken] = await queryRows<{
        checkId: string;
        customerId: string;
        environment: string;
        kind: 'IDENTITY' | 'BUSINESS';
      }>(tx, SQL.takeSubmission, [provider]);
      if (!taken) return null;
      const [row] = await queryRows<LeaseRow>(tx, SQL.leaseSubmission, [taken.checkId, leaseMs]);
      const r = row!;
      return {
        ...taken,
        attempts: r.attempts,
        customerType: r.customerType,
        firstName: r.firstName,
        middleName: r.middleName,
        lastName: r.lastName,
        dateOfBirth: r.dateOfBirth,
        addresses: r.addresses,
        ssn:
          r.ssnKeyId !== null && r.ssnCiphertext !== null ? { keyId: r.ssnKeyId, ciphertext: r.ssnCiphertext } : null,
        business:
          r.legalName !== null && r.taxIdKeyId !== null && r.taxIdCiphertext !== null
            ? {
                legalName: r.legalName,
                taxId: { keyId: r.taxIdKeyId, ciphertext: r.taxIdCiphertext },
                entityType: r.entityType!,
                formationDate: r.formationDate!,
                formationState: r.formationState,
                formationCountry: r.formationCountry!,
              }
            : null,
      };
    });
  }

  async overdueResults(
    provider: string,
    olderThanMs: number,
    limit: number,
  ): Promise<{ checkId: string; environment: string }[]> {
    return queryRows(this.prisma, SQL.overdueResults, [provider, olderThanMs, limit]);
  }

  async recordSubmitted(checkId: string, providerReference: string): Promise<void> {
    await queryRows(this.prisma, SQL.recordSubmitted, [checkId, providerReference]);
  }

  async recordAttemptFailed(checkId: string, retryInMs: number): Promise<void> {
    await queryRows(this.prisma, SQL.recordAttemptFailed, [checkId, retryInMs]);
  }

  async applyResult(
    environment: string,
    provider: string,
    callback: CallbackResult,
    complete: (due: DueCheck, state: VerificationState) => CheckCompletion,
    audit: (due: DueCheck) => WriteEffects['audit'],
    ownerRejectedAudit: (due: DueCheck) => OwnerRejectedAudit,
    freeze: AccountFreeze | undefined,
  ): Promise<CallbackApplication> {
    const [owner] = await queryRows<{ customerId: string }>(this.prisma, SQL.checkOwner, [
      callback.checkId,
      environment,
      provider,
    ]);
    if (!owner) return { outcome: 'unknown-check' };
    return this.prisma.$transaction(async (tx): Promise<CallbackApplication> => {
      if (!(await lockCustomer(tx, environment, owner.customerId))) return { outcome: 'unknown-check' };
      const [check] = await queryRows<Omit<DueCheck, 'subjectName'> & { status: string }>(tx, SQL.lockCheck, [
        callback.checkId,
        environment,
      ]);
      if (!check) return { outcome: 'unknown-check' };
      if (callback.webhookId !== null) {
        const remembered = await queryRows(tx, SQL.rememberCallback, [callback.webhookId, environment, check.checkId]);
        if (remembered.length === 0) return { outcome: 'duplicate' };
      }
      if (check.status !== 'PENDING') return { outcome: 'already-completed' };
      if (callback.providerReference !== null)
        await queryRows(tx, SQL.callbackReference, [check.checkId, callback.providerReference]);
      const { status: _status, ...taken } = check;
      const completion = await applyCompletion(tx, taken, complete, audit, ownerRejectedAudit, freeze);
      return { outcome: 'applied', completion };
    });
  }

  async pruneCallbacks(olderThanMs: number): Promise<void> {
    await queryRows(this.prisma, SQL.pruneCallbacks, [olderThanMs]);
  }

  async unverifiedAmong(environment: string, customerIds: readonly string[]): Promise<string[]> {
    const rows = await queryRows<{ customerId: string }>(this.prisma, SQL.unverifiedAmong, [
      environment,
      [...customerIds],
    ]);
    return rows.map((row) => row.customerId);
  }

  async unverifiedHoldersOf(environment: string, accountIds: readonly string[]): Promise<string[]> {
    const rows = await queryRows<{ customerId: string }>(this.prisma, SQL.unverifiedHoldersOf, [
      environment,
      [...accountIds],
    ]);
    return rows.map((row) => row.customerId);
  }
}
