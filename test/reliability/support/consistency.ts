import type pg from 'pg';

/**
 * Checks shared by the invariant tests and the fault scripts: the relation as REST shows it from both
 * sides (invariant 3), and the tables as PostgreSQL holds them (no half-written record).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

export interface LinkReport {
  liveCustomers: number;
  liveAccounts: number;
  goneAccounts: number;
  links: number;
  problems: string[];
  /** customerId → the accountIds REST answered, for comparisons with another surface. */
  customerAccounts: Map<string, string[]>;
  /** accountId → the customers REST answered. */
  accountCustomers: Map<string, string[]>;
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

/**
 * Invariant 3 through REST: for every customer, `accountIds` equals the set of accounts whose `customers`
 * list it, and every account's customers exist. Accounts a customer names that the caller did not know
 * are fetched too, so nothing escapes the comparison.
 */
export async function checkAccountLinks(call: JsonCall, environment: string, customerIds: Iterable<string>, accountIds: Iterable<string>): Promise<LinkReport> {
  const problems: string[] = [];
  const accountCustomers = new Map<string, string[]>();
  const customerAccounts = new Map<string, string[]>();
  const goneAccounts = new Set<string>();
  const goneCustomers = new Set<string>();

  const fetchAccounts = (ids: string[]) =>
    inBatches(ids, 16, async (id) => {
      const res = await call('GET', `/${environment}/account/${id}`);
      if (res.status === 200) accountCustomers.set(id, res.json.data.customers as string[]);
      else if (res.status === 404 && res.json?.error?.code === 'ACCOUNT_NOT_FOUND') goneAccounts.add(id);
      else problems.push(`GET account ${id} answered ${res.status} ${res.json?.error?.code ?? ''}`);
    });
  const fetchCustomers = (ids: string[]) =>
    inBatches(ids, 16, async (id) => {
      const res = await call('GET', `/${environment}/customer/${id}`);
      if (res.status === 200) customerAccounts.set(id, res.json.data.accountIds as string[]);
      else if (res.status === 404 && res.json?.error?.code === 'CUSTOMER_NOT_FOUND') goneCustomers.add(id);
      else problems.push(`GET customer ${id} answered ${res.status} ${res.json?.error?.code ?? ''}`);
    });

  await fetchAccounts([...new Set(accountIds)]);
  await fetchCustomers([...new Set(customerIds)]);
  // Close over what the answers name: accounts a customer lists, customers an account lists.
  for (let round = 0; round < 3; round++) {
    const unknownAccounts = [...customerAccounts.values()].flat().filter((id) => !accountCustomers.has(id) && !goneAccounts.has(id));
    const unknownCustomers = [...accountCustomers.values()].flat().filter((id) => !customerAccounts.has(id) && !goneCustomers.has(id));
    if (unknownAccounts.length === 0 && unknownCustomers.length === 0) break;
    await fetchAccounts([...new Set(unknownAccounts)]);
    await fetchCustomers([...new Set(unknownCustomers)]);
  }

  const expected = new Map<string, Set<string>>();
  for (const [accountId, customers] of accountCustomers) {
    if (customers.length === 0) problems.push(`account ${accountId} lists no customer`);
    if (new Set(customers).size !== customers.length) problems.push(`account ${accountId} lists a customer twice`);
    for (const customerId of customers) {
      if (goneCustomers.has(customerId)) problems.push(`account ${accountId} lists customer ${customerId}, which does not exist`);
      if (!expected.has(customerId)) expected.set(customerId, new Set());
      expected.get(customerId)!.add(accountId);
    }
  }
  for (const [customerId, accounts] of customerAccounts) {
    if (new Set(accounts).size !== accounts.length) problems.push(`customer ${customerId} lists an account twice`);
    const want = sorted(expected.get(customerId) ?? []);
    const have = sorted(accounts);
    if (want.join() !== have.join()) {
      problems.push(`customer ${customerId}: accountIds [${have.join(', ')}] but the accounts listing it are [${want.join(', ')}]`);
    }
  }
  const links = [...accountCustomers.values()].reduce((sum, customers) => sum + customers.length, 0);
  return { liveCustomers: customerAccounts.size, liveAccounts: accountCustomers.size, goneAccounts: goneAccounts.size, links, problems, customerAccounts, accountCustomers };
}

/**
 * The tables themselves, for records written only through the service: no account without a customer,
 * no link to a missing record, no idempotency key claimed but never completed, and an audit trail that
 * matches what exists (one create event per record; every vanished record has its delete event).
 */
export async function storageProblems(pool: pg.Pool): Promise<string[]> {
  const checks: [string, string][] = [
    ['accounts without any customer', 'SELECT count(*) AS n FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM account_customers l WHERE l.account_id = a.id)'],
    ['links to a missing customer', 'SELECT count(*) AS n FROM account_customers l WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = l.customer_id)'],
    ['links to a missing account', 'SELECT count(*) AS n FROM account_customers l WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = l.account_id)'],
    ['idempotency keys claimed but never completed', 'SELECT count(*) AS n FROM idempotency_keys WHERE result IS NULL'],
    [
      'customers without exactly one customer.create audit event',
      "SELECT count(*) AS n FROM customers c WHERE (SELECT count(*) FROM audit_events e WHERE e.resource_id = c.id AND e.operation = 'customer.create') <> 1",
    ],
    [
      'accounts without exactly one account.create audit event',
      "SELECT count(*) AS n FROM accounts a WHERE (SELECT count(*) FROM audit_events e WHERE e.resource_id = a.id AND e.operation = 'account.create') <> 1",
    ],
    [
      'customer.create events of missing customers without a customer.delete event',
      "SELECT count(*) AS n FROM audit_events e WHERE e.operation = 'customer.create' AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = e.resource_id) AND NOT EXISTS (SELECT 1 FROM audit_events d WHERE d.resource_id = e.resource_id AND d.operation = 'customer.delete')",
    ],
    [
      'account.create events of missing accounts without an account.delete event',
      "SELECT count(*) AS n FROM audit_events e WHERE e.operation = 'account.create' AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = e.resource_id) AND NOT EXISTS (SELECT 1 FROM audit_events d WHERE d.resource_id = e.resource_id AND d.operation = 'account.delete')",
    ],
  ];
  const problems: string[] = [];
  for (const [what, sql] of checks) {
    const { rows } = await pool.query<{ n: string }>(sql);
    const n = Number(rows[0]!.n);
    if (n > 0) problems.push(`${n} ${what}`);
  }
  return problems;
}

export interface RowCounts {
  customers: number;
  accounts: number;
  links: number;
  auditEvents: number;
  idempotencyKeys: number;
}

export async function rowCounts(pool: pg.Pool): Promise<RowCounts> {
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM accounts) AS accounts,
            (SELECT count(*) FROM account_customers) AS links, (SELECT count(*) FROM audit_events) AS audit_events,
            (SELECT count(*) FROM idempotency_keys) AS idempotency_keys`,
  );
  const row = rows[0]!;
  return {
    customers: Number(row.customers),
    accounts: Number(row.accounts),
    links: Number(row.links),
    auditEvents: Number(row.audit_events),
    idempotencyKeys: Number(row.idempotency_keys),
  };
}

/**
 * The ledger's invariants, checked in one snapshot (REPEATABLE READ): per environment and currency the
 * posted balances (settlement included) sum to zero and pending debits equal pending credits; every
 * account's balance is the sum of its posted entries, and its available balance is not below minus its overdraft limit (unless `allowBelowFloor`
 * names it); every posting is balanced. Answers the list of violations: [] when the ledger is sound.
 */
export async function ledgerViolations(pool: pg.Pool, options: { allowBelowFloor?: readonly string[] } = {}): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ violation: string }>(
      `WITH balances AS (
         SELECT environment, currency, amount, pending_debits, pending_credits FROM accounts
         UNION ALL SELECT environment, currency, amount, pending_debits, pending_credits FROM ledger_settlement_accounts
       ), every_account AS (
         SELECT id, environment, currency, amount, pending_debits, pending_credits, overdraft_limit, false AS settlement FROM accounts
         UNION ALL SELECT id, environment, currency, amount, pending_debits, pending_credits, NULL, true FROM ledger_settlement_accounts
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
      [options.allowBelowFloor ?? []],
    );
    await client.query('COMMIT');
    return rows.map((row) => row.violation);
  } finally {
    client.release();
  }
}
