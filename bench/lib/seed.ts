import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { PiiCipher, type PiiKeyring } from '../../src/pii/pii-cipher.js';
import { seededRandom } from '../../scripts/reliability/lib/concurrency.js';
import { ssnForSequence } from './ssn-sequence.js';

export const BENCH_ENVIRONMENT = 'sandbox';

/** Keys generated per run; the service gets the same ones, so it can run normally on the seeded rows. */
export interface BenchKeys {
  keyId: string;
  key: Buffer;
  blindIndexKey: Buffer;
}

export function generateBenchKeys(): BenchKeys {
  return { keyId: 'bench-1', key: randomBytes(32), blindIndexKey: randomBytes(32) };
}

export function piiEnvironment(keys: BenchKeys): Record<string, string> {
  return {
    PII_KEYS: `${keys.keyId}:${keys.key.toString('base64')}`,
    PII_ACTIVE_KEY: keys.keyId,
    PII_BLIND_INDEX_KEY: keys.blindIndexKey.toString('base64'),
  };
}

export interface SeededData {
  customers: number;
  accounts: number;
  links: number;
  sharedAccounts: number;
  customerIds: string[];
  accountIds: string[];
  /** Customers with 1 to 5 accounts: the population of the nested GraphQL scenario. */
  nestedCustomerIds: string[];
  /** One customer per number of accounts, for the "statements do not grow with list sizes" probe. */
  probeCustomers: { accounts: number; customerId: string }[];
  /** The SSN sequence numbers the seed used; write scenarios must start above it. */
  nextSsnSequence: number;
}

const FIRST_NAMES = [
  'Alexandra',
  'Benjamin',
  'Chloe',
  'Daniel',
  'Elena',
  'Farid',
  'Grace',
  'Hiroshi',
  'Isabel',
  'Jamal',
  'Katarzyna',
  'Liam',
];
const LAST_NAMES = [
  'Doe',
  'Nguyen',
  'Garcia',
  'Smith',
  'Okafor',
  'Kowalski',
  'Hernandez',
  'Brown',
  'Tanaka',
  'Müller',
  'Rossi',
  'Haddad',
];
const CITIES: [string, string, string][] = [
  ['Springfield', 'IL', '62701'],
  ['Austin', 'TX', '73301'],
  ['Portland', 'OR', '97201'],
  ['Albany', 'NY', '12201'],
];
const ACCOUNT_TYPES = ['CHECKING', 'SAVINGS', 'MONEY_MARKET'];
const BATCH = 1000;

/**
 * Seeds through SQL (seconds for 10,000 customers, where the HTTP API would take minutes), with the
 * personal-data columns sealed by the service's own PiiCipher: the rows are exactly what the service
 * itself would have written. A third of the accounts are shared by 2–3 customers.
 */
export async function seed(
  pool: pg.Pool,
  sizes: { customers: number; accounts: number },
  keys: BenchKeys,
): Promise<SeededData> {
  const keyring: PiiKeyring = {
    keys: new Map([[keys.keyId, keys.key]]),
    activeKeyId: keys.keyId,
    blindIndexKey: keys.blindIndexKey,
  };
  const cipher = new PiiCipher(keyring);
  const random = seededRandom(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  const customerIds = Array.from({ length: sizes.customers }, () => uuidv7());
  for (let start = 0; start < customerIds.length; start += BATCH) {
    const rows = customerIds.slice(start, start + BATCH).map((customerId, offset) => {
      const sequence = start + offset;
      const sealed = cipher.seal(
        { environment: BENCH_ENVIRONMENT, customerId },
        {
          socialSecurityNumber: ssnForSequence(sequence).replaceAll('-', ''),
          documentLocatorNumber: 10_000_000_000 + sequence,
        },
      );
      const firstName = pick(FIRST_NAMES);
      const lastName = pick(LAST_NAMES);
      const [city, state, zip] = pick(CITIES);
      return {
        id: customerId,
        blind_index: Buffer.from(sealed.ssnBlindIndex).toString('base64'),
        ssn: Buffer.from(sealed.ssnCiphertext).toString('base64'),
        dln: Buffer.from(sealed.documentLocatorNumberCiphertext).toString('base64'),
        key_id: sealed.keyId,
        date_of_birth: `${1940 + Math.floor(random() * 65)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
        preferred_name: firstName.slice(0, 4),
        first_name: firstName,
        middle_name: random() < 0.3 ? '' : pick(FIRST_NAMES),
        last_name: lastName,
        emails: [`${firstName}.${lastName}.${sequence}@example.com`.toLowerCase()],
        phone_numbers: [
          {
            type: 'MOBILE',
            number: `+1 555 ${String(sequence % 1000).padStart(3, '0')} ${String(sequence % 10_000).padStart(4, '0')}`,
          },
        ],
        addresses: [{ type: 'HOME', street: `${1 + (sequence % 999)} Main St`, city, state, zip }],
      };
    });
    await pool.query(
      `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                              date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
       SELECT r.id, $2, decode(r.blind_index, 'base64'), decode(r.ssn, 'base64'), decode(r.dln, 'base64'), r.key_id,
              r.date_of_birth, r.preferred_name, r.first_name, r.middle_name, r.last_name,
              ARRAY(SELECT jsonb_array_elements_text(r.emails)), r.phone_numbers, r.addresses
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, blind_index text, ssn text, dln text, key_id text, date_of_birth date,
            preferred_name text, first_name text, middle_name text, last_name text, emails jsonb, phone_numbers jsonb, addresses jsonb)`,
      [JSON.stringify(rows), BENCH_ENVIRONMENT],
    );
  }

  // Every customer owns at least one account; a third of the accounts get one or two co-owners.
  const accountIds = Array.from({ length: sizes.accounts }, () => uuidv7());
  const owners = accountIds.map((_, index) => {
    const primary = index < customerIds.length ? index : Math.floor(random() * customerIds.length);
    const accountOwners = [primary];
    if (index % 3 === 2) {
      const extra = 1 + Math.floor(random() * 2);
      while (accountOwners.length < 1 + extra && accountOwners.length < customerIds.length) {
        const candidate = Math.floor(random() * customerIds.length);
        if (!accountOwners.includes(candidate)) accountOwners.push(candidate);
      }
    }
    return accountOwners;
  });
  let links = 0;
  for (let start = 0; start < accountIds.length; start += BATCH) {
    const accounts = accountIds.slice(start, start + BATCH).map((id) => ({
      id,
      type: pick(ACCOUNT_TYPES),
      name: pick(['Everyday Checking', 'Rainy Day Savings', 'Joint Account', 'Travel Fund']),
      currency: random() < 0.9 ? 'USD' : pick(['EUR', 'GBP', 'CAD']),
      amount: (Math.floor(random() * 10_000_000) / 100).toFixed(2),
    }));
    const batchLinks = accounts.flatMap((account, offset) =>
      owners[start + offset]!.map((owner, position) => ({
        account_id: account.id,
        customer_id: customerIds[owner]!,
        position,
      })),
    );
    links += batchLinks.length;
    await pool.query(
      `INSERT INTO accounts (id, environment, type, name, currency, amount)
       SELECT r.id, $2, r.type, r.name, r.currency, r.amount
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, type text, name text, currency text, amount numeric)`,
      [JSON.stringify(accounts), BENCH_ENVIRONMENT],
    );
    await pool.query(
      `INSERT INTO account_customers (account_id, customer_id, environment, position)
       SELECT r.account_id, r.customer_id, $2, r.position
       FROM jsonb_to_recordset($1::jsonb) AS r(account_id uuid, customer_id uuid, position int)`,
      [JSON.stringify(batchLinks), BENCH_ENVIRONMENT],
    );
  }
  await pool.query('ANALYZE customers, accounts, account_customers');

  const accountCount = new Map<number, number>();
  for (const accountOwners of owners)
    for (const owner of accountOwners) accountCount.set(owner, (accountCount.get(owner) ?? 0) + 1);
  const nestedCustomerIds = customerIds.filter((_, index) => {
    const count = accountCount.get(index) ?? 0;
    return count >= 1 && count <= 5;
  });
  const probeCustomers: SeededData['probeCustomers'] = [];
  for (const [index, count] of [...accountCount].sort((a, b) => a[1] - b[1])) {
    if (!probeCustomers.some((probe) => probe.accounts === count))
      probeCustomers.push({ accounts: count, customerId: customerIds[index]! });
  }

  return {
    customers: customerIds.length,
    accounts: accountIds.length,
    links,
    sharedAccounts: owners.filter((o) => o.length > 1).length,
    customerIds,
    accountIds,
    nestedCustomerIds,
    probeCustomers,
    nextSsnSequence: customerIds.length,
  };
}

/** What the ledger scenarios pick from (bench/load/requests.ts). */
export interface LedgerData {
  /** Funded USD accounts the transfers move money among, the hot account excluded. */
  transferAccountIds: string[];
  /** The one account every transfer of rest-transfer-hot pays into. */
  hotAccountId: string;
  /** Accounts with RECENT_TRANSACTIONS posted deposits each: the population of rest-get-account-with-transactions. */
  accountsWithTransactions: string[];
  /** Entries written by the seed (both sides of every posting). */
  entries: number;
}

/** Every funded account starts with this much: thousands of transfers of at most 10.00 never run one dry. */
const FUNDING = '1000000.00';
const DEPOSITS_PER_READ_ACCOUNT = 10;

/**
 * The ledger's seed, in a few bulk statements per batch on the bench's own connection: `transferAccounts` + 1 USD
 * accounts (the last is the hot one) funded with one deposit each, and `readAccounts` accounts with 10
 * deposits each, every account linked to one seeded customer. Each deposit is a real posting: the account's
 * entry (CREDIT, balance_after its running balance) and the settlement account's (DEBIT), inserted in one
 * statement so the database's own balanced-posting trigger checks them; account balances, entry counts and
 * the settlement account's balance agree with the entries, as if the service had posted them.
 */
export async function seedLedger(
  pool: pg.Pool,
  sizes: { transferAccounts: number; readAccounts: number },
  customerIds: string[],
): Promise<LedgerData> {
  const funded = Array.from({ length: sizes.transferAccounts + 1 }, () => uuidv7());
  const withTransactions = Array.from({ length: sizes.readAccounts }, () => uuidv7());
  const all = [...funded, ...withTransactions];
  const owners = all.map((_, index) => customerIds[index % customerIds.length]!);
  const deposits = all.map((_, index) => (index < funded.length ? 1 : DEPOSITS_PER_READ_ACCOUNT));
  const client = await pool.connect();
  let entries = 0;
  try {
    await client.query(
      `INSERT INTO ledger_settlement_accounts (environment, currency) VALUES ($1, 'USD') ON CONFLICT (environment, currency) DO NOTHING`,
      [BENCH_ENVIRONMENT],
    );
    // A transaction per batch: linking an account takes a transaction-level advisory lock per customer (the
    // customer's account cap), and 100,000 links in one transaction exhaust PostgreSQL's lock table.
    for (let start = 0; start < all.length; start += BATCH * 5) {
      await client.query('BEGIN');
      const ids = all.slice(start, start + BATCH * 5);
      const counts = deposits.slice(start, start + BATCH * 5);
      const result = await client.query(
        `WITH acct AS (SELECT t.id, t.deposits, t.ord FROM unnest($1::uuid[], $2::int[]) WITH ORDINALITY AS t(id, deposits, ord)),
         deposit AS (
           SELECT a.id AS account_id, a.ord, d.n, gen_random_uuid() AS posting_id, gen_random_uuid() AS entry_id, gen_random_uuid() AS settlement_entry_id,
                  CASE WHEN a.deposits = 1 THEN $3::numeric ELSE (10 + (a.ord * 7 + d.n * 13) % 490)::numeric + d.n / 100.0 END AS amount
           FROM acct a CROSS JOIN LATERAL generate_series(1, a.deposits) AS d(n)
         ),
         running AS (
           SELECT d.*, sum(d.amount) OVER (PARTITION BY d.account_id ORDER BY d.n) AS balance,
                  sum(d.amount) OVER (ORDER BY d.ord, d.n) AS moved
           FROM deposit d
         ),
         settlement AS (SELECT s.id, s.amount FROM ledger_settlement_accounts s WHERE s.environment = $4 AND s.currency = 'USD'),
         legs AS (
           SELECT r.ord, r.n, 0 AS side, r.entry_id AS id, r.account_id, false AS is_settlement, r.posting_id, 'CREDIT' AS type, r.amount, r.balance AS balance_after
           FROM running r
           UNION ALL
           SELECT r.ord, r.n, 1, r.settlement_entry_id, s.id, true, r.posting_id, 'DEBIT', r.amount, s.amount - r.moved
           FROM running r, settlement s
         )
         INSERT INTO ledger_entries (id, environment, account_id, is_settlement, posting_id, type, amount, posted_amount, currency, description, status, balance_after, posted_at)
         SELECT l.id, $4, l.account_id, l.is_settlement, l.posting_id, l.type, l.amount, l.amount, 'USD', 'Bench deposit ' || l.n, 'POSTED', l.balance_after, CURRENT_TIMESTAMP
         FROM legs l ORDER BY l.ord, l.n, l.side`,
        [ids, counts, FUNDING, BENCH_ENVIRONMENT],
      );
      entries += result.rowCount ?? 0;
      await client.query(
        `WITH totals AS (
           SELECT e.account_id, sum(e.amount) AS amount, count(*) AS entries FROM ledger_entries e
           WHERE e.account_id = ANY($1::uuid[]) GROUP BY e.account_id
         ), accounts AS (
           INSERT INTO accounts (id, environment, type, name, currency, amount, entry_count)
           SELECT t.account_id, $2, 'CHECKING', 'Bench Ledger', 'USD', t.amount, t.entries FROM totals t
           RETURNING id
         )
         UPDATE ledger_settlement_accounts s SET amount = s.amount - (SELECT sum(t.amount) FROM totals t)
         WHERE s.environment = $2 AND s.currency = 'USD'`,
        [ids, BENCH_ENVIRONMENT],
      );
      await client.query(
        `INSERT INTO account_customers (account_id, customer_id, environment, position)
         SELECT t.account_id, t.customer_id, $3, 0 FROM unnest($1::uuid[], $2::uuid[]) AS t(account_id, customer_id)`,
        [ids, owners.slice(start, start + BATCH * 5), BENCH_ENVIRONMENT],
      );
      await client.query('COMMIT');
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  await pool.query('ANALYZE accounts, account_customers, ledger_entries, ledger_settlement_accounts');
  return {
    transferAccountIds: funded.slice(0, -1),
    hotAccountId: funded.at(-1)!,
    accountsWithTransactions: withTransactions,
    entries,
  };
}
