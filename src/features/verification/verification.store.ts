import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { ACCOUNT_COLUMNS, isoInstant } from '../../db/sql/columns.js';
import { queryRows, type SqlClient, statement } from '../../db/sql/sql.js';
import { auditChangedFields, auditInsert, auditValues, eventInsert } from '../../db/sql/write-effects.js';
import type { WriteEffects } from '../../domain/write-effects.js';
import type {
  CheckCompletion,
  CheckRequest,
  DecisionRecording,
  DueCheck,
  NewCheck,
  OwnerRejectedAudit,
  AccountFreeze,
  VerificationCheck,
  VerificationDecision,
  VerificationState,
  VerificationStore,
} from './ports.js';
import { CHECKED_FIELDS } from './requirements.js';
import { mayTransition, OWNER_REJECTED_FROM, type VerificationStatus } from './verification-status.js';

/** The reason of the freeze a rejection sets in a gated environment (docs/adr/0104). */
export const VERIFICATION_REJECTED = 'VERIFICATION_REJECTED';

/**
 * A field's digest: base64 SHA-256 of its value as text, so a check remembers what it covered without keeping a
 * copy of it. The SSN and the tax id are digested through their HMAC blind indexes, never their plain values.
 * Both kinds' expressions read `c` (customers) and `b` (business_profiles, LEFT JOINed).
 */
const digest = (text: string) => `encode(sha256(convert_to(${text}, 'UTF8')), 'base64')`;
const IDENTITY_DIGESTS = `jsonb_build_object(
    'name', ${digest('jsonb_build_array(c.first_name, c.middle_name, c.last_name)::text')},
    'dateOfBirth', ${digest("coalesce(c.date_of_birth::text, '')")},
    'address', ${digest('c.addresses::text')},
    'ssn', encode(sha256(coalesce(c.ssn_blind_index, '\\x'::bytea)), 'base64'))`;
const BUSINESS_DIGESTS = `jsonb_build_object(
    'legalName', ${digest('b.legal_name')},
    'taxId', encode(sha256(b.tax_id_blind_index), 'base64'),
    'address', ${digest('c.addresses::text')},
    'formation', ${digest('jsonb_build_array(b.entity_type, b.formation_date, b.formation_state, b.formation_country)::text')})`;
const CURRENT_DIGESTS = `CASE WHEN c.customer_type = 'BUSINESS' THEN ${BUSINESS_DIGESTS} ELSE ${IDENTITY_DIGESTS} END`;

/** A check as it reads (alias `k`). */
const CHECK_FIELDS = `k.id::text AS "checkId", k.kind, k.provider, k.reference, k.status, k.outcome, k.reason_codes AS "reasonCodes",
  k.covered_fields AS "coveredFields", k.field_digests AS "fieldDigests", ${isoInstant('k.requested_at')} AS "requestedAt",
  ${isoInstant('k.completed_at')} AS "completedAt"`;

/**
 * A verification document's metadata as it reads (alias `d`, docs/adr/0103): never a chunk of its content. The digest
 * is answered as lower-case hex.
 */
export const DOCUMENT_FIELDS = `d.id::text AS "documentId", d.customer_id::text AS "customerId", d.type, d.media_type AS "mediaType",
  d.size_bytes AS "sizeBytes", encode(d.sha256, 'hex') AS sha256, d.status, d.reason_code AS "reasonCode",
  d.uploaded_by AS "uploadedBy", ${isoInstant('d.uploaded_at')} AS "uploadedAt", d.reviewed_by AS "reviewedBy",
  ${isoInstant('d.reviewed_at')} AS "reviewedAt"`;

/** How many documents a verification lists (the newest). */
export const DOCUMENTS_LISTED = 20;

/** The status-change event (docs/adr/0101): ids and statuses only, never a field the check covered. */
const STATUS_EVENT = (previous: string, changedFields: string) =>
  eventInsert('x.environment', 'moved', {
    type: "'customer.verification_updated'",
    resourceType: 'customer',
    resourceId: 'x.customer_id',
    payload: `jsonb_build_object('customerId', x.customer_id, 'status', x.status, 'previousStatus', ${previous})`,
    changedFields,
  });

const SQL = {
  // One statement for one customer or a batch: the status, the decision, the digests of today's fields, the newest
  // checks ($3 of them) and a business's owners with their own statuses.
  readMany: statement(
    'verification_read_many',
    `SELECT c.id::text AS "customerId", c.customer_type AS "customerType", coalesce(v.status, 'UNVERIFIED') AS status,
            v.decision_outcome AS "decisionOutcome", v.decision_reason AS "decisionReason", v.decided_by AS "decidedBy",
            ${isoInstant('v.decided_at')} AS "decidedAt", ${CURRENT_DIGESTS} AS "currentDigests",
            coalesce((SELECT json_agg(k ORDER BY k."requestedAt" DESC, k."checkId" DESC) FROM (
                SELECT ${CHECK_FIELDS} FROM verification_checks k
                 WHERE k.customer_id = c.id AND k.environment = c.environment
                 ORDER BY k.requested_at DESC, k.id DESC LIMIT $3::int) k), '[]') AS checks,
            coalesce((SELECT json_agg(json_build_object('customerId', o.owner_customer_id, 'prongs', o.prongs,
                                 'ownershipPercentage', o.ownership_percentage::text, 'status', coalesce(ov.status, 'UNVERIFIED'))
                               ORDER BY o.added_at, o.owner_customer_id)
                        FROM beneficial_owners o
                        LEFT JOIN customer_verifications ov ON ov.customer_id = o.owner_customer_id AND ov.environment = o.environment
                       WHERE o.business_customer_id = c.id AND o.environment = c.environment), '[]') AS owners,
            coalesce((SELECT json_agg(d ORDER BY d."uploadedAt" DESC, d."documentId" DESC) FROM (
                SELECT ${DOCUMENT_FIELDS} FROM verification_documents d
                 WHERE d.customer_id = c.id AND d.environment = c.environment
                 ORDER BY d.uploaded_at DESC, d.id DESC LIMIT ${DOCUMENTS_LISTED}) d), '[]') AS documents,
            (SELECT CASE WHEN bool_or(f.status = 'APPROVED') THEN 'APPROVED' WHEN bool_or(f.status = 'RECEIVED') THEN 'RECEIVED'
                         WHEN bool_or(f.status = 'REJECTED') THEN 'REJECTED' END
               FROM verification_documents f
              WHERE f.customer_id = c.id AND f.environment = c.environment AND f.type = 'CERTIFICATE_OF_FORMATION') AS "formationDocument"
       FROM customers c
       LEFT JOIN business_profiles b ON b.customer_id = c.id AND b.environment = c.environment
       LEFT JOIN customer_verifications v ON v.customer_id = c.id AND v.environment = c.environment
      WHERE c.environment = $1 AND c.id = ANY($2::uuid[])`,
  ),
  // The customer's row, held to the transaction's end: a customer's verification changes one at a time (every
  // writer of it takes this lock first), and an update of its fields waits, so a check's digests are the fields
  // the status change saw.
  lockCustomer: statement(
    'verification_lock_customer',
    `SELECT c.id::text AS "customerId", c.customer_type AS "customerType" FROM customers c
      WHERE c.id = $1::uuid AND c.environment = $2 FOR NO KEY UPDATE`,
  ),
  // Read after the lock, in a statement of its own: its snapshot then has what the lock's previous holder committed.
  statusOf: statement(
    'verification_status_of',
    `SELECT coalesce((SELECT v.status FROM customer_verifications v WHERE v.customer_id = $1::uuid AND v.environment = $2),
                     'UNVERIFIED') AS status`,
  ),
  insertCheck: statement(
    'verification_insert_check',
    `INSERT INTO verification_checks AS k (id, customer_id, environment, kind, provider, reference, covered_fields, field_digests,
                                      requested_by, due_at)
     SELECT $1::uuid, c.id, c.environment, CASE WHEN c.customer_type = 'BUSINESS' THEN 'BUSINESS' ELSE 'IDENTITY' END,
            $4::varchar, $5::varchar, $6::text[], ${CURRENT_DIGESTS}, $7::varchar,
            CURRENT_TIMESTAMP + make_interval(secs => $8::double precision / 1000)
       FROM customers c LEFT JOIN business_profiles b ON b.customer_id = c.id AND b.environment = c.environment
      WHERE c.id = $2::uuid AND c.environment = $3
     RETURNING ${CHECK_FIELDS}`,
  ),
  // A status change with its audit event ($5…) and event; $3 the new status, $4 the one it leaves (already
  // checked against the table under the customer's lock). The decision's columns are kept as they are.
  moveStatus: statement(
    'verification_move_status',
    `WITH moved AS (
       INSERT INTO customer_verifications AS v (customer_id, environment, status)
       VALUES ($1::uuid, $2::varchar, $3::varchar)
       ON CONFLICT (customer_id, environment) DO UPDATE SET status = EXCLUDED.status, updated_at = CURRENT_TIMESTAMP
       RETURNING v.customer_id, v.environment, v.status
     ), audit AS (${auditInsert(5, 'moved')}),
     event AS (${STATUS_EVENT('$4::text', auditChangedFields(5))})
     SELECT status FROM moved`,
  ),
  // A person's decision ($5 outcome, $6 reason, $7 who) with its status change, audit event ($8…) and event.
  decide: statement(
    'verification_decide',
    `WITH moved AS (
       INSERT INTO customer_verifications AS v (customer_id, environment, status, decision_outcome, decision_reason, decided_by, decided_at)
       VALUES ($1::uuid, $2::varchar, $3::varchar, $5::varchar, $6::text, $7::varchar, CURRENT_TIMESTAMP)
       ON CONFLICT (customer_id, environment) DO UPDATE
         SET status = EXCLUDED.status, decision_outcome = EXCLUDED.decision_outcome, decision_reason = EXCLUDED.decision_reason,
             decided_by = EXCLUDED.decided_by, decided_at = EXCLUDED.decided_at, updated_at = CURRENT_TIMESTAMP
       RETURNING v.customer_id, v.environment, v.status
     ), audit AS (${auditInsert(8, 'moved')}),
     event AS (${STATUS_EVENT('$4::text', auditChangedFields(8))})
     SELECT status FROM moved`,
  ),
  // The businesses an owner owns or controls, their rows held as the owner's is (in id order: one lock order).
  lockOwnedBusinesses: statement(
    'verification_lock_owned_businesses',
    `SELECT c.id::text AS "customerId" FROM beneficial_owners o
       JOIN customers c ON c.id = o.business_customer_id AND c.environment = o.environment
      WHERE o.owner_customer_id = $1::uuid AND o.environment = $2
      ORDER BY c.id FOR NO KEY UPDATE OF c`,
  ),
  // Read after their locks: those of them whose status the owner-rejected rule moves.
  statusesAmong: statement(
    'verification_statuses_among',
    `SELECT v.customer_id::text AS "customerId", v.status FROM customer_verifications v
      WHERE v.customer_id = ANY($1::uuid[]) AND v.environment = $2 AND v.status = ANY($3::text[])
      ORDER BY v.customer_id`,
  ),
  // The job's probe, outside a transaction: most passes find nothing due and so open none.
  dueProbe: statement(
    'verification_due_probe',
    `SELECT EXISTS (SELECT 1 FROM verification_checks k
                     WHERE k.status = 'PENDING' AND k.provider = $1 AND k.due_at <= CURRENT_TIMESTAMP) AS due`,
  ),
  // The job's look-up: one due pending check of the provider, with its customer's row. Both rows are held, or the
  // check is skipped for this pass (SKIP LOCKED): another instance has it, or its customer is being changed or
  // deleted. The job never waits for a lock, so it can never hold a check while waiting for a customer a delete
  // holds (which waits for the check to cascade to it).
  takeDueCheck: statement(
    'verification_take_due_check',
    `SELECT k.id::text AS "checkId", k.customer_id::text AS "customerId", k.environment, k.kind, k.provider, k.reference
       FROM verification_checks k JOIN customers c ON c.id = k.customer_id AND c.environment = k.environment
      WHERE k.status = 'PENDING' AND k.provider = $1 AND k.due_at <= CURRENT_TIMESTAMP
      ORDER BY k.due_at LIMIT 1 FOR UPDATE OF k FOR NO KEY UPDATE OF c SKIP LOCKED`,
  ),
  subjectName: statement(
    'verification_subject_name',
    `SELECT CASE WHEN c.customer_type = 'BUSINESS' THEN b.legal_name ELSE c.last_name END AS "subjectName"
       FROM customers c LEFT JOIN business_profiles b ON b.customer_id = c.id AND b.environment = c.environment
      WHERE c.id = $1::uuid AND c.environment = $2`,
  ),
  // The gates' freeze (docs/adr/0104): the accounts a REJECTED customer is linked to, in any role, held in id order
  // (the postings' lock order) after the customer's row; those not frozen yet are frozen one by one (freezeAccount).
  lockAccountsOf: statement(
    'verification_lock_accounts_of',
    `SELECT a.id::text AS "accountId", ('FROZEN' = ANY(a.flags)) AS frozen FROM account_customers l
       JOIN accounts a ON a.id = l.account_id AND a.environment = l.environment
      WHERE l.customer_id = $1::uuid AND l.environment = $2
      ORDER BY a.id FOR NO KEY UPDATE OF a`,
  ),
  // FROZEN with reason VERIFICATION_REJECTED, its audit event ($4…) and the account.updated event; $3 who set it.
  freezeAccount: statement(
    'verification_freeze_account',
    `WITH changed AS (
       UPDATE accounts a SET flags = array_append(a.flags, 'FROZEN'), updated_at = CURRENT_TIMESTAMP
        WHERE a.id = $1::uuid AND a.environment = $2 AND NOT ('FROZEN' = ANY(a.flags))
       RETURNING ${ACCOUNT_COLUMNS}
     ), detail AS (
       INSERT INTO account_flags (account_id, environment, flag, reason, set_at, set_by, until)
       SELECT c.id, $2, 'FROZEN', '${VERIFICATION_REJECTED}', env_now($2::varchar), $3::varchar, NULL FROM changed c
       ON CONFLICT (account_id, flag) DO UPDATE SET reason = EXCLUDED.reason, set_at = EXCLUDED.set_at,
         set_by = EXCLUDED.set_by, until = NULL
     ), audit AS (${auditInsert(4, 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', {
       type: "'account.updated'",
       resourceType: 'account',
       resourceId: 'x.id',
       payload: 'to_jsonb(x)',
       changedFields: auditChangedFields(4),
     })})
     SELECT count(*)::int AS frozen FROM changed`,
  ),
  completeCheck: statement(
    'verification_complete_check',
    `UPDATE verification_checks k SET status = 'COMPLETED', outcome = $2::varchar, reason_codes = $3::text[], completed_at = CURRENT_TIMESTAMP
      WHERE k.id = $1::uuid AND k.status = 'PENDING'
     RETURNING ${CHECK_FIELDS}`,
  ),
};

interface StateRow {
  customerId: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  status: VerificationStatus;
  decisionOutcome: 'VERIFIED' | 'REJECTED' | null;
  decisionReason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  currentDigests: Record<string, string>;
  checks: VerificationCheck[];
  owners: VerificationState['owners'];
  documents: VerificationState['documents'];
  formationDocument: VerificationState['formationDocument'];
}

const toState = (row: StateRow): VerificationState => ({
  customerId: row.customerId,
  customerType: row.customerType,
  status: row.status,
  decision:
    row.decisionOutcome === null
      ? null
      : {
          outcome: row.decisionOutcome,
          reason: row.decisionReason!,
          decidedBy: row.decidedBy!,
          decidedAt: row.decidedAt!,
        },
  checks: row.checks,
  currentDigests: row.currentDigests,
  owners: row.owners,
  documents: row.documents,
  formationDocument: row.formationDocument,
});

type Locked = { customerType: 'INDIVIDUAL' | 'BUSINESS'; status: VerificationStatus };

/** Holds the customer's row, then reads its status as the lock's previous holder left it; null: no such customer. */
export async function lockCustomer(tx: SqlClient, environment: string, customerId: string): Promise<Locked | null> {
  const [customer] = await queryRows<{ customerType: Locked['customerType'] }>(tx, SQL.lockCustomer, [
    customerId,
    environment,
  ]);
  if (!customer) return null;
  const [{ status }] = (await queryRows<{ status: VerificationStatus }>(tx, SQL.statusOf, [
    customerId,
    environment,
  ])) as [{ status: VerificationStatus }];
  return { customerType: customer.customerType, status };
}

/** A customer's verification (docs/adr/0101) in customer_verifications and verification_checks. */
export class PrismaVerificationStore implements VerificationStore {
  constructor(private readonly prisma: PrismaClient) {}

  async readMany(
    environment: string,
    customerIds: readonly string[],
    checksListed: number,
  ): Promise<(VerificationState | null)[]> {
    const rows = await queryRows<StateRow>(this.prisma, SQL.readMany, [environment, [...customerIds], checksListed]);
    const byId = new Map(rows.map((row) => [row.customerId, toState(row)]));
    return customerIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  async requestCheck(
    environment: string,
    customerId: string,
    check: NewCheck,
    effects: WriteEffects,
  ): Promise<CheckRequest> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await lockCustomer(tx, environment, customerId);
      if (!locked) return { outcome: 'not-found' };
      if (!mayTransition(locked.status, 'PENDING', 'check_requested'))
        return { outcome: 'not-allowed', from: locked.status };
      const covered = [...CHECKED_FIELDS[locked.customerType === 'BUSINESS' ? 'BUSINESS' : 'IDENTITY']];
      const [inserted] = await queryRows<VerificationCheck>(tx, SQL.insertCheck, [
        check.checkId,
        customerId,
        environment,
        check.provider,
        check.reference,
        covered,
        check.requestedBy,
        check.delayMs,
      ]);
      await moveStatus(tx, environment, customerId, 'PENDING', locked.status, effects.audit);
      return { outcome: 'requested', check: inserted!, previousStatus: locked.status };
    });
  }

  async decide(
    environment: string,
    customerId: string,
    decision: Omit<VerificationDecision, 'decidedAt'>,
    effects: WriteEffects,
    ownerRejectedAudit: OwnerRejectedAudit,
    freeze?: AccountFreeze,
  ): Promise<DecisionRecording> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await lockCustomer(tx, environment, customerId);
      if (!locked) return { outcome: 'not-found' };
      if (!mayTransition(locked.status, decision.outcome, 'decision'))
        return { outcome: 'not-allowed', from: locked.status };
      await queryRows(tx, SQL.decide, [
        customerId,
        environment,
        decision.outcome,
        locked.status,
        decision.outcome,
        decision.reason,
        decision.decidedBy,
        ...auditValues(effects.audit),
      ]);
      const businessesToReview =
        decision.outcome === 'REJECTED'
          ? await reviewOwnedBusinesses(tx, environment, customerId, ownerRejectedAudit)
          : [];
      if (decision.outcome === 'REJECTED' && freeze) await freezeAccountsOf(tx, environment, customerId, freeze);
      return { outcome: 'decided', previousStatus: locked.status, businessesToReview };
    });
  }

  async completeDueCheck(
    provider: string,
    complete: (due: DueCheck, state: VerificationState) => CheckCompletion,
    audit: (due: DueCheck) => WriteEffects['audit'],
    ownerRejectedAudit: (due: DueCheck) => OwnerRejectedAudit,
    freeze?: (environment: string) => AccountFreeze | undefined,
  ): Promise<boolean> {
    const [probe] = await queryRows<{ due: boolean }>(this.prisma, SQL.dueProbe, [provider]);
    if (!probe?.due) return false;
    return this.prisma.$transaction(async (tx) => {
      const [taken] = await queryRows<Omit<DueCheck, 'subjectName'>>(tx, SQL.takeDueCheck, [provider]);
      if (!taken) return false;
      await applyCompletion(tx, taken, complete, audit, ownerRejectedAudit, freeze?.(taken.environment));
      return true;
    });
  }
}

/**
 * Applies a pending check's result in the caller's transaction, which holds the check's and its customer's rows:
 * the result, the transition (check_completed), the audit event and event, the owner-rejected rule and, with
 * `freeze` (a gated environment), the freeze of a REJECTED customer's accounts. The sandbox's job and the `http`
 * provider's callback both apply results through this.
 */
export async function applyCompletion(
  tx: SqlClient,
  taken: Omit<DueCheck, 'subjectName'>,
  complete: (due: DueCheck, state: VerificationState) => CheckCompletion,
  audit: (due: DueCheck) => WriteEffects['audit'],
  ownerRejectedAudit: (due: DueCheck) => OwnerRejectedAudit,
  freeze: AccountFreeze | undefined,
): Promise<CheckCompletion> {
  // Its customer's row is held already (takeDueCheck, or the callback's lock): this reads the status after it.
  const locked = await lockCustomer(tx, taken.environment, taken.customerId);
  const [subject] = await queryRows<{ subjectName: string | null }>(tx, SQL.subjectName, [
    taken.customerId,
    taken.environment,
  ]);
  const [stateRow] = await queryRows<StateRow>(tx, SQL.readMany, [
    taken.environment,
    [taken.customerId],
    CHECKS_READ_FOR_A_RESULT,
  ]);
  const due: DueCheck = { ...taken, subjectName: subject?.subjectName ?? '' };
  const result = complete(due, toState(stateRow!));
  await queryRows(tx, SQL.completeCheck, [taken.checkId, result.outcome, result.reasonCodes]);
  // While a check is pending its customer is PENDING (only a result leaves PENDING: verification-status.ts);
  // the table is asked all the same, so a status that is not gets its check completed and keeps its status.
  if (locked && mayTransition(locked.status, result.status, 'check_completed')) {
    await moveStatus(tx, taken.environment, taken.customerId, result.status, locked.status, audit(due));
    if (result.status === 'REJECTED') {
      await reviewOwnedBusinesses(tx, taken.environment, taken.customerId, ownerRejectedAudit(due));
      if (freeze) await freezeAccountsOf(tx, taken.environment, taken.customerId, freeze);
    }
  }
  return result;
}

/** FROZEN (VERIFICATION_REJECTED) on every account the customer is linked to that is not frozen yet. */
async function freezeAccountsOf(
  tx: SqlClient,
  environment: string,
  customerId: string,
  freeze: AccountFreeze,
): Promise<void> {
  const accounts = await queryRows<{ accountId: string; frozen: boolean }>(tx, SQL.lockAccountsOf, [
    customerId,
    environment,
  ]);
  for (const account of accounts.filter((candidate) => !candidate.frozen))
    await queryRows(tx, SQL.freezeAccount, [
      account.accountId,
      environment,
      freeze.setBy,
      ...auditValues(freeze.audit(account.accountId)),
    ]);
}

/** A result reads the state its requirements need: its newest checks of each kind. */
const CHECKS_READ_FOR_A_RESULT = 20;

export async function moveStatus(
  tx: SqlClient,
  environment: string,
  customerId: string,
  to: VerificationStatus,
  from: VerificationStatus,
  audit: WriteEffects['audit'],
): Promise<void> {
  await queryRows(tx, SQL.moveStatus, [customerId, environment, to, from, ...auditValues(audit)]);
}

/** The owner-rejected rule: each business the customer owns or controls that the table moves goes to NEEDS_REVIEW. */
export async function reviewOwnedBusinesses(
  tx: SqlClient,
  environment: string,
  ownerId: string,
  audit: OwnerRejectedAudit,
): Promise<string[]> {
  const owned = await queryRows<{ customerId: string }>(tx, SQL.lockOwnedBusinesses, [ownerId, environment]);
  if (owned.length === 0) return [];
  const businesses = await queryRows<{ customerId: string; status: VerificationStatus }>(tx, SQL.statusesAmong, [
    owned.map((business) => business.customerId),
    environment,
    [...OWNER_REJECTED_FROM],
  ]);
  for (const business of businesses)
    await moveStatus(tx, environment, business.customerId, 'NEEDS_REVIEW', business.status, audit(business.customerId));
  return businesses.map((business) => business.customerId);
}
