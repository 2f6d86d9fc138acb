import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { growthShapeFor, parseGrowthScale, seedGrowth } from '../../bench/lib/growth-seed.js';
import {
  type DataGrowthReport,
  type GrowthSize,
  judgeGrowth,
  judgeSizeRatio,
  renderGrowthMarkdown,
  renderGrowthSummary,
} from '../../bench/lib/growth-report.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ledgerViolations } from '../support/ledger-invariants.js';

describe('the data-growth bench`s judgement of CPU per request between sizes', () => {
  it('is met when the interval`s upper bound is within the limit, missed when its lower bound is above it', () => {
    const small = [100, 102, 98, 101, 99];
    expect(judgeSizeRatio(small, [120, 118, 122, 121, 119], 1.5)).toMatchObject({ verdict: 'met' });
    expect(judgeSizeRatio(small, [200, 210, 190, 205, 195], 1.5)).toMatchObject({ verdict: 'missed' });
    // A median within the limit whose interval reaches past it is not met: inside the noise.
    const wide = judgeSizeRatio(small, [100, 180, 140, 90, 170], 1.5);
    expect(wide.ratio).toBeLessThan(1.5);
    expect(wide.interval![1]).toBeGreaterThan(1.5);
    expect(wide.verdict).toBe('inside the noise');
  });

  it('has no verdict without three runs at each size', () => {
    expect(judgeSizeRatio([100, 101], [100, 100, 100], 1.5)).toMatchObject({ verdict: 'not judged', interval: null });
    expect(judgeSizeRatio([], [], 1.5)).toMatchObject({ verdict: 'not judged', ratio: null });
  });
});

describe('the data-growth bench`s report', () => {
  it('reports an operation whose every answer was refused as not measured, not as the cost of refusing', () => {
    const contender = (name: string, rps: number[]) => ({
      name,
      serverCpuUsPerRequest: [57_000, 56_000, 58_000],
      postgresCpuUsPerRequest: [116_000, 115_000, 117_000],
      p99Ms: [529, 530, 528],
      rps,
      errors: [40, 41, 39],
    });
    const report: DataGrowthReport = {
      startedAt: '2026-11-26T21:20:18.515Z',
      finishedAt: '2026-11-26T22:00:36.000Z',
      elapsedSeconds: 2418,
      command: 'npm run bench:data-growth',
      commit: 'abc1234',
      options: { sizes: [1_000_000], runs: 3, durationSeconds: 6, growthScale: 'entries=10', churn: 0.1 },
      sizes: [
        {
          customers: 1_000_000,
          accounts: 1_500_000,
          seedSeconds: { base: 456.9, growth: null },
          growth: null,
          operations: [
            {
              scenario: 'rest-statement',
              title: 'a month',
              connections: 4,
              check: 'service answered HTTP 400 STATEMENT_TOO_LARGE',
              contenders: [contender('service', [0, 0, 0])],
            },
          ],
          disk: [],
          vacuum: [],
        },
      ],
      judgements: [],
      failures: [],
    };
    const row = renderGrowthMarkdown(report)
      .split('\n')
      .find((line) => line.startsWith('| rest-statement | service |'));
    expect(row).toContain('not measured: no successful answer');
    expect(row).not.toContain('57000');
  });
});

describe('the data-growth summary in `npm run bench`s report', () => {
  const size = (customers: number, serviceCpu: number[], serviceRps: number[], floorRps: number[]): GrowthSize => ({
    customers,
    accounts: customers,
    seedSeconds: { base: 1, growth: null },
    growth: null,
    operations: [
      {
        scenario: 'rest-list-customers-by-name',
        title: 'list',
        connections: 50,
        check: 'same JSON',
        contenders: [
          {
            name: 'service',
            serverCpuUsPerRequest: serviceCpu,
            postgresCpuUsPerRequest: serviceCpu,
            p99Ms: [9, 9, 9],
            rps: serviceRps,
            errors: [0, 0, 0],
          },
          {
            name: 'batching-floor',
            serverCpuUsPerRequest: [100, 100, 100],
            postgresCpuUsPerRequest: [100, 100, 100],
            p99Ms: [5, 5, 5],
            rps: floorRps,
            errors: [0, 0, 0],
          },
        ],
      },
    ],
    disk: [],
    vacuum: [],
  });

  it('judges the list page between the smallest and largest size from the runs, and gives the search`s ratio to the same-SQL floor', () => {
    const report = {
      startedAt: '2026-11-26T21:20:18.515Z',
      command: 'npm run bench:data-growth',
      commit: 'abc1234',
      sizes: [
        size(10_000, [500, 510, 490], [800, 800, 800], [1000, 1000, 1000]),
        size(1_000_000, [900, 910, 890], [600, 600, 600], [800, 800, 800]),
      ],
      judgements: [],
    } as unknown as DataGrowthReport;
    const lines = renderGrowthSummary(report);
    expect(lines[0]).toContain('not measured by this run');
    // Total CPU: the server's and PostgreSQL's (the same figures here), 1,000 then 1,800; p99 the same at both sizes.
    expect(lines.find((line) => line.startsWith('| rest-list-customers-by-name | 1000 | 1800 |'))).toMatch(
      /^\| rest-list-customers-by-name \| 1000 \| 1800 \| 1\.80 \(.+\) \| missed \| 9\.0 \| 9\.0 \| 1\.00 \(.+\) \| met \| 1\.80 \|$/,
    );
    expect(lines).toContain('| rest-list-customers-by-name | 0.80 | 0.75 |');
    expect(lines.slice(-3)).toEqual([
      "| the service's peak RSS, over every operation | 10,000 | 1,000,000 |",
      '|---|---|---|',
      '| ≤ 250 MB | not recorded | not recorded |',
    ]);
  });

  it('judges the service`s total CPU (its own and PostgreSQL`s) and its p99 apart, each on its interval', () => {
    const small = size(10_000, [500, 510, 490], [800, 800, 800], [1000, 1000, 1000]);
    const large = size(1_000_000, [520, 530, 510], [800, 800, 800], [1000, 1000, 1000]);
    large.operations[0]!.contenders[0]!.p99Ms = [19, 20, 21];
    const verdicts = judgeGrowth([small, large]).filter((j) => j.scenario === 'rest-list-customers-by-name');
    expect(verdicts.map((j) => [j.measure, j.verdict, j.ratio?.toFixed(2)])).toEqual([
      ['total CPU', 'met', '1.04'],
      ['p99', 'missed', '2.22'],
    ]);
    // Runs without PostgreSQL's CPU are left out of the total rather than counted as the server's alone.
    large.operations[0]!.contenders[0]!.postgresCpuUsPerRequest = [null, null, null];
    expect(
      judgeGrowth([small, large]).find(
        (j) => j.measure === 'total CPU' && j.scenario === 'rest-list-customers-by-name',
      ),
    ).toMatchObject({ verdict: 'not judged', ratio: null });
  });

  it('gives the service`s peak RSS per size, over every operation, judged against 250 MB', () => {
    const withRss = (customers: number, rss: (number | null)[], floorRss: number[]): GrowthSize => {
      const base = size(customers, [500, 510, 490], [800, 800, 800], [1000, 1000, 1000]);
      const [list] = base.operations;
      const statement = {
        ...list!,
        scenario: 'rest-statement',
        contenders: list!.contenders.map((c) => ({
          ...c,
          peakRssMb: c.name === 'service' ? rss.map((mb) => (mb === null ? null : mb - 10)) : floorRss,
        })),
      };
      return {
        ...base,
        operations: [
          {
            ...list!,
            contenders: list!.contenders.map((c) => ({ ...c, peakRssMb: c.name === 'service' ? rss : floorRss })),
          },
          statement,
        ],
      };
    };
    const report = {
      startedAt: '2026-11-26T21:20:18.515Z',
      command: 'npm run bench:data-growth',
      commit: 'abc1234',
      options: { sizes: [10_000, 1_000_000], runs: 3, durationSeconds: 6, growthScale: 'entries=10', churn: 0.1 },
      elapsedSeconds: 60,
      sizes: [
        withRss(10_000, [190, null, 201.4], [400, 400, 400]),
        withRss(1_000_000, [249, 262.2, 240], [40, 40, 40]),
      ],
      judgements: [],
      failures: [],
    } as unknown as DataGrowthReport;
    expect(renderGrowthSummary(report).at(-1)).toBe(
      '| ≤ 250 MB | 201 MB (rest-list-customers-by-name): met | 262 MB (rest-list-customers-by-name): missed |',
    );
    const markdown = renderGrowthMarkdown(report);
    expect(markdown).toContain('| 10,000 | 201 MB (rest-list-customers-by-name): met |');
    expect(markdown).toContain('| 1,000,000 | 262 MB (rest-list-customers-by-name): missed |');
  });
});

describe('the data-growth bench`s shape', () => {
  it('scales every table with the customers, the defaults giving the issue`s figures at 1,000,000', () => {
    expect(growthShapeFor(1_000_000)).toEqual({
      entries: 10_000_000,
      busyEntries: 1_000_000,
      events: 10_000_000,
      auditEvents: 10_000_000,
      idempotencyKeys: 1_000_000,
    });
    expect(growthShapeFor(100, parseGrowthScale('entries=4,keys=0'))).toMatchObject({
      entries: 400,
      busyEntries: 100,
      idempotencyKeys: 0,
    });
    expect(() => parseGrowthScale('rows=3')).toThrow(/growth scale/);
  });
});

describe('the data-growth bench`s bulk seed at a tiny size', () => {
  let db: TestDatabase;
  const environment = 'sandbox';

  beforeAll(async () => {
    db = await createTestDatabase();
    // Customers and accounts as the bench seeds them, the accounts empty (balance 0, no entries), in two currencies.
    await db.pool.query(
      `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id, date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
       SELECT gen_random_uuid(), $1, sha256(convert_to('c' || i, 'UTF8')), '\\x00', '\\x00', 'k', '1980-01-01', 'Ann', 'Ann', '', 'Doe', ARRAY['a@example.com'], '[]'::jsonb, '[]'::jsonb FROM generate_series(1, 20) AS i`,
      [environment],
    );
    await db.pool.query(
      `INSERT INTO accounts (id, environment, type, name, currency) SELECT gen_random_uuid(), $1, 'CHECKING', 'Acct', CASE WHEN i % 4 = 0 THEN 'EUR' ELSE 'USD' END
       FROM generate_series(1, 30) AS i`,
      [environment],
    );
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM customers ORDER BY id LIMIT 1');
    await db.pool.query(
      `INSERT INTO account_customers (account_id, customer_id, environment, position) SELECT a.id, $2, $1, 0 FROM accounts a`,
      [environment, rows[0]!.id],
    );
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('writes the shape asked, a sound ledger whose balance_after agrees with a recomputation, and numbered events', async () => {
    const shape = growthShapeFor(20, parseGrowthScale('entries=20,busy=3,events=5,audit=4,keys=2'));
    const { rows: owner } = await db.pool.query<{ id: string }>('SELECT id FROM customers LIMIT 1');
    const seeded = await seedGrowth(db.pool, { environment, shape, ownerCustomerId: owner[0]!.id });

    expect(await ledgerViolations(db.pool)).toEqual([]);
    const count = async (table: string) =>
      Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    expect(await count('ledger_entries')).toBe(shape.entries);
    expect(
      Number(
        (
          await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries WHERE account_id = $1', [
            seeded.busyAccountId,
          ])
        ).rows[0]!.n,
      ),
    ).toBe(shape.busyEntries);
    expect(await count('events')).toBe(shape.events);
    expect(await count('audit_events')).toBe(shape.auditEvents);
    expect(await count('idempotency_keys')).toBe(shape.idempotencyKeys);

    // Every entry's balance_after is its account's running balance in posting order (settlement accounts included).
    const { rows: disagreeing } = await db.pool.query(
      `SELECT e.id FROM (
         SELECT e.id, e.balance_after, sum(CASE e.type WHEN 'CREDIT' THEN e.posted_amount ELSE -e.posted_amount END)
                  OVER (PARTITION BY e.account_id ORDER BY e.posted_at, e.posting_seq) AS running
         FROM ledger_entries e) e
       WHERE e.balance_after IS DISTINCT FROM e.running`,
    );
    expect(disagreeing).toEqual([]);
    // Entry counts agree with the entries.
    const { rows: miscounted } = await db.pool.query(
      `SELECT a.id FROM accounts a LEFT JOIN (SELECT account_id, count(*) AS n FROM ledger_entries GROUP BY account_id) c ON c.account_id = a.id
       WHERE a.entry_count <> coalesce(c.n, 0)`,
    );
    expect(miscounted).toEqual([]);
    // The events are numbered 1…n by one round, as the sequencer would have numbered them.
    const { rows: rounds } = await db.pool.query<{ first_sequence: string; last_sequence: string }>(
      'SELECT first_sequence, last_sequence FROM event_rounds',
    );
    expect(rounds).toEqual([{ first_sequence: '1', last_sequence: String(shape.events) }]);
    // The secondary indexes are back, as the migrations define them.
    const { rows: indexes } = await db.pool.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'ledger_entries' AND indexname = 'ledger_entries_account_posted_idx'",
    );
    expect(indexes).toHaveLength(1);
  });
});
