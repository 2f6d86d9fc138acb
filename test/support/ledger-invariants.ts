import type pg from 'pg';

/**
 * Kept apart from database.ts (which imports vitest) so that the reliability scripts, run outside vitest
 * (scripts/reliability/bank.ts), check the very same invariants as the suite.
 */

/**
 * The ledger's invariants, checked in one snapshot (REPEATABLE READ): per environment and currency the
 * posted balances (the internal accounts included: settlement, interest expense) sum to zero and pending debits equal pending credits; every
 * account's balance is the sum of its posted entries, and its available balance is not below minus its overdraft limit (unless `allowBelowFloor`
 * names it); every posting is balanced. Answers the list of violations: [] when the ledger is sound.
 * `onlyAccountsWithEntries`: customer accounts without any entry are left out (the benchmark seeds accounts
 * with opening balances written directly, beside the ledger's own accounts).
 */
export async function ledgerViolations(
  pool: pg.Pool,
  options: { allowBelowFloor?: readonly string[]; onlyAccountsWithEntries?: boolean } = {},
): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ violation: string }>(
      `WITH ledger_accounts AS (
         SELECT * FROM accounts a WHERE NOT $2::boolean OR EXISTS (SELECT 1 FROM ledger_entries e WHERE e.account_id = a.id)
       ), balances AS (
         SELECT environment, currency, amount, pending_debits, pending_credits FROM ledger_accounts
         UNION ALL SELECT environment, currency, amount, pending_debits, pending_credits FROM ledger_settlement_accounts
         UNION ALL SELECT environment, currency, amount, pending_debits, pending_credits FROM ledger_internal_accounts
       ), every_account AS (
         SELECT id, environment, currency, amount, pending_debits, pending_credits, overdraft_limit, false AS settlement FROM ledger_accounts
         UNION ALL SELECT id, environment, currency, amount, pending_debits, pending_credits, NULL, true FROM ledger_settlement_accounts
         UNION ALL SELECT id, environment, currency, amount, pending_debits, pending_credits, NULL, true FROM ledger_internal_accounts
       ), entry_sums AS (
         SELECT account_id,
                coalesce(sum(CASE WHEN status = 'POSTED' THEN CASE type WHEN 'CREDIT' THEN posted_amount ELSE -posted_amount END END), 0) AS posted,
                coalesce(sum(CASE WHEN status = 'PENDING' AND type = 'DEBIT' THEN amount END), 0) AS pending_debits,
                coalesce(sum(CASE WHEN status = 'PENDING' AND type = 'CREDIT' THEN amount END), 0) AS pending_credits
         FROM ledger_entries GROUP BY account_id
       )
       SELECT format('environment %s %s: balances sum to %s', environment, currency, sum(amount)) AS violation
         FROM balances GROUP BY environment, currency HAVING sum(amount) <> 0
       UNION ALL
       SELECT format('environment %s %s: pending debits %s <> pending credits %s', environment, currency, sum(pending_debits), sum(pending_credits))
         FROM balances GROUP BY environment, currency HAVING sum(pending_debits) <> sum(pending_credits)
       UNION ALL
       SELECT format('account %s: balance %s / pending %s, %s but entries say %s / %s, %s', a.id, a.amount, a.pending_debits, a.pending_credits,
                     coalesce(s.posted, 0), coalesce(s.pending_debits, 0), coalesce(s.pending_credits, 0))
         FROM every_account a LEFT JOIN entry_sums s ON s.account_id = a.id
         WHERE a.amount <> coalesce(s.posted, 0) OR a.pending_debits <> coalesce(s.pending_debits, 0) OR a.pending_credits <> coalesce(s.pending_credits, 0)

       UNION ALL
       SELECT format('account %s: available %s below minus its overdraft limit %s', a.id, a.amount - a.pending_debits, a.overdraft_limit)
         FROM every_account a WHERE NOT a.settlement AND a.amount - a.pending_debits < -a.overdraft_limit AND NOT (a.id = ANY($1::uuid[]))
       UNION ALL
       SELECT format('posting %s is not balanced', posting_id) FROM ledger_entries GROUP BY posting_id
         HAVING count(*) <> 2 OR sum(CASE type WHEN 'CREDIT' THEN amount ELSE -amount END) <> 0
             OR sum(CASE WHEN posted_amount IS NULL THEN 0 WHEN type = 'CREDIT' THEN posted_amount ELSE -posted_amount END) <> 0`,
      [options.allowBelowFloor ?? [], options.onlyAccountsWithEntries ?? false],
    );
    await client.query('COMMIT');
    client.release();
    return rows.map((row) => row.violation);
  } catch (error) {
    // A connection that failed mid-transaction (the fault scripts kill PostgreSQL) is not handed out again.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}
