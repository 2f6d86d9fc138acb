import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { CustomerArchiveReason } from '../customers/index.js';
import { BUSINESS_PROFILE_COLUMNS } from '../businesses/index.js';
import type { LedgerRefusal, NewPosting, PrismaLedgerStore } from '../ledger/index.js';
import type { PrismaInterestStore } from '../interest/index.js';
import type { AccountClose, AccountClosing, AccountReopen, CustomerArchive, LifecycleStore } from './ports.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import {
  ACCOUNT_COLUMNS,
  type AccountRow,
  CUSTOMER_COLUMNS,
  type CustomerRow,
  toAccount,
  toCustomer,
} from '../../db/sql/columns.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import { auditChangedFields, auditInsert, auditValues, eventInsert } from '../../db/sql/write-effects.js';

/** The account's event after a lifecycle change: the account as it is now, as account.updated carries it. */
const accountEvent = (type: string, auditFirst: number) => ({
  type: `'${type}'`,
  resourceType: 'account',
  resourceId: 'x.id',
  payload: 'to_jsonb(x)',
  changedFields: auditChangedFields(auditFirst),
});

const SQL = {
  // The closing account, locked as a posting locks it (FOR NO KEY UPDATE): no posting can slip in between this read
  // and the close, and the disbursement's own posting statement, in the same transaction, already holds the lock.
  lockForClose: statement(
    'lifecycle_lock_for_close',
    `SELECT a.id, trim_scale(a.amount)::text AS amount, a.amount < 0 AS negative, a.currency,
            (a.pending_debits <> 0 OR a.pending_credits <> 0) AS "holdsPending", a.closed_at IS NOT NULL AS closed
     FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2::varchar FOR NO KEY UPDATE`,
  ),
  // $3 the environment's time (the clock port), $4 the reason; audit from $5.
  close: statement(
    'lifecycle_close_account',
    `WITH changed AS (
       UPDATE accounts a SET closed_at = $3::timestamptz, close_reason = $4::varchar, updated_at = CURRENT_TIMESTAMP
       WHERE a.id = $1::uuid AND a.environment = $2::varchar AND a.closed_at IS NULL
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${auditInsert(5, 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', accountEvent('account.closed', 5))})
     SELECT * FROM changed`,
  ),
  lockForReopen: statement(
    'lifecycle_lock_for_reopen',
    `SELECT a.id, a.closed_at IS NOT NULL AS closed, coalesce(a.closed_at > $3::timestamptz, false) AS "withinWindow"
     FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2::varchar FOR NO KEY UPDATE`,
  ),
  // Its customers as committed once the account is locked (a statement of its own: a new snapshot), held FOR KEY SHARE
  // so that an archive (FOR UPDATE) waits for this transaction, and this one sees an archive committed before it.
  archivedCustomersOf: statement(
    'lifecycle_archived_customers_of',
    `SELECT count(*) FILTER (WHERE l.archived_at IS NOT NULL)::int AS archived FROM (
       SELECT c.archived_at FROM account_customers ac JOIN customers c ON c.id = ac.customer_id AND c.environment = ac.environment
       WHERE ac.account_id = $1::uuid AND ac.environment = $2::varchar ORDER BY c.id FOR KEY SHARE OF c
     ) l`,
  ),
  // Audit from $3.
  reopen: statement(
    'lifecycle_reopen_account',
    `WITH changed AS (
       UPDATE accounts a SET closed_at = NULL, close_reason = NULL, updated_at = CURRENT_TIMESTAMP
       WHERE a.id = $1::uuid AND a.environment = $2::varchar AND a.closed_at IS NOT NULL
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${auditInsert(3, 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', accountEvent('account.reopened', 3))})
     SELECT * FROM changed`,
  ),
  // FOR UPDATE: the one lock an account's creation (and a link's addition), holding the customer FOR KEY SHARE, waits for.
  lockForArchive: statement(
    'lifecycle_lock_for_archive',
    `SELECT c.id, c.archived_at IS NOT NULL AS archived FROM customers c
     WHERE c.id = $1::uuid AND c.environment = $2::varchar FOR UPDATE`,
  ),
  // Read after the customer's lock (a new snapshot: every link committed before it); FOR SHARE waits for a reopening
  // or closing of one of them to commit, then reads its outcome.
  openAccountsOf: statement(
    'lifecycle_open_accounts_of',
    `SELECT count(*) FILTER (WHERE l.closed_at IS NULL)::int AS open FROM (
       SELECT a.closed_at FROM account_customers ac JOIN accounts a ON a.id = ac.account_id AND a.environment = ac.environment
       WHERE ac.customer_id = $1::uuid AND ac.environment = $2::varchar ORDER BY a.id FOR SHARE OF a
     ) l`,
  ),
  // $3 the environment's time, $4 the reason; audit from $5. Event customer.archived (docs/adr/0109): the customer as
  // its customer events carry it, a business with its profile (never its tax id).
  archive: statement(
    'lifecycle_archive_customer',
    `WITH changed AS (
       UPDATE customers c SET archived_at = $3::timestamptz, archive_reason = $4::varchar, updated_at = CURRENT_TIMESTAMP
       WHERE c.id = $1::uuid AND c.environment = $2::varchar AND c.archived_at IS NULL
       RETURNING ${CUSTOMER_COLUMNS}
     ), audit AS (${auditInsert(5, 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', {
       type: "'customer.archived'",
       resourceType: 'customer',
       resourceId: 'x.id',
       payload: `to_jsonb(x) || coalesce((SELECT jsonb_build_object('customerType', 'BUSINESS', 'business', to_jsonb(p) - 'id')
         FROM (SELECT ${BUSINESS_PROFILE_COLUMNS} FROM business_profiles b WHERE b.customer_id = x.id AND b.environment = $2::varchar) p), '{}'::jsonb)`,
       changedFields: auditChangedFields(5),
     })})
     SELECT * FROM changed`,
  ),
};

/** A refusal inside a transaction: thrown so that the transaction rolls back, caught outside it. */
class Refusal extends Error {
  constructor(readonly outcome: Exclude<AccountClose, { outcome: 'closed' }>) {
    super(outcome.outcome);
  }
}

/** Accounts' and customers' lifecycle on PostgreSQL, through Prisma Client (interactive transactions). */
export class PrismaLifecycleStore implements LifecycleStore {
  constructor(
    private readonly prisma: PrismaClient,
    /** The ledger's store: a closing disbursement is its posting statement, run in this store's transaction. */
    private readonly ledger: PrismaLedgerStore,
    /** The interest store: the interest accrued and unpaid is posted in the closing's transaction, before its balance is read. */
    private readonly interest?: Pick<PrismaInterestStore, 'postWithin'>,
  ) {}

  async close(closing: AccountClosing): Promise<AccountClose> {
    const { environment, accountId } = closing;
    try {
      return await this.prisma.$transaction(async (tx): Promise<AccountClose> => {
        type Locked = {
          amount: string;
          negative: boolean;
          currency: string;
          holdsPending: boolean;
          closed: boolean;
        };
        let [locked] = await queryRows<Locked>(tx, SQL.lockForClose, [accountId, environment]);
        if (!locked) return { outcome: 'not-found' };
        if (locked.closed) return { outcome: 'already-closed' };
        if (locked.holdsPending) return { outcome: 'holds-pending' };
        // Its interest first (docs/adr/0113), so that the balance disbursed includes it; read again once credited.
        if (closing.interest && this.interest) {
          const interest = await this.interest.postWithin(
            tx,
            { environment, accountId, ...closing.interest },
            'CLOSING',
          );
          if (interest.outcome === 'posted' && interest.transactionId !== null)
            [locked] = await queryRows<Locked>(tx, SQL.lockForClose, [accountId, environment]);
        }
        if (!locked) return { outcome: 'not-found' };
        if (locked.amount !== '0') {
          if (locked.negative || !closing.disbursement)
            throw new Refusal({ outcome: 'balance-not-zero', negative: locked.negative });
          const disbursement = closing.disbursement;
          const posting: NewPosting = {
            environment,
            postingId: disbursement.transferId,
            transferId: disbursement.transferId,
            legs: [
              { entryId: disbursement.debitEntryId, accountId, type: 'DEBIT' },
              { entryId: disbursement.creditEntryId, accountId: disbursement.accountId, type: 'CREDIT' },
            ],
            amount: locked.amount,
            currency: locked.currency,
            description: disbursement.description,
            hold: false,
            expiresAt: null,
            limits: disbursement.limits,
            externalId: null,
            metadata: null,
          };
          const written = await this.ledger.postWithin(tx, posting, { audit: disbursement.audit });
          if (written.outcome === 'refused')
            throw new Refusal({
              outcome: 'disbursement-refused',
              refusal: written.refusal as LedgerRefusal,
              accountId: written.accountId,
              currency: written.currency ?? null,
            });
        }
        const [row] = await queryRows<AccountRow>(tx, SQL.close, [
          accountId,
          environment,
          closing.closedAt,
          closing.reason,
          ...auditValues(closing.audit),
        ]);
        return { outcome: 'closed', account: toAccount(row!) };
      });
    } catch (error) {
      if (error instanceof Refusal) return error.outcome;
      throw error;
    }
  }

  reopen(environment: string, accountId: string, closedAfter: Date, audit: NewAuditEvent): Promise<AccountReopen> {
    return this.prisma.$transaction(async (tx): Promise<AccountReopen> => {
      const [locked] = await queryRows<{ closed: boolean; withinWindow: boolean }>(tx, SQL.lockForReopen, [
        accountId,
        environment,
        closedAfter,
      ]);
      if (!locked) return { outcome: 'not-found' };
      if (!locked.closed) return { outcome: 'not-closed' };
      if (!locked.withinWindow) return { outcome: 'window-passed' };
      const [customers] = await queryRows<{ archived: number }>(tx, SQL.archivedCustomersOf, [accountId, environment]);
      if (customers!.archived > 0) return { outcome: 'customer-archived' };
      const [row] = await queryRows<AccountRow>(tx, SQL.reopen, [accountId, environment, ...auditValues(audit)]);
      return { outcome: 'reopened', account: toAccount(row!) };
    });
  }

  archive(
    environment: string,
    customerId: string,
    reason: CustomerArchiveReason,
    archivedAt: Date,
    audit: NewAuditEvent,
  ): Promise<CustomerArchive> {
    return this.prisma.$transaction(async (tx): Promise<CustomerArchive> => {
      const [locked] = await queryRows<{ archived: boolean }>(tx, SQL.lockForArchive, [customerId, environment]);
      if (!locked) return { outcome: 'not-found' };
      if (locked.archived) return { outcome: 'already-archived' };
      const [accounts] = await queryRows<{ open: number }>(tx, SQL.openAccountsOf, [customerId, environment]);
      if (accounts!.open > 0) return { outcome: 'open-accounts', count: accounts!.open };
      const [row] = await queryRows<CustomerRow>(tx, SQL.archive, [
        customerId,
        environment,
        archivedAt,
        reason,
        ...auditValues(audit),
      ]);
      return { outcome: 'archived', customer: toCustomer(row!) };
    });
  }
}
