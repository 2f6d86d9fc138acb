import type pg from 'pg';

/**
 * The bulk path for benchmarks and tests: `count` postings on one account against the environment's settlement
 * account of its currency, in one statement, posted evenly over [from, to), keeping every invariant of the
 * ledger (each posting balanced, each balance the sum of its entries, `balance_after` the running balance in
 * posting order). Two of three postings credit 10, every third debits 5, so the balance never goes below zero.
 *
 * It backdates: the posting-order trigger (which stamps posted_at with the moment of writing) is disabled for
 * the statement's transaction, and posting_seq is taken from the sequence in one block. So the account, and the
 * settlement account of its currency in the environment, must have no entries after `from` (seed an account
 * in a currency nothing else in the environment uses). Needs the table's owner (the migrating role).
 */
export async function seedPostings(
  pool: pg.Pool,
  options: { environment: string; accountId: string; count: number; from: Date; to: Date },
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_posting_order');
    const { rows } = await client.query<{ currency: string }>(
      'SELECT currency FROM accounts WHERE environment = $1 AND id = $2 FOR UPDATE',
      [options.environment, options.accountId],
    );
    if (!rows[0]) throw new Error('no such account');
    await client.query(
      'INSERT INTO ledger_settlement_accounts (environment, currency) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [options.environment, rows[0].currency],
    );
    // A block of 2 × count numbers of the posting sequence, all ours.
    const { rows: block } = await client.query<{ base: string }>(
      "SELECT setval('ledger_entries_posting_seq', nextval('ledger_entries_posting_seq') + 2 * $1::bigint) - 2 * $1::bigint AS base",
      [options.count],
    );
    await client.query(
      `WITH account AS (SELECT a.id, a.currency, a.amount FROM accounts a WHERE a.id = $2::uuid),
       settlement AS (SELECT s.id, s.amount FROM ledger_settlement_accounts s, account a WHERE s.environment = $1 AND s.currency = a.currency),
       postings AS (
         SELECT i, gen_random_uuid() AS posting_id, CASE WHEN i % 3 = 0 THEN 'DEBIT' ELSE 'CREDIT' END AS type, CASE WHEN i % 3 = 0 THEN 5 ELSE 10 END::numeric AS amount,
                $4::timestamptz + (i - 1) * (($5::timestamptz - $4::timestamptz) / $3::int) AS at
         FROM generate_series(1, $3::int) AS i
       ),
       running AS (SELECT p.*, sum(CASE WHEN p.type = 'CREDIT' THEN p.amount ELSE -p.amount END) OVER (ORDER BY p.i) AS delta FROM postings p),
       entries AS (
         INSERT INTO ledger_entries (id, environment, account_id, is_settlement, posting_id, type, amount, posted_amount, currency, description,
                                     status, balance_after, created_at, posted_at, posting_seq)
         SELECT gen_random_uuid(), $1, a.id, false, r.posting_id, r.type, r.amount, r.amount, a.currency, 'Seeded', 'POSTED', a.amount + r.delta, r.at, r.at, $6::bigint + 2 * r.i - 1
         FROM running r, account a
         UNION ALL
         SELECT gen_random_uuid(), $1, s.id, true, r.posting_id, CASE r.type WHEN 'CREDIT' THEN 'DEBIT' ELSE 'CREDIT' END, r.amount, r.amount, a.currency, 'Seeded',
                'POSTED', s.amount - r.delta, r.at, r.at, $6::bigint + 2 * r.i
         FROM running r, account a, settlement s
         RETURNING 1
       ),
       total AS (SELECT coalesce(max(r.delta) FILTER (WHERE r.i = $3::int), 0) AS delta FROM running r),
       moved AS (UPDATE accounts a SET amount = a.amount + t.delta, entry_count = a.entry_count + $3::int FROM total t WHERE a.id = $2::uuid RETURNING 1),
       settled AS (UPDATE ledger_settlement_accounts s SET amount = s.amount - t.delta FROM total t, settlement x WHERE s.id = x.id RETURNING 1)
       SELECT (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM moved) AS moved, (SELECT count(*) FROM settled) AS settled`,
      [
        options.environment,
        options.accountId,
        options.count,
        options.from.toISOString(),
        options.to.toISOString(),
        block[0]!.base,
      ],
    );
    await client.query('ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_posting_order');
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
