import type pg from 'pg';

/**
 * Issue 34, item 5: the history a bank's database carries beside its customers, seeded in bulk SQL on the
 * server (generate_series, INSERT … SELECT) in the service's own table shapes, scaled with the customers so
 * that every size has the same shape. At 1,000,000 customers the defaults give 10,000,000 ledger entries (one
 * account holding 1,000,000 of them), 10,000,000 events, 10,000,000 audit rows and 1,000,000 idempotency keys.
 */

/** Rows per customer of each table; `busyEntries` is the one busy account's share of `entries`. */
export interface GrowthScale {
  entries: number;
  busyEntries: number;
  events: number;
  audit: number;
  idempotencyKeys: number;
}

export const DEFAULT_GROWTH_SCALE: GrowthScale = {
  entries: 10,
  busyEntries: 1,
  events: 10,
  audit: 10,
  idempotencyKeys: 1,
};

/** Absolute row counts of one seed. */
export interface GrowthShape {
  /** Ledger entries in all, both legs of every posting (so even). */
  entries: number;
  /** Entries on the busy account (one per posting on it; the other leg is the settlement account's). */
  busyEntries: number;
  events: number;
  auditEvents: number;
  idempotencyKeys: number;
}

export const GROWTH_SCALE_KEYS: Record<string, keyof GrowthScale> = {
  entries: 'entries',
  busy: 'busyEntries',
  events: 'events',
  audit: 'audit',
  keys: 'idempotencyKeys',
};

/** `entries=10,busy=1,events=10,audit=10,keys=1` (per customer; omitted keys keep the default), or throws. */
export function parseGrowthScale(raw: string): GrowthScale {
  const scale = { ...DEFAULT_GROWTH_SCALE };
  for (const pair of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, value] = pair.split('=');
    const key = GROWTH_SCALE_KEYS[name ?? ''];
    if (key === undefined || value === undefined || !/^\d+(\.\d+)?$/.test(value)) {
      throw new Error(
        `growth scale expects ${Object.keys(GROWTH_SCALE_KEYS).join('|')}=<rows per customer>, got "${pair}"`,
      );
    }
    scale[key] = Number(value);
  }
  return scale;
}

/** The rows to seed for `customers` customers. */
export function growthShapeFor(customers: number, scale: GrowthScale = DEFAULT_GROWTH_SCALE): GrowthShape {
  const postings = Math.max(1, Math.round((customers * scale.entries) / 2));
  const busyEntries = Math.min(postings, Math.max(1, Math.round(customers * scale.busyEntries)));
  return {
    entries: 2 * postings,
    busyEntries,
    events: Math.round(customers * scale.events),
    auditEvents: Math.round(customers * scale.audit),
    idempotencyKeys: Math.round(customers * scale.idempotencyKeys),
  };
}

export interface GrowthData {
  shape: GrowthShape;
  /** The account holding `busyEntries` entries (USD), posted evenly over [from, to). */
  busyAccountId: string;
  from: string;
  to: string;
  /** Seconds each part took (indexes rebuilt included). */
  seconds: {
    ledger: number;
    events: number;
    audit: number;
    idempotencyKeys: number;
    indexes: number;
    total: number;
  };
}

/** Postings per statement: bounded sorts and transactions, and progress to report. */
const CHUNK = 250_000;
/** The principal the seeded audit rows and idempotency keys belong to (a static token's, as the service names them). */
export const GROWTH_PRINCIPAL = 'token:growth-seed';

/**
 * A uuidv7 for the moment `ms` (SQL bigint of epoch milliseconds) and the row number `n`, as the service's ids
 * are (time-ordered): 48 bits of time, the version, then bits drawn from md5 of the row number.
 */
const uuidv7Sql = (ms: string, n: string) =>
  `(lpad(to_hex(${ms}), 12, '0') || '7' || substr(md5(${n}::text), 1, 3) || to_hex(8 + (${n}) % 4) || substr(md5(${n}::text), 4, 15))::uuid`;

/**
 * Seeds `shape` in `environment` over [from, to), on accounts and customers already there (bench/lib/seed.ts):
 * - postings of the ledger, each balanced (the account's entry and the settlement account's of its currency, in
 *   one statement so the balanced-postings trigger checks them), `balance_after` the running balance in posting
 *   order on both legs, account and settlement balances and entry counts moved by the same amounts: one in
 *   `entries / 2 / busyEntries` postings on a new busy USD account (credit 10, credit 10, debit 5, …), the others
 *   deposits on the other accounts of the environment, spread evenly;
 * - `account.updated` events (one transaction's, numbered by one sequencer round, as the sequencer would) and
 *   `account.update` audit rows on those accounts, and `customer.create` idempotency keys unexpired for a day.
 * Backdated, so the ledger part must run before anything posts at the present (bench/lib/context.ts seeds it
 * before the ledger scenarios' accounts). Secondary indexes of the tables it fills are dropped for the load and
 * rebuilt from their own definitions (pg_get_indexdef), as the migrations made them. Needs the tables' owner.
 */
export async function seedGrowth(
  pool: pg.Pool,
  options: {
    environment: string;
    shape: GrowthShape;
    ownerCustomerId: string;
    from?: Date;
    to?: Date;
    log?: (line: string) => void;
  },
): Promise<GrowthData> {
  const { environment, shape } = options;
  const from = options.from ?? new Date('2025-01-01T00:00:00Z');
  const to = options.to ?? new Date('2026-01-01T00:00:00Z');
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const seconds = {
    ledger: 0,
    events: 0,
    audit: 0,
    idempotencyKeys: 0,
    indexes: 0,
    total: 0,
  };
  const client = await pool.connect();
  try {
    await client.query("SET work_mem = '256MB'");
    await client.query("SET maintenance_work_mem = '512MB'");
    const tables = ['ledger_entries', 'events', 'audit_events', 'idempotency_keys'];
    // Secondary indexes only: primary keys and unique constraints stay (they are constraints, and guard the load).
    const { rows: indexes } = await client.query<{
      name: string;
      definition: string;
    }>(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
       WHERE t.relname = ANY($1::text[]) AND t.relnamespace = 'public'::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
      [tables],
    );
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);

    let mark = performance.now();
    const busyAccountId = await seedLedgerHistory(client, {
      environment,
      shape,
      ownerCustomerId: options.ownerCustomerId,
      from,
      to,
      log,
    });
    seconds.ledger = (performance.now() - mark) / 1000;

    // The accounts and customers the events, audit rows and keys name, numbered so a row's number picks one by a hash join.
    const accounts = await numbered(
      client,
      'growth_targets',
      'SELECT a.id, a.type, a.name, a.currency, a.amount FROM accounts a WHERE a.environment = $1',
      environment,
    );
    const customers = await numbered(
      client,
      'growth_customers',
      'SELECT c.id FROM customers c WHERE c.environment = $1',
      environment,
    );

    mark = performance.now();
    await seedEvents(client, { environment, count: shape.events, from, to, accounts });
    seconds.events = (performance.now() - mark) / 1000;
    log(`[growth] ${shape.events} events in ${seconds.events.toFixed(1)} s`);

    mark = performance.now();
    if (shape.auditEvents > 0) {
      await client.query(
        `INSERT INTO audit_events (id, occurred_at, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields)
         SELECT ${uuidv7Sql('t.ms', 'g.i')}, to_timestamp(t.ms / 1000.0), $2, $1, 'account.update', 'account', a.id, 'growth-' || g.i, NULL, ARRAY['name']
         FROM generate_series(1, $3::bigint) AS g(i)
         CROSS JOIN LATERAL (SELECT (extract(epoch FROM $4::timestamptz) * 1000)::bigint
                                    + ((g.i - 1) * ((extract(epoch FROM $5::timestamptz) - extract(epoch FROM $4::timestamptz)) * 1000 / $3::bigint))::bigint AS ms) t
         JOIN growth_targets a ON a.ord = 1 + (g.i * 40503) % $6::bigint`,
        [environment, GROWTH_PRINCIPAL, shape.auditEvents, from.toISOString(), to.toISOString(), accounts],
      );
    }
    seconds.audit = (performance.now() - mark) / 1000;
    log(`[growth] ${shape.auditEvents} audit rows in ${seconds.audit.toFixed(1)} s`);

    mark = performance.now();
    if (shape.idempotencyKeys > 0) {
      // Unexpired (created within the last day, kept for a day): the sweep has nothing to delete while measuring.
      await client.query(
        `INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, result, created_at, expires_at)
         SELECT $2, $1, 'growth-' || g.i, 'customer.create', sha256(convert_to('growth-' || g.i, 'UTF8')), jsonb_build_object('customerId', c.id),
                t.at, t.at + interval '1 day'
         FROM generate_series(1, $3::bigint) AS g(i)
         CROSS JOIN LATERAL (SELECT CURRENT_TIMESTAMP - interval '23 hours' * g.i / $3::bigint AS at) t
         JOIN growth_customers c ON c.ord = 1 + (g.i * 40503) % $4::bigint`,
        [environment, GROWTH_PRINCIPAL, shape.idempotencyKeys, customers],
      );
    }
    seconds.idempotencyKeys = (performance.now() - mark) / 1000;
    log(`[growth] ${shape.idempotencyKeys} idempotency keys in ${seconds.idempotencyKeys.toFixed(1)} s`);

    await client.query('DROP TABLE growth_targets, growth_customers');
    mark = performance.now();
    for (const index of indexes) await client.query(index.definition);
    await client.query(`ANALYZE ${[...tables, 'accounts', 'ledger_settlement_accounts', 'event_rounds'].join(', ')}`);
    seconds.indexes = (performance.now() - mark) / 1000;
    log(`[growth] ${indexes.length} indexes rebuilt and tables analysed in ${seconds.indexes.toFixed(1)} s`);
    seconds.total = (performance.now() - started) / 1000;
    return {
      shape,
      busyAccountId,
      from: from.toISOString(),
      to: to.toISOString(),
      seconds,
    };
  } finally {
    client.release();
  }
}

async function seedLedgerHistory(
  client: pg.PoolClient,
  options: {
    environment: string;
    shape: GrowthShape;
    ownerCustomerId: string;
    from: Date;
    to: Date;
    log: (line: string) => void;
  },
): Promise<string> {
  const { environment, shape } = options;
  const postings = shape.entries / 2;
  const busy = shape.busyEntries;
  const { rows: created } = await client.query<{ id: string }>(
    `WITH account AS (INSERT INTO accounts (id, environment, type, name, currency) VALUES (gen_random_uuid(), $1, 'CHECKING', 'Busy', 'USD') RETURNING id),
     linked AS (INSERT INTO account_customers (account_id, customer_id, environment, position) SELECT a.id, $2, $1, 0 FROM account a)
     SELECT id FROM account`,
    [environment, options.ownerCustomerId],
  );
  const busyAccountId = created[0]!.id;
  await client.query(
    `INSERT INTO ledger_settlement_accounts (environment, currency)
     SELECT DISTINCT $1, a.currency FROM accounts a WHERE a.environment = $1 ON CONFLICT (environment, currency) DO NOTHING`,
    [environment],
  );
  // The accounts the deposits spread over, numbered so a posting's number picks one in a single probe.
  await client.query('DROP TABLE IF EXISTS growth_accounts');
  await client.query(
    `CREATE TEMP TABLE growth_accounts AS
     SELECT row_number() OVER (ORDER BY a.id) AS ord, a.id, a.currency FROM accounts a WHERE a.environment = $1 AND a.id <> $2`,
    [environment, busyAccountId],
  );
  await client.query('ALTER TABLE growth_accounts ADD PRIMARY KEY (ord)');
  const { rows: counted } = await client.query<{ n: string }>('SELECT count(*) AS n FROM growth_accounts');
  const spreadAccounts = Number(counted[0]!.n);
  if (spreadAccounts === 0 && busy < postings)
    throw new Error('the growth seed needs accounts to spread the deposits over');
  // One block of the posting sequence for every entry: 2i - 1 the account's leg of posting i, 2i the settlement's.
  const { rows: block } = await client.query<{ base: string }>(
    "SELECT setval('ledger_entries_posting_seq', nextval('ledger_entries_posting_seq') + $1::bigint) - $1::bigint AS base",
    [shape.entries],
  );
  for (let start = 1; start <= postings; start += CHUNK) {
    const end = Math.min(postings, start + CHUNK - 1);
    await client.query('BEGIN');
    try {
      // The moment of posting is the seed's (backdated), not the statement's: the posting-order trigger stays off
      // for this transaction only, and posting_seq comes from the block above.
      await client.query('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_posting_order');
      await client.query(
        `WITH postings AS (
         SELECT g.i, gen_random_uuid() AS posting_id,
                floor(g.i * $3::numeric / $2::numeric) > floor((g.i - 1) * $3::numeric / $2::numeric) AS busy,
                floor(g.i * $3::numeric / $2::numeric)::bigint AS k,
                $5::timestamptz + (g.i - 1) * (($6::timestamptz - $5::timestamptz) / $2::bigint) AS at
         FROM generate_series($7::bigint, $8::bigint) AS g(i)
       ),
       legs AS (
         SELECT p.i, p.posting_id, p.at,
                CASE WHEN p.busy THEN $4::uuid ELSE g.id END AS account_id,
                CASE WHEN p.busy THEN 'USD' ELSE g.currency END AS currency,
                CASE WHEN p.busy AND p.k % 3 = 0 THEN 'DEBIT' ELSE 'CREDIT' END AS type,
                CASE WHEN p.busy THEN CASE WHEN p.k % 3 = 0 THEN 5 ELSE 10 END ELSE (100 + p.i % 9900) / 100.0 END::numeric AS amount
         FROM postings p LEFT JOIN growth_accounts g ON NOT p.busy AND g.ord = 1 + (p.i * 2654435761) % $9::bigint
       ),
       signed AS (SELECT l.*, CASE WHEN l.type = 'CREDIT' THEN l.amount ELSE -l.amount END AS delta FROM legs l),
       running AS (
         SELECT s.*, sum(s.delta) OVER (PARTITION BY s.account_id ORDER BY s.i) AS account_delta,
                sum(s.delta) OVER (PARTITION BY s.currency ORDER BY s.i) AS settlement_delta
         FROM signed s
       ),
       entries AS (
         INSERT INTO ledger_entries (id, environment, account_id, is_settlement, posting_id, type, amount, posted_amount, currency, description,
                                     status, balance_after, created_at, posted_at, posting_seq)
         SELECT gen_random_uuid(), $1, r.account_id, false, r.posting_id, r.type, r.amount, r.amount, r.currency,
                CASE WHEN r.type = 'CREDIT' THEN 'Deposit' ELSE 'Withdrawal' END, 'POSTED', a.amount + r.account_delta, r.at, r.at, $10::bigint + 2 * r.i - 1
         FROM running r JOIN accounts a ON a.id = r.account_id
         UNION ALL
         SELECT gen_random_uuid(), $1, s.id, true, r.posting_id, CASE r.type WHEN 'CREDIT' THEN 'DEBIT' ELSE 'CREDIT' END, r.amount, r.amount, r.currency,
                CASE WHEN r.type = 'CREDIT' THEN 'Deposit' ELSE 'Withdrawal' END, 'POSTED', s.amount - r.settlement_delta, r.at, r.at, $10::bigint + 2 * r.i
         FROM running r JOIN ledger_settlement_accounts s ON s.environment = $1 AND s.currency = r.currency
         RETURNING 1
       ),
       per_account AS (SELECT r.account_id, sum(r.delta) AS delta, count(*) AS n FROM running r GROUP BY r.account_id),
       per_currency AS (SELECT r.currency, sum(r.delta) AS delta FROM running r GROUP BY r.currency),
       moved AS (
         UPDATE accounts a SET amount = a.amount + p.delta, entry_count = a.entry_count + p.n FROM per_account p WHERE a.id = p.account_id RETURNING 1
       ),
       settled AS (
         UPDATE ledger_settlement_accounts s SET amount = s.amount - c.delta FROM per_currency c WHERE s.environment = $1 AND s.currency = c.currency RETURNING 1
       )
       SELECT (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM moved) AS moved, (SELECT count(*) FROM settled) AS settled`,
        [
          environment,
          postings,
          busy,
          busyAccountId,
          options.from.toISOString(),
          options.to.toISOString(),
          start,
          end,
          Math.max(1, spreadAccounts),
          block[0]!.base,
        ],
      );
      await client.query('ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_posting_order');
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    options.log(`[growth] ledger: ${2 * end} of ${shape.entries} entries`);
  }
  await client.query('DROP TABLE growth_accounts');
  return busyAccountId;
}

/** `select` (its first parameter the environment) as temporary table `name`, numbered 1…n by id; answers n. */
async function numbered(client: pg.PoolClient, name: string, select: string, environment: string): Promise<number> {
  await client.query(`DROP TABLE IF EXISTS ${name}`);
  await client.query(
    `CREATE TEMP TABLE ${name} AS SELECT row_number() OVER (ORDER BY s.id) AS ord, s.* FROM (${select}) s`,
    [environment],
  );
  await client.query(`ALTER TABLE ${name} ADD PRIMARY KEY (ord)`);
  await client.query(`ANALYZE ${name}`);
  const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${name}`);
  return Number(rows[0]!.n);
}

/**
 * `count` events in one transaction (one txid, as one writer's), then the round that numbers them, as the
 * sequencer writes it (src/features/events/event.store.ts): the service finds them numbered and has nothing to catch up.
 */
async function seedEvents(
  client: pg.PoolClient,
  options: { environment: string; count: number; from: Date; to: Date; accounts: number },
): Promise<void> {
  if (options.count === 0) return;
  await client.query('BEGIN');
  try {
    for (let start = 1; start <= options.count; start += CHUNK * 4) {
      const end = Math.min(options.count, start + CHUNK * 4 - 1);
      await client.query(
        `INSERT INTO events (environment, type, resource_type, resource_id, payload, changed_fields, occurred_at)
         SELECT $1, 'account.updated', 'account', a.id,
                jsonb_build_object('id', a.id, 'type', a.type, 'name', a.name, 'currency', a.currency, 'amount', a.amount::text),
                ARRAY['name'], $3::timestamptz + (g.i - 1) * (($4::timestamptz - $3::timestamptz) / $2::bigint)
         FROM generate_series($5::bigint, $6::bigint) AS g(i)
         JOIN growth_targets a ON a.ord = 1 + (g.i * 40503) % $7::bigint`,
        [
          options.environment,
          options.count,
          options.from.toISOString(),
          options.to.toISOString(),
          start,
          end,
          options.accounts,
        ],
      );
    }
    await client.query(
      `WITH head AS (SELECT coalesce(max(r.last_sequence), 0) AS last FROM event_rounds r WHERE r.environment = $1),
       mine AS (SELECT e.txid, e.id FROM events e WHERE e.environment = $1 AND e.txid = pg_current_xact_id()::text::bigint),
       bounds AS (
         SELECT (SELECT m.txid FROM mine m ORDER BY m.txid, m.id LIMIT 1) AS first_txid, (SELECT m.id FROM mine m ORDER BY m.txid, m.id LIMIT 1) AS first_id,
                (SELECT m.txid FROM mine m ORDER BY m.txid DESC, m.id DESC LIMIT 1) AS last_txid, (SELECT m.id FROM mine m ORDER BY m.txid DESC, m.id DESC LIMIT 1) AS last_id,
                (SELECT count(*) FROM mine) AS n
       ),
       round AS (
         INSERT INTO event_rounds (environment, first_sequence, last_sequence, first_txid, first_id, last_txid, last_id)
         SELECT $1, h.last + 1, h.last + b.n, b.first_txid, b.first_id, b.last_txid, b.last_id FROM head h, bounds b
         RETURNING last_sequence
       )
       INSERT INTO event_sequences AS s (environment, last) SELECT $1, r.last_sequence FROM round r
       ON CONFLICT (environment) DO UPDATE SET last = greatest(s.last, EXCLUDED.last)`,
      [options.environment],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
