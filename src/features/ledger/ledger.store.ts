import { idempotencyKeyInProgress } from '../../domain/errors.js';
import type { Transaction } from './transaction.js';
import type { CreationEffects } from '../../domain/write-effects.js';
import type {
  ExpiredHold,
  HoldSettlement,
  LedgerRefusal,
  LedgerStore,
  LedgerWrite,
  LimitCheck,
  NewPosting,
  NewReversal,
  TransactionFilter,
} from './ports.js';
import type { PageRequest } from '../../domain/pagination.js';
import { ACCOUNT_COLUMNS, TRANSACTION_COLUMNS, type TransactionRow, toTransaction } from '../../db/sql/columns.js';
import { isLockTimeout, isNumericOutOfRange, violatedUniqueIndex } from '../../db/sql/errors.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { jsonParameter, queryRows, type SqlClient, statement } from '../../db/sql/sql.js';
import {
  auditInsert,
  auditValues,
  claimQueries,
  claimValues,
  DEFAULT_IDEMPOTENCY_WAIT_MS,
  eventInsert,
} from '../../db/sql/write-effects.js';
import { transactionListSql } from './transaction-list.sql.js';
import { DEFAULT_TIME_ZONE } from '../../config/clock.js';

/** An externalId is unique per environment and kind (migration 20261204010000_transaction_filters). */
const EXTERNAL_ID_UNIQUE_INDEX = 'ledger_entries_external_id_key';

/**
 * The ledger's writes, each ONE statement (pgledger's discipline, without its functions):
 *
 * 1. lock the customer accounts the posting touches, FOR NO KEY UPDATE in id order, so two postings on
 *    the same accounts queue instead of deadlocking (a link insert's FOR KEY SHARE does not conflict);
 * 2. decide on what was locked: under READ COMMITTED a row lock returns the row's newest committed
 *    version, so the balance checked is the balance updated, and it cannot change until commit;
 * 3. only if every rule holds (and, with a key, the key was claimed): update the balances, upsert the
 *    environment's settlement account of the currency (always after the customer accounts: one lock
 *    order for every statement), insert the entries with the running balance, and the audit event.
 *
 * `decision` is a one-row aggregate over `locked`, so every lock is taken before anything is written.
 * A database trigger refuses an unbalanced posting and any change to a posted entry, whatever code
 * wrote it (prisma/migrations/20261124000000_ledger). Deadlocks and serialization failures are retried
 * by withTranslatedErrors (src/db/sql/errors.ts).
 */

/** One event per customer-account side of what `entries` wrote (the settlement side is the bank's own). */
const TRANSACTION_EVENTS = eventInsert('$1::varchar', '(SELECT * FROM entries WHERE NOT is_settlement)', {
  type: "CASE x.status WHEN 'POSTED' THEN 'transaction.posted' WHEN 'PENDING' THEN 'transaction.pending' ELSE 'transaction.voided' END",
  resourceType: 'transaction',
  resourceId: 'x."transactionId"',
  payload: "to_jsonb(x) - 'is_settlement'",
});

/**
 * The columns every legs CTE provides: entry_id, account_id (NULL: an internal account), type, amount, currency, reverses,
 * external_id, metadata (the client's, for the customer-account legs only), n, purpose (the internal account's: SETTLEMENT,
 * in ledger_settlement_accounts, or INTEREST_EXPENSE / FEE_INCOME, in ledger_internal_accounts, docs/adr/0113 and 0115;
 * NULL on a customer account's leg).
 */
interface LegsSource {
  /** WITH queries ending in one named `legs`. */
  ctes: string;
  /** A refusal decided before any account rule (an expression: a code or NULL), even when there are no legs. */
  precondition: string;
  /** Whether a client asked for the posting (a boolean expression): a DORMANT account refuses its debits (ACCOUNT_DORMANT). */
  byClient: string;
  /**
   * Whether leg `l` is its account's customer-initiated activity (a boolean expression over `l`, docs/adr/0109): it
   * sets the account's last_activity_at and makes an INACTIVE or DORMANT account active again.
   */
  activity: string;
  /**
   * Whether a client's legs answer to their account's product (docs/adr/0114): its minimum balance, withdrawal
   * limits and opening deposit, on the environment's business date in the time zone of parameter $15. A leg of an
   * account on a product, when `byClient` holds, carries the product's row (`k.product`); false (a reversal, a
   * correction): the statement has none of the product's parts.
   */
  productRules: boolean;
}

/**
 * A product's rules on a client's legs (docs/adr/0114), as parts of the posting statement. `locked` reads the product
 * row of an account that has one and the environment's business date (lazy: an account without a product, or the
 * bank's own posting, reads nothing more), and `checked` refuses on them after the ledger's own rules, so
 * INSUFFICIENT_FUNDS keeps its meaning:
 * - MINIMUM_BALANCE: a debit (or a debit hold) that would leave the available balance (amount - pending_debits)
 *   below the product's minimum_balance; the overdraft limit never lowers it.
 * - WITHDRAWAL_LIMIT_DAILY_TOTAL / _PER_MONTH: a debit (a withdrawal) that would take the account's client debits of
 *   the business date over daily_withdrawal_total, or their count in the business month over withdrawals_per_month.
 *   The counts are the account's own columns (withdrawal_day…, migration 20261218000000), moved by `moved` on the
 *   row `locked` holds: a second debit waits for the first's commit and reads its counts (READ COMMITTED re-reads a
 *   locked row's newest version), so concurrent debits never pass a limit together. A count of another day or month
 *   reads as 0.
 * - MINIMUM_OPENING_DEPOSIT: the account's first posting (entry_count 0: the opening window lasts until it) is a credit
 *   below the product's minimum_opening_deposit, or a debit (an overdraft before any deposit).
 * The refusal's values (`refused_detail`) come from the refused leg's own locked row.
 */
function productRuleSql(byClient: string) {
  const dayUsed = 'coalesce(CASE WHEN k.withdrawal_day = k.business_date THEN k.withdrawal_day_total END, 0)';
  const month = "date_trunc('month', k.business_date)::date";
  const monthUsed = `coalesce(CASE WHEN k.withdrawal_month = ${month} THEN k.withdrawal_month_count END, 0)`;
  // Every client debit of an account on a product is a withdrawal: a hold when it is made, a transfer out.
  const counts = "l.type = 'DEBIT' AND k.business_date IS NOT NULL";
  return {
    locked: `, a.entry_count, a.withdrawal_day, a.withdrawal_day_total, a.withdrawal_month, a.withdrawal_month_count,
              CASE WHEN a.product_code IS NOT NULL AND ${byClient} THEN
                (SELECT p FROM products p WHERE p.environment = a.environment AND p.code = a.product_code) END AS product,
              CASE WHEN a.product_code IS NOT NULL AND ${byClient} THEN (env_now($1::varchar) AT TIME ZONE $15::text)::date END AS business_date`,
    checks: `
         WHEN l.type = 'DEBIT' AND k.amount - k.pending_debits - l.amount < (k.product).minimum_balance THEN 'MINIMUM_BALANCE'
         WHEN l.type = 'DEBIT' AND ${dayUsed} + l.amount > (k.product).daily_withdrawal_total THEN 'WITHDRAWAL_LIMIT_DAILY_TOTAL'
         WHEN l.type = 'DEBIT' AND ${monthUsed} + 1 > (k.product).withdrawals_per_month THEN 'WITHDRAWAL_LIMIT_PER_MONTH'
         WHEN k.entry_count = 0 AND (l.type = 'DEBIT' OR l.amount < (k.product).minimum_opening_deposit)
              AND (k.product).minimum_opening_deposit IS NOT NULL THEN 'MINIMUM_OPENING_DEPOSIT'`,
    checkedColumns: `, k.product, k.amount - k.pending_debits AS available, ${dayUsed} AS day_used, ${monthUsed} AS month_used`,
    detail: `CASE c.refusal
         WHEN 'MINIMUM_BALANCE' THEN jsonb_build_object('minimumBalance', trim_scale((c.product).minimum_balance)::text,
                                                        'available', trim_scale(c.available)::text)
         WHEN 'WITHDRAWAL_LIMIT_DAILY_TOTAL' THEN jsonb_build_object('limit', trim_scale((c.product).daily_withdrawal_total)::text,
                                                                     'used', trim_scale(c.day_used)::text)
         WHEN 'WITHDRAWAL_LIMIT_PER_MONTH' THEN jsonb_build_object('limit', (c.product).withdrawals_per_month::text,
                                                                   'used', c.month_used::text)
         WHEN 'MINIMUM_OPENING_DEPOSIT' THEN jsonb_build_object('minimumOpeningDeposit',
                                                                trim_scale((c.product).minimum_opening_deposit)::text)
       END`,
    moved: `,
         withdrawal_day = CASE WHEN ${counts} THEN k.business_date ELSE a.withdrawal_day END,
         withdrawal_day_total = CASE WHEN ${counts} THEN ${dayUsed} + l.amount ELSE a.withdrawal_day_total END,
         withdrawal_month = CASE WHEN ${counts} THEN ${month} ELSE a.withdrawal_month END,
         withdrawal_month_count = CASE WHEN ${counts} THEN ${monthUsed} + 1 ELSE a.withdrawal_month_count END`,
  };
}

/**
 * A limited caller's checks (src/features/ledger/limits.ts), as parts of a write statement. Parameters from
 * `at`: principal, UTC day, maximum per posting (NULL: none), daily limits as JSON {currency: amount} (NULL:
 * the write does not count). `currency` and `amount` are SQL expressions over the statement's own CTEs.
 *
 * The day's total row exists before the statement runs (PrismaLedgerStore.prepareDailyTotals) and is locked
 * FOR UPDATE after the accounts (one lock order for every write): concurrent postings of one principal
 * queue on it, and each sees the total the previous one committed (READ COMMITTED re-reads a locked row's
 * newest version), so together they never pass the limit. A currency the limits do not list has no daily
 * total; a listed one whose row is missing is refused (fail closed).
 */
function limitSql(at: number, currency: string, amount: string) {
  const p = (n: number) => `$${at + n}`;
  const limit = `(${p(3)}::jsonb ->> (${currency})::text)::numeric`;
  return {
    ctes: `quota AS MATERIALIZED (
       SELECT q.total FROM api_token_daily_totals q
       WHERE q.principal_id = ${p(0)}::varchar AND q.day = ${p(1)}::date AND q.currency = (${currency}) AND ${limit} IS NOT NULL
       FOR UPDATE
     )`,
    refusal: `CASE
         WHEN ${p(2)}::numeric IS NOT NULL AND (${amount}) > ${p(2)}::numeric THEN 'TOKEN_LIMIT_EXCEEDED'
         WHEN ${limit} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM quota q WHERE q.total + (${amount}) <= ${limit}) THEN 'TOKEN_LIMIT_EXCEEDED'
       END`,
    counted: `counted AS (
       UPDATE api_token_daily_totals q SET total = q.total + (${amount})
       FROM go WHERE q.principal_id = ${p(0)}::varchar AND q.day = ${p(1)}::date AND q.currency = (${currency}) AND ${limit} IS NOT NULL
     )`,
  };
}

/** What a posting's leg without an account (`l`) adds to its internal account's balance and pending totals ($5: a hold). */
const INTERNAL_LEG_AMOUNTS = `CASE WHEN $5::boolean THEN 0 WHEN l.type = 'CREDIT' THEN l.amount ELSE -l.amount END,
              CASE WHEN $5::boolean AND l.type = 'DEBIT' THEN l.amount ELSE 0 END,
              CASE WHEN $5::boolean AND l.type = 'CREDIT' THEN l.amount ELSE 0 END`;

/**
 * The posting statement around `legs`. Parameters: $1 environment, $2 posting id, $3 transfer id,
 * $4 description, $5 hold, $6 expires_at; the legs' own from $7; a limited caller's from `limitsAt`
 * (undefined: not limited, and none of the limit's queries run); audit from `auditAt`; the key's claim
 * (with a key) from `auditAt + 9`.
 */
function postingSql(legs: LegsSource, auditAt: number, withKey: boolean, limitsAt?: number): string {
  const limits =
    limitsAt === undefined
      ? undefined
      : limitSql(limitsAt, 'SELECT p.currency FROM posting p', 'SELECT max(l.amount) FROM legs l');
  const product = legs.productRules ? productRuleSql(legs.byClient) : undefined;
  return `WITH ${legs.ctes},
     locked AS MATERIALIZED (
       SELECT a.id, a.currency, a.amount, a.pending_debits, a.overdraft_limit, a.flags, a.closed_at, a.activity_status${product ? product.locked : ''} FROM accounts a
       WHERE a.environment = $1::varchar AND a.id IN (SELECT legs.account_id FROM legs WHERE legs.account_id IS NOT NULL)
       ORDER BY a.id FOR NO KEY UPDATE${product ? ' OF a' : ''}
     ),
     -- The posting's currency: given by the legs (a reversal's), else the first account's, as locked.
     posting AS MATERIALIZED (
       SELECT coalesce((SELECT l.currency FROM legs l WHERE l.currency IS NOT NULL LIMIT 1),
                       (SELECT k.currency FROM legs l JOIN locked k ON k.id = l.account_id ORDER BY l.n LIMIT 1)) AS currency
     ),
     checked AS (
       SELECT l.n, l.account_id, CASE
         WHEN l.account_id IS NULL THEN NULL
         WHEN k.id IS NULL THEN 'ACCOUNT_NOT_FOUND'
         WHEN k.closed_at IS NOT NULL THEN 'ACCOUNT_CLOSED'
         WHEN k.currency <> (SELECT p.currency FROM posting p) THEN 'CURRENCY_MISMATCH'
         WHEN scale(trim_scale(l.amount)) > currency_minor_digits(k.currency) THEN 'AMOUNT_TOO_PRECISE'
         WHEN 'FROZEN' = ANY(k.flags) THEN 'ACCOUNT_FROZEN'
         WHEN l.type = 'DEBIT' AND k.activity_status = 'DORMANT' AND ${legs.byClient} THEN 'ACCOUNT_DORMANT'
         WHEN l.type = 'DEBIT' AND 'DEBITS_BLOCKED' = ANY(k.flags) THEN 'DEBITS_BLOCKED'
         WHEN l.type = 'CREDIT' AND 'CREDITS_BLOCKED' = ANY(k.flags) THEN 'CREDITS_BLOCKED'
         WHEN l.type = 'DEBIT' AND k.amount - k.pending_debits - l.amount < -k.overdraft_limit THEN 'INSUFFICIENT_FUNDS'${product ? product.checks : ''}
       END AS refusal${product ? product.checkedColumns : ''}
       FROM legs l LEFT JOIN locked k ON k.id = l.account_id
     ),
     ${limits ? `${limits.ctes},` : ''}
     decision AS MATERIALIZED (
       SELECT coalesce(${legs.precondition}, (SELECT c.refusal FROM checked c WHERE c.refusal IS NOT NULL ORDER BY c.n LIMIT 1)${limits ? `, ${limits.refusal}` : ''}) AS refusal,
              (SELECT c.account_id FROM checked c WHERE c.refusal IS NOT NULL AND ${legs.precondition} IS NULL ORDER BY c.n LIMIT 1) AS refused_account,${
                product
                  ? `
              (SELECT ${product.detail} FROM checked c WHERE c.refusal IS NOT NULL AND ${legs.precondition} IS NULL ORDER BY c.n LIMIT 1) AS refused_detail,`
                  : ''
              }
              (SELECT count(*) FROM legs) AS legs
     ),
     ${withKey ? `${claimQueries(auditAt + 9, '(SELECT d.refusal IS NULL AND d.legs = 2 FROM decision d)')},` : ''}
     go AS MATERIALIZED (SELECT 1 AS go FROM decision d WHERE d.refusal IS NULL AND d.legs = 2 ${withKey ? 'AND EXISTS (SELECT 1 FROM claimed)' : ''}),
     moved AS (
       UPDATE accounts a SET
         amount = a.amount + CASE WHEN $5::boolean THEN 0 WHEN l.type = 'CREDIT' THEN l.amount ELSE -l.amount END,
         pending_debits = a.pending_debits + CASE WHEN $5::boolean AND l.type = 'DEBIT' THEN l.amount ELSE 0 END,
         pending_credits = a.pending_credits + CASE WHEN $5::boolean AND l.type = 'CREDIT' THEN l.amount ELSE 0 END,
         entry_count = a.entry_count + 1${product ? product.moved : ''}${
           legs.activity === 'false'
             ? ''
             : `,
         last_activity_at = CASE WHEN ${legs.activity} THEN env_now($1::varchar) ELSE a.last_activity_at END,
         activity_status = CASE WHEN ${legs.activity} THEN NULL ELSE a.activity_status END,
         activity_status_at = CASE WHEN ${legs.activity} THEN NULL ELSE a.activity_status_at END`
         }
       FROM legs l JOIN locked k ON k.id = l.account_id, go
       WHERE a.id = l.account_id AND a.environment = $1::varchar
       RETURNING a.id, a.amount${
         legs.activity === 'false'
           ? ''
           : `,
         -- An INACTIVE or DORMANT account its customer used again: active again, as its account.reactivated event shows it.
         CASE WHEN k.activity_status IS NOT NULL AND ${legs.activity} THEN (SELECT to_jsonb(w) FROM (SELECT ${ACCOUNT_COLUMNS}) w) END AS woken`
       }
     ),
     settled AS (
       INSERT INTO ledger_settlement_accounts AS s (environment, currency, amount, pending_debits, pending_credits)
       SELECT $1::varchar, p.currency, ${INTERNAL_LEG_AMOUNTS}
       FROM legs l, go, posting p WHERE l.account_id IS NULL AND l.purpose = 'SETTLEMENT'
       ON CONFLICT (environment, currency) DO UPDATE SET
         amount = s.amount + EXCLUDED.amount,
         pending_debits = s.pending_debits + EXCLUDED.pending_debits,
         pending_credits = s.pending_credits + EXCLUDED.pending_credits
       RETURNING s.id, s.amount
     ),
     -- The environment's other internal account of the currency the leg names (interest expense, docs/adr/0113).
     internal AS (
       INSERT INTO ledger_internal_accounts AS s (environment, currency, purpose, amount, pending_debits, pending_credits)
       SELECT $1::varchar, p.currency, l.purpose, ${INTERNAL_LEG_AMOUNTS}
       FROM legs l, go, posting p WHERE l.account_id IS NULL AND l.purpose <> 'SETTLEMENT'
       ON CONFLICT (environment, currency, purpose) DO UPDATE SET
         amount = s.amount + EXCLUDED.amount,
         pending_debits = s.pending_debits + EXCLUDED.pending_debits,
         pending_credits = s.pending_credits + EXCLUDED.pending_credits
       RETURNING s.id, s.amount
     ),
     entries AS (
       INSERT INTO ledger_entries AS e (id, environment, account_id, is_settlement, posting_id, transfer_id, type, amount, posted_amount,
                                   currency, description, status, balance_after, reverses_entry_id, expires_at, posted_at, external_id, metadata)
       SELECT l.entry_id, $1::varchar, coalesce(m.id, s.id, i.id), l.account_id IS NULL, $2::uuid, $3::uuid, l.type, l.amount,
              CASE WHEN $5::boolean THEN NULL ELSE l.amount END, p.currency, $4::text,
              CASE WHEN $5::boolean THEN 'PENDING' ELSE 'POSTED' END,
              CASE WHEN $5::boolean THEN NULL ELSE coalesce(m.amount, s.amount, i.amount) END,
              l.reverses, $6::timestamptz, CASE WHEN $5::boolean THEN NULL ELSE env_now($1::varchar) END,
              CASE WHEN l.account_id IS NOT NULL THEN l.external_id END, CASE WHEN l.account_id IS NOT NULL THEN l.metadata END
       FROM legs l CROSS JOIN go CROSS JOIN posting p LEFT JOIN moved m ON m.id = l.account_id LEFT JOIN settled s ON l.account_id IS NULL
         LEFT JOIN internal i ON l.account_id IS NULL
       RETURNING e.is_settlement, ${TRANSACTION_COLUMNS}
     ),
     ${limits ? `${limits.counted},` : ''}
     audit AS (${auditInsert(auditAt, 'go')}),
     event AS (${TRANSACTION_EVENTS})${
       legs.activity === 'false'
         ? ''
         : `,
     -- An INACTIVE or DORMANT account the customer used again is active again (docs/adr/0109).
     woken AS (INSERT INTO events (environment, type, resource_type, resource_id, payload, changed_fields)
       SELECT $1::varchar, 'account.reactivated', 'account', m.id, m.woken, ARRAY['status'] FROM moved m WHERE m.woken IS NOT NULL)`
     }
   SELECT d.refusal, d.refused_account AS "refusedAccountId", (SELECT p.currency FROM posting p) AS "postingCurrency",${product ? ' d.refused_detail AS "refusalDetails",' : ''} e.*
   FROM decision d LEFT JOIN entries e ON NOT e.is_settlement`;
}

/**
 * Legs from the request: $7 entry ids, $8 account ids (NULL: settlement), $9 types, $10 amount, $11 the
 * currency the accounts must hold (NULL: the first account's, as locked: no read before the write), $12 the
 * client's externalId, $13 its metadata (both NULL when not given), $14 whether a client asked for it through the
 * transaction or transfer API (false: the bank's own posting, e.g. interest, fees, a closing disbursement), $15 the
 * environment's time zone (its business date counts a product's withdrawal limits, docs/adr/0114), $16 the internal
 * account the leg without an account books against (SETTLEMENT, INTEREST_EXPENSE or FEE_INCOME). A client's transaction is its
 * account's activity; of a client's transfer ($3 set), only the debited side is (an incoming transfer is not the
 * receiving customer's act: docs/adr/0109).
 */
const REQUESTED_LEGS: LegsSource = {
  ctes: `legs AS (
       SELECT l.entry_id, l.account_id, l.type::varchar AS type, $10::numeric AS amount, $11::bpchar AS currency, NULL::uuid AS reverses,
              $12::varchar AS external_id, $13::jsonb AS metadata, l.n,
              CASE WHEN l.account_id IS NULL THEN $16::varchar END AS purpose
       FROM unnest($7::uuid[], $8::uuid[], $9::text[]) WITH ORDINALITY AS l(entry_id, account_id, type, n)
     )`,
  precondition: 'NULL::text',
  byClient: '$14::boolean',
  activity: "($14::boolean AND l.account_id IS NOT NULL AND ($3::uuid IS NULL OR l.type = 'DEBIT'))",
  productRules: true,
};

/**
 * Legs that undo a posting: $7 the two new entry ids, $8 the account addressed, $9 its transaction. Each
 * leg is the opposite of an original one and names it (reverses_entry_id is unique: at most once).
 */
const REVERSING_LEGS: LegsSource = {
  ctes: `target AS MATERIALIZED (
       SELECT t.posting_id FROM ledger_entries t
       WHERE t.id = $9::uuid AND t.account_id = $8::uuid AND t.environment = $1::varchar AND NOT t.is_settlement
     ),
     original AS MATERIALIZED (
       SELECT o.id, o.account_id, o.is_settlement, o.type, o.posted_amount, o.currency, o.status, o.reverses_entry_id,
              row_number() OVER (ORDER BY o.id) AS n
       FROM ledger_entries o WHERE o.posting_id = (SELECT target.posting_id FROM target)
     ),
     legs AS (
       SELECT ($7::uuid[])[o.n] AS entry_id, CASE WHEN o.is_settlement THEN NULL ELSE o.account_id END AS account_id,
              (CASE o.type WHEN 'CREDIT' THEN 'DEBIT' ELSE 'CREDIT' END)::varchar AS type, o.posted_amount AS amount, o.currency,
              o.id AS reverses, NULL::varchar AS external_id, NULL::jsonb AS metadata, o.n,
              -- The internal account the original booked against: a reversed interest credit goes back to interest expense.
              CASE WHEN o.is_settlement THEN coalesce((SELECT s.purpose FROM ledger_internal_accounts s WHERE s.id = o.account_id),
                                                     'SETTLEMENT') END AS purpose
       FROM original o
     ),
     reversal_state AS MATERIALIZED (
       SELECT NOT EXISTS (SELECT 1 FROM target) AS missing,
              EXISTS (SELECT 1 FROM original o WHERE o.status <> 'POSTED') AS not_posted,
              EXISTS (SELECT 1 FROM original o WHERE o.reverses_entry_id IS NOT NULL) AS is_reversal,
              EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_entry_id IN (SELECT o.id FROM original o)) AS reversed
     )`,
  precondition: `(SELECT CASE WHEN r.missing THEN 'TRANSACTION_NOT_FOUND' WHEN r.not_posted THEN 'TRANSACTION_NOT_POSTED'
         WHEN r.is_reversal THEN 'REVERSAL_NOT_REVERSIBLE' WHEN r.reversed THEN 'TRANSACTION_ALREADY_REVERSED' END FROM reversal_state r)`,
  // A client's correction: refused on a DORMANT account's debit side, and not the customer's activity.
  byClient: 'true',
  activity: 'false',
  // A correction undoes what was posted: no product's rule refuses it (docs/adr/0114).
  productRules: false,
};

/**
 * A hold's settlement: $1 environment, $2 account, $3 its transaction, $4 'POST' or 'VOID', $5 the amount
 * to post (NULL: all of it); a limited caller's from $6 (`limited`), then audit, then the key's claim (audit
 * from $6 and the claim from $15 when not limited; from $10 and $19 when limited). The hold's entries are locked first
 * (FOR UPDATE: two settlements of one hold run one after the other, and the second finds it settled),
 * then its accounts in id order, then the settlement account; no other statement locks entries, so the
 * order cannot cycle.
 */
function settleSql(withKey: boolean, limited: boolean): string {
  const limits = limited
    ? limitSql(6, 'SELECT max(held.currency) FROM held', 'SELECT coalesce($5::numeric, max(held.amount)) FROM held')
    : undefined;
  const auditAt = limited ? 10 : 6;
  return `WITH target AS MATERIALIZED (
       SELECT t.posting_id FROM ledger_entries t
       WHERE t.id = $3::uuid AND t.account_id = $2::uuid AND t.environment = $1::varchar AND NOT t.is_settlement
     ),
     held AS MATERIALIZED (
       SELECT h.id, h.account_id, h.is_settlement, h.type, h.amount, h.currency, h.status, h.expires_at
       FROM ledger_entries h WHERE h.posting_id = (SELECT target.posting_id FROM target)
       ORDER BY h.id FOR UPDATE
     ),
     locked AS MATERIALIZED (
       SELECT a.id, a.flags, a.closed_at FROM accounts a
       WHERE a.environment = $1::varchar AND a.id IN (SELECT held.account_id FROM held WHERE NOT held.is_settlement)
       ORDER BY a.id FOR NO KEY UPDATE
     ),
     ${limits ? `${limits.ctes},` : ''}
     decision AS MATERIALIZED (
       SELECT CASE
         WHEN NOT EXISTS (SELECT 1 FROM held) THEN 'TRANSACTION_NOT_FOUND'
         WHEN EXISTS (SELECT 1 FROM held WHERE held.status <> 'PENDING') THEN 'TRANSACTION_NOT_PENDING'
         WHEN $4::text = 'POST' AND EXISTS (SELECT 1 FROM held WHERE held.expires_at <= env_now($1::varchar)) THEN 'HOLD_EXPIRED'
         WHEN $4::text = 'POST' AND $5::numeric > (SELECT max(held.amount) FROM held) THEN 'AMOUNT_EXCEEDS_HOLD'
         WHEN $4::text = 'POST' AND EXISTS (SELECT 1 FROM locked WHERE locked.closed_at IS NOT NULL) THEN 'ACCOUNT_CLOSED'
         WHEN $4::text = 'POST' AND EXISTS (SELECT 1 FROM locked WHERE 'FROZEN' = ANY(locked.flags)) THEN 'ACCOUNT_FROZEN'
         ${limits ? `WHEN $4::text = 'POST' THEN ${limits.refusal}` : ''}
       END AS refusal,
       (SELECT locked.id FROM locked WHERE $4::text = 'POST' AND ('FROZEN' = ANY(locked.flags) OR locked.closed_at IS NOT NULL) LIMIT 1) AS refused_account
     ),
     ${withKey ? `${claimQueries(auditAt + 9, '(SELECT d.refusal IS NULL FROM decision d)')},` : ''}
     go AS MATERIALIZED (SELECT 1 AS go FROM decision d WHERE d.refusal IS NULL ${withKey ? 'AND EXISTS (SELECT 1 FROM claimed)' : ''}),
     change AS (
       SELECT h.id, h.account_id, h.is_settlement,
              CASE WHEN $4::text = 'POST' THEN coalesce($5::numeric, h.amount) END AS posted,
              CASE WHEN $4::text <> 'POST' THEN 0 WHEN h.type = 'CREDIT' THEN coalesce($5::numeric, h.amount) ELSE -coalesce($5::numeric, h.amount) END AS delta,
              CASE WHEN h.type = 'DEBIT' THEN h.amount ELSE 0 END AS released_debit,
              CASE WHEN h.type = 'CREDIT' THEN h.amount ELSE 0 END AS released_credit
       FROM held h, go
     ),
     moved AS (
       UPDATE accounts a SET amount = a.amount + c.delta, pending_debits = a.pending_debits - c.released_debit,
                             pending_credits = a.pending_credits - c.released_credit
       FROM change c WHERE a.id = c.account_id AND NOT c.is_settlement AND a.environment = $1::varchar
       RETURNING a.id, a.amount
     ),
     settled AS (
       UPDATE ledger_settlement_accounts s SET amount = s.amount + c.delta, pending_debits = s.pending_debits - c.released_debit,
                                               pending_credits = s.pending_credits - c.released_credit
       FROM change c WHERE s.id = c.account_id AND c.is_settlement
       RETURNING s.id, s.amount
     ),
     entries AS (
       UPDATE ledger_entries e SET
         status = CASE WHEN $4::text = 'POST' THEN 'POSTED' ELSE 'VOIDED' END,
         posted_amount = c.posted,
         balance_after = CASE WHEN $4::text = 'POST' THEN coalesce(m.amount, s.amount) END,
         posted_at = CASE WHEN $4::text = 'POST' THEN env_now($1::varchar) END,
         voided_at = CASE WHEN $4::text = 'POST' THEN NULL ELSE env_now($1::varchar) END
       FROM change c LEFT JOIN moved m ON m.id = c.account_id AND NOT c.is_settlement LEFT JOIN settled s ON s.id = c.account_id AND c.is_settlement
       WHERE e.id = c.id
       RETURNING e.is_settlement, ${TRANSACTION_COLUMNS}
     ),
     ${limits ? `${limits.counted.replace('FROM go WHERE', "FROM go WHERE $4::text = 'POST' AND")},` : ''}
     audit AS (${auditInsert(auditAt, 'go')}),
     event AS (${TRANSACTION_EVENTS})
   SELECT d.refusal, d.refused_account AS "refusedAccountId", e.*
   FROM decision d LEFT JOIN entries e ON NOT e.is_settlement`;
}

const SQL = {
  post: statement('ledger_post', postingSql(REQUESTED_LEGS, 17, false)),
  postWithKey: statement('ledger_post_with_key', postingSql(REQUESTED_LEGS, 17, true)),
  reverse: statement('ledger_reverse', postingSql(REVERSING_LEGS, 10, false)),
  reverseWithKey: statement('ledger_reverse_with_key', postingSql(REVERSING_LEGS, 10, true)),
  postLimited: statement('ledger_post_limited', postingSql(REQUESTED_LEGS, 21, false, 17)),
  postLimitedWithKey: statement('ledger_post_limited_with_key', postingSql(REQUESTED_LEGS, 21, true, 17)),
  settle: statement('ledger_settle_hold', settleSql(false, false)),
  settleWithKey: statement('ledger_settle_hold_with_key', settleSql(true, false)),
  settleLimited: statement('ledger_settle_hold_limited', settleSql(false, true)),
  settleLimitedWithKey: statement('ledger_settle_hold_limited_with_key', settleSql(true, true)),
  // The limited principal's total rows of the day, for the currencies it is limited in, so that the write
  // statement can lock them (a row that does not exist cannot be locked). Answers the UTC day, by the
  // database's clock, the write must use: a token's limits are the real world's (its money, its day), as its
  // expiry is, not an environment's clock (docs/adr/0102).
  prepareDailyTotals: statement(
    'ledger_prepare_daily_totals',
    `WITH today AS (SELECT (CURRENT_TIMESTAMP AT TIME ZONE 'UTC')::date AS day),
     prepared AS (
       INSERT INTO api_token_daily_totals (principal_id, day, currency)
       SELECT $1::varchar, today.day, c.currency FROM today, unnest($2::text[]) AS c(currency)
       ON CONFLICT DO NOTHING
     ),
     -- The principal's totals of days before yesterday count against nothing any more: they go, so the table
     -- holds at most two days per limited principal and currency (yesterday's stays for a posting that began then).
     pruned AS (
       DELETE FROM api_token_daily_totals q USING today WHERE q.principal_id = $1::varchar AND q.day < today.day - 1
     )
     SELECT to_char(today.day, 'YYYY-MM-DD') AS day FROM today`,
  ),
  findByIds: statement(
    'ledger_find_transactions',
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger_entries e WHERE e.environment = $1 AND e.id = ANY($2::uuid[]) AND NOT e.is_settlement`,
  ),
  // Both sides of a transfer: its posting's id is the transfer's (ledger_entries_posting_id_idx).
  findTransfer: statement(
    'ledger_find_transfer',
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger_entries e
     WHERE e.posting_id = $2::uuid AND e.transfer_id = $2::uuid AND e.environment = $1 AND NOT e.is_settlement ORDER BY e.type DESC`,
  ),
  // Newest first, without filters (a filtered page: transactionListSql).
  list: statement('ledger_list_transactions', transactionListSql({}).text),
  // Each hold against its own environment's clock; the bound (the real time plus the largest offset) keeps the walk
  // of the partial index on expires_at to the holds some environment may have seen expire.
  expiredHolds: statement(
    'ledger_expired_holds',
    `SELECT e.environment, e.account_id AS "accountId", e.id AS "transactionId" FROM ledger_entries e
     WHERE e.status = 'PENDING' AND NOT e.is_settlement AND e.expires_at <= env_now(e.environment)
       AND e.expires_at <= (SELECT CURRENT_TIMESTAMP + coalesce(max(c.offset_ms), 0) * interval '1 millisecond' FROM environment_clocks c)
     ORDER BY e.expires_at LIMIT $1`,
  ),
  expiredHoldsOf: statement(
    'ledger_expired_holds_of',
    `SELECT e.environment, e.account_id AS "accountId", e.id AS "transactionId" FROM ledger_entries e
     WHERE e.status = 'PENDING' AND e.expires_at <= $2::timestamptz AND e.environment = $1::varchar AND NOT e.is_settlement
     ORDER BY e.expires_at LIMIT $3`,
  ),
};

type WriteRow = {
  refusal: LedgerRefusal | null;
  refusedAccountId: string | null;
  postingCurrency?: string | null;
  /** A product's refusal's values (docs/adr/0114), e.g. {minimumBalance, available}; null or absent for the others. */
  refusalDetails?: Record<string, string> | null;
} & Partial<TransactionRow>;

/** The ledger on PostgreSQL, through Prisma Client. */
export class PrismaLedgerStore implements LedgerStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly idempotencyWaitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  post(posting: NewPosting, effects: CreationEffects): Promise<LedgerWrite> {
    return this.postWithin(this.prisma, posting, effects);
  }

  /**
   * The posting statement on `db`: the client itself, or an interactive transaction's, so another feature's write
   * can move money exactly as a transfer does and commit it with its own change (an account's closing disbursement,
   * src/features/lifecycle). Not part of the LedgerStore port: only stores hold a transaction.
   */
  async postWithin(db: SqlClient, posting: NewPosting, effects: CreationEffects): Promise<LedgerWrite> {
    const values = [
      posting.environment,
      posting.postingId,
      posting.transferId,
      posting.description,
      posting.hold,
      posting.expiresAt,
      posting.legs.map((leg) => leg.entryId),
      posting.legs.map((leg) => leg.accountId),
      posting.legs.map((leg) => leg.type),
      posting.amount,
      posting.currency,
      posting.externalId,
      posting.metadata === null ? null : jsonParameter(posting.metadata),
      posting.customerInitiated ?? false,
      posting.timeZone ?? DEFAULT_TIME_ZONE,
      posting.internalAccount ?? 'SETTLEMENT',
    ];
    try {
      if (!posting.limits) return await this.write(effects, SQL.post, SQL.postWithKey, values, db);
      return await this.write(
        effects,
        SQL.postLimited,
        SQL.postLimitedWithKey,
        [...values, ...(await this.limitValues(posting.limits, db))],
        db,
      );
    } catch (error) {
      // Another transaction (or transfer) of the environment has the externalId: the statement wrote nothing.
      if (violatedUniqueIndex(error) === EXTERNAL_ID_UNIQUE_INDEX)
        return { outcome: 'refused', refusal: 'EXTERNAL_ID_TAKEN', accountId: null };
      throw error;
    }
  }

  async reverse(
    environment: string,
    accountId: string,
    transactionId: string,
    reversal: NewReversal,
    effects: CreationEffects,
  ): Promise<LedgerWrite> {
    const values = [
      environment,
      reversal.postingId,
      null,
      reversal.description,
      false,
      null,
      [...reversal.entryIds],
      accountId,
      transactionId,
    ];
    try {
      return await this.write(effects, SQL.reverse, SQL.reverseWithKey, values);
    } catch (error) {
      // Two reversals of one posting at once: the second waits for the first, then meets its entries.
      if (violatedUniqueIndex(error) === 'ledger_entries_reverses_entry_id_key')
        return { outcome: 'refused', refusal: 'TRANSACTION_ALREADY_REVERSED', accountId: null };
      throw error;
    }
  }

  async settleHold(
    environment: string,
    accountId: string,
    transactionId: string,
    settlement: HoldSettlement,
    effects: CreationEffects,
  ): Promise<LedgerWrite> {
    const values = [
      environment,
      accountId,
      transactionId,
      settlement.action === 'post' ? 'POST' : 'VOID',
      settlement.action === 'post' ? settlement.amount : null,
    ];
    const limits = settlement.action === 'post' ? settlement.limits : null;
    if (!limits) return this.write(effects, SQL.settle, SQL.settleWithKey, values);
    return this.write(effects, SQL.settleLimited, SQL.settleLimitedWithKey, [
      ...values,
      ...(await this.limitValues(limits)),
    ]);
  }

  /** The parameters of limitSql; with daily limits, after making sure the day's total rows exist. */
  private async limitValues(limits: LimitCheck, db: SqlClient = this.prisma): Promise<unknown[]> {
    let day: string | null = null;
    if (limits.daily) {
      const [row] = await queryRows<{ day: string }>(db, SQL.prepareDailyTotals, [
        limits.principalId,
        Object.keys(limits.daily),
      ]);
      day = row!.day;
    }
    return [limits.principalId, day, limits.maxAmount, limits.daily === null ? null : jsonParameter(limits.daily)];
  }

  private async write(
    effects: CreationEffects,
    plain: ReturnType<typeof statement>,
    withKey: ReturnType<typeof statement>,
    values: unknown[],
    db: SqlClient = this.prisma,
  ): Promise<LedgerWrite> {
    let rows: WriteRow[];
    try {
      rows = effects.idempotency
        ? await queryRows<WriteRow>(db, withKey, [
            ...values,
            ...auditValues(effects.audit),
            ...claimValues(effects.idempotency, this.idempotencyWaitMs),
          ])
        : await queryRows<WriteRow>(db, plain, [...values, ...auditValues(effects.audit)]);
    } catch (error) {
      if (effects.idempotency && isLockTimeout(error)) throw idempotencyKeyInProgress();
      // A balance (DECIMAL(24,6)) the statement would move past its range: PostgreSQL refused the statement,
      // so nothing was written (the key's claim is part of it too). Amounts are below 10^12 (MAX_AMOUNT), so
      // nothing else in these statements can leave a numeric range.
      if (isNumericOutOfRange(error)) return { outcome: 'refused', refusal: 'BALANCE_OUT_OF_RANGE', accountId: null };
      throw error;
    }
    const [first] = rows;
    if (first!.refusal)
      return {
        outcome: 'refused',
        refusal: first!.refusal,
        accountId: first!.refusedAccountId,
        currency: first!.postingCurrency ?? null,
        details: first!.refusalDetails ?? null,
      };
    const transactions = rows
      .filter((row) => row.transactionId !== null && row.transactionId !== undefined)
      .map((row) => toTransaction(row as TransactionRow));
    return transactions.length > 0 ? { outcome: 'written', transactions } : { outcome: 'key-taken' };
  }

  async findTransactions(environment: string, transactionIds: readonly string[]): Promise<Transaction[]> {
    const rows = await queryRows<TransactionRow>(this.prisma, SQL.findByIds, [environment, transactionIds]);
    return rows.map(toTransaction);
  }

  async findTransfer(environment: string, transferId: string): Promise<Transaction[]> {
    const rows = await queryRows<TransactionRow>(this.prisma, SQL.findTransfer, [environment, transferId]);
    return rows.map(toTransaction);
  }

  async listTransactions(
    environment: string,
    accountId: string,
    filter: TransactionFilter,
    page: PageRequest,
  ): Promise<Transaction[]> {
    const { text, values } = transactionListSql(filter);
    const params = [environment, accountId, page.after ?? null, page.first, ...values];
    const rows =
      values.length === 0
        ? await queryRows<TransactionRow>(this.prisma, SQL.list, params)
        : await this.prisma.$queryRawUnsafe<TransactionRow[]>(text, ...params);
    return rows.map(toTransaction);
  }

  expiredHolds(limit: number): Promise<ExpiredHold[]> {
    return queryRows(this.prisma, SQL.expiredHolds, [limit]);
  }

  expiredHoldsOf(environment: string, by: Date, limit: number): Promise<ExpiredHold[]> {
    return queryRows(this.prisma, SQL.expiredHoldsOf, [environment, by, limit]);
  }
}
