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
export async function checkAccountLinks(
  call: JsonCall,
  environment: string,
  customerIds: Iterable<string>,
  accountIds: Iterable<string>,
): Promise<LinkReport> {
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
    const unknownAccounts = [...customerAccounts.values()]
      .flat()
      .filter((id) => !accountCustomers.has(id) && !goneAccounts.has(id));
    const unknownCustomers = [...accountCustomers.values()]
      .flat()
      .filter((id) => !customerAccounts.has(id) && !goneCustomers.has(id));
    if (unknownAccounts.length === 0 && unknownCustomers.length === 0) break;
    await fetchAccounts([...new Set(unknownAccounts)]);
    await fetchCustomers([...new Set(unknownCustomers)]);
  }

  const expected = new Map<string, Set<string>>();
  for (const [accountId, customers] of accountCustomers) {
    if (customers.length === 0) problems.push(`account ${accountId} lists no customer`);
    if (new Set(customers).size !== customers.length) problems.push(`account ${accountId} lists a customer twice`);
    for (const customerId of customers) {
      if (goneCustomers.has(customerId))
        problems.push(`account ${accountId} lists customer ${customerId}, which does not exist`);
      if (!expected.has(customerId)) expected.set(customerId, new Set());
      expected.get(customerId)!.add(accountId);
    }
  }
  for (const [customerId, accounts] of customerAccounts) {
    if (new Set(accounts).size !== accounts.length) problems.push(`customer ${customerId} lists an account twice`);
    const want = sorted(expected.get(customerId) ?? []);
    const have = sorted(accounts);
    if (want.join() !== have.join()) {
      problems.push(
        `customer ${customerId}: accountIds [${have.join(', ')}] but the accounts listing it are [${want.join(', ')}]`,
      );
    }
  }
  const links = [...accountCustomers.values()].reduce((sum, customers) => sum + customers.length, 0);
  return {
    liveCustomers: customerAccounts.size,
    liveAccounts: accountCustomers.size,
    goneAccounts: goneAccounts.size,
    links,
    problems,
    customerAccounts,
    accountCustomers,
  };
}

/**
 * The tables themselves, for records written only through the service: no account without a customer (nor an owner),
 * no link to a missing record, no idempotency key claimed but never completed, and an audit trail that
 * matches what exists (one create event per record; every vanished record has its delete event).
 */
/** Audit operations and the outbox event each one appends for its resource (one each). */
const EVENT_OF_OPERATION: [string, string][] = [
  ['customer.create', 'customer.created'],
  ['customer.update', 'customer.updated'],
  ['customer.delete', 'customer.deleted'],
  ['account.create', 'account.created'],
  ['account.delete', 'account.deleted'],
  ['account.customer.add', 'account.customer_added'],
  ['account.customer.remove', 'account.customer_removed'],
];

const OUTBOX_CHECKS: [string, string][] = [
  ...EVENT_OF_OPERATION.map(([operation, type]): [string, string] => [
    `resources whose ${operation} audit events and ${type} outbox events differ in number`,
    `SELECT count(*) AS n FROM (
       SELECT resource_id FROM audit_events WHERE operation = '${operation}'
       UNION SELECT resource_id FROM events WHERE type = '${type}'
     ) r
     WHERE (SELECT count(*) FROM audit_events a WHERE a.resource_id = r.resource_id AND a.operation = '${operation}')
        <> (SELECT count(*) FROM events v WHERE v.resource_id = r.resource_id AND v.type = '${type}')`,
  ]),
  [
    'accounts whose in-place changes (update, flags, overdraft limit) and account.updated events differ in number',
    `SELECT count(*) AS n FROM (SELECT DISTINCT resource_id FROM events WHERE type = 'account.updated'
                                UNION SELECT resource_id FROM audit_events WHERE operation IN ('account.update', 'account.flag.set', 'account.flag.clear', 'account.overdraft_limit.set')) r
     WHERE (SELECT count(*) FROM audit_events a WHERE a.resource_id = r.resource_id
              AND a.operation IN ('account.update', 'account.flag.set', 'account.flag.clear', 'account.overdraft_limit.set'))
        <> (SELECT count(*) FROM events v WHERE v.resource_id = r.resource_id AND v.type = 'account.updated')`,
  ],
  [
    // One transaction event per customer-side entry written, and one more per customer-side entry of each
    // hold settled (posted, voided or expired: one audit event each, holds are against settlement).
    'transaction events more or fewer than the entries and hold settlements explain',
    `SELECT abs((SELECT count(*) FROM events WHERE type LIKE 'transaction.%')
              - (SELECT count(*) FROM ledger_entries WHERE NOT is_settlement)
              - (SELECT count(*) FROM audit_events WHERE operation IN ('transaction.post', 'transaction.void', 'transaction.expire'))) AS n`,
  ],
];

export async function storageProblems(pool: pg.Pool): Promise<string[]> {
  const checks: [string, string][] = [
    [
      'accounts without any customer',
      'SELECT count(*) AS n FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM account_customers l WHERE l.account_id = a.id)',
    ],
    [
      // docs/adr/0091: an account always keeps an OWNER, also when removals and role changes race.
      'accounts without an OWNER',
      "SELECT count(*) AS n FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM account_customers l WHERE l.account_id = a.id AND l.role = 'OWNER')",
    ],
    [
      'links to a missing customer',
      'SELECT count(*) AS n FROM account_customers l WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = l.customer_id)',
    ],
    [
      'links to a missing account',
      'SELECT count(*) AS n FROM account_customers l WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = l.account_id)',
    ],
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
    // The outbox (issue 16): every committed write has its events and no event lacks its write. Both are
    // written by one statement, so after any crash the two sides must still agree exactly.
    ...OUTBOX_CHECKS,
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
