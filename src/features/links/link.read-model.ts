import DataLoader from 'dataloader';
import type { Account, AccountLinks } from '../accounts/index.js';
import type { Customer, CustomerLinks } from '../customers/index.js';
import type { LinkBounds, LinkedIds, LinkedRecords, LinkReadModel, LinkRoots } from './ports.js';
import {
  ACCOUNT_FIELDS,
  ACCOUNT_IDS_OF,
  CUSTOMER_COLUMNS,
  type CustomerRow,
  NO_ACCOUNT_FIELDS,
  NO_CUSTOMER_FIELDS,
  toAccount,
  toCustomer,
  walkAccountRow,
} from '../../db/sql/columns.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { idList, queryRows, type Statement, statement } from '../../db/sql/sql.js';

/**
 * The records reached from customer ids $2 and account ids $3 (environment $1) within $4 links:
 * `walk(root, kind, id, depth)`, breadth-first, each record once per root and depth; `reached` lists, per
 * record, the roots it was reached from (so one statement can serve the walks of several requests, see
 * CoalescedWalks). Raw SQL: a recursive walk has no typed-API form, and this is the nested GraphQL read's
 * one statement.
 */
const LINK_WALK = `WITH RECURSIVE walk(root, kind, id, depth) AS (
         SELECT roots.id, roots.kind, roots.id, 0
         FROM (SELECT 'c' AS kind, unnest($2::uuid[]) AS id UNION ALL SELECT 'a', unnest($3::uuid[])) AS roots
       UNION
         SELECT walk.root, step.kind, step.id, walk.depth + 1
         FROM walk CROSS JOIN LATERAL (
             SELECT 'a' AS kind, ac.account_id AS id FROM account_customers ac
             WHERE walk.kind = 'c' AND ac.customer_id = walk.id AND ac.environment = $1
           UNION ALL
             SELECT 'c', ac.customer_id FROM account_customers ac
             WHERE walk.kind = 'a' AND ac.account_id = walk.id AND ac.environment = $1
         ) AS step
         WHERE walk.depth < $4::int
     ), reached AS (
       SELECT kind, id, array_to_string(array_agg(DISTINCT root), ',') AS roots FROM walk GROUP BY kind, id
     )`;

const SQL = {
  /** Every record the walk reached: customers and accounts in one result (NULL-padded), told apart by `kind`. */
  linkedRecords: statement(
    'links_records',
    `${LINK_WALK}
     SELECT 'c' AS kind, r.roots, ${CUSTOMER_COLUMNS}, ${NO_ACCOUNT_FIELDS}
     FROM customers c JOIN reached r ON r.kind = 'c' AND r.id = c.id WHERE c.environment = $1
     UNION ALL
     SELECT 'a', r.roots, a.id, ${NO_CUSTOMER_FIELDS}, ${ACCOUNT_FIELDS}
     FROM accounts a JOIN reached r ON r.kind = 'a' AND r.id = a.id WHERE a.environment = $1`,
  ),
  /**
   * The same walk and records, only their ids and links: nothing personal, no JSON to decode, and a fraction of
   * the work (docs/adr/0092).
   */
  linkedIds: statement(
    'links_ids',
    `${LINK_WALK}
     SELECT 'c' AS kind, r.roots, c.id, ${ACCOUNT_IDS_OF.customer} AS links
     FROM customers c JOIN reached r ON r.kind = 'c' AND r.id = c.id WHERE c.environment = $1
     UNION ALL
     SELECT 'a', r.roots, a.id, ${ACCOUNT_IDS_OF.account}
     FROM accounts a JOIN reached r ON r.kind = 'a' AND r.id = a.id WHERE a.environment = $1`,
  ),
  /** The environment's link bounds (the largest link counts it ever held, kept by the links' trigger): one row or none. */
  bounds: statement(
    'links_bounds',
    `SELECT accounts_per_customer AS "accountsPerCustomer", customers_per_account AS "customersPerAccount" FROM link_bounds WHERE environment = $1`,
  ),
};

type WalkRow = { kind: 'c' | 'a'; roots: string; id: string };
type IdsRow = WalkRow & { links: string };

/**
 * The customer–account link walk on PostgreSQL, through Prisma Client. Walks asked for by concurrent
 * requests (same environment, depth and columns) are coalesced into one statement, as look-ups by id are
 * (src/db/sql/coalesced-reads.ts): each caller gets exactly the records reached from its own roots.
 */
export class PrismaLinkReadModel implements LinkReadModel {
  private readonly records: CoalescedWalks<Customer, Account>;
  private readonly ids: CoalescedWalks<CustomerLinks, AccountLinks>;

  constructor(private readonly prisma: PrismaClient) {
    this.records = new CoalescedWalks(
      prisma,
      SQL.linkedRecords,
      (row) => toCustomer(row as unknown as CustomerRow),
      (row) => toAccount(walkAccountRow(row as unknown as Parameters<typeof walkAccountRow>[0])),
    );
    this.ids = new CoalescedWalks(
      prisma,
      SQL.linkedIds,
      (row) => ({ customerId: row.id, accountIds: idList((row as IdsRow).links) }),
      (row) => ({ accountId: row.id, customerIds: idList((row as IdsRow).links) }),
    );
  }

  findLinkedRecords(environment: string, roots: LinkRoots, depth: number): Promise<LinkedRecords> {
    return this.records.walk(environment, roots, depth);
  }

  findLinkedIds(environment: string, roots: LinkRoots, depth: number): Promise<LinkedIds> {
    return this.ids.walk(environment, roots, depth);
  }

  async findBounds(environment: string): Promise<LinkBounds> {
    const [row] = await queryRows<LinkBounds>(this.prisma, SQL.bounds, [environment]);
    return row ?? { accountsPerCustomer: 0, customersPerAccount: 0 };
  }
}

interface WalkKey {
  environment: string;
  depth: number;
  roots: LinkRoots;
}

/** One of the two walks, with the roots of concurrent callers gathered into one statement per environment and depth. */
class CoalescedWalks<C, A> {
  private readonly loader: DataLoader<WalkKey, { customers: C[]; accounts: A[] }>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: Statement,
    private readonly toCustomerResult: (row: WalkRow) => C,
    private readonly toAccountResult: (row: WalkRow) => A,
  ) {
    this.loader = new DataLoader<WalkKey, { customers: C[]; accounts: A[] }>((keys) => this.run(keys), {
      cache: false,
      batchScheduleFn: (callback) => setImmediate(callback),
      maxBatchSize: 50,
    });
  }

  walk(environment: string, roots: LinkRoots, depth: number): Promise<{ customers: C[]; accounts: A[] }> {
    return this.loader.load({ environment, depth, roots });
  }

  private async run(keys: readonly WalkKey[]): Promise<({ customers: C[]; accounts: A[] } | Error)[]> {
    const groups = new Map<string, WalkKey[]>();
    for (const key of keys) {
      const group = `${key.environment}\u0000${key.depth}`;
      groups.set(group, [...(groups.get(group) ?? []), key]);
    }
    const results = new Map<WalkKey, { customers: C[]; accounts: A[] } | Error>();
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const { environment, depth } = group[0]!;
        const customerIds = [...new Set(group.flatMap((key) => key.roots.customerIds.map((id) => id.toLowerCase())))];
        const accountIds = [...new Set(group.flatMap((key) => key.roots.accountIds.map((id) => id.toLowerCase())))];
        try {
          const rows = await queryRows<WalkRow>(this.prisma, this.sql, [environment, customerIds, accountIds, depth]);
          const byRoot = indexByRoot(rows);
          for (const key of group) results.set(key, this.reachedFrom(key.roots, byRoot));
        } catch (error) {
          for (const key of group) results.set(key, error instanceof Error ? error : new Error(String(error)));
        }
      }),
    );
    return keys.map((key) => results.get(key)!);
  }

  /** The records reached from these roots, each once, sorted by kind: work in the size of the answer, not of the batch. */
  private reachedFrom(roots: LinkRoots, byRoot: ReadonlyMap<string, WalkRow[]>): { customers: C[]; accounts: A[] } {
    const seen = new Set<WalkRow>();
    const linked: { customers: C[]; accounts: A[] } = { customers: [], accounts: [] };
    for (const root of [...roots.customerIds, ...roots.accountIds]) {
      for (const row of byRoot.get(root.toLowerCase()) ?? []) {
        if (seen.has(row)) continue;
        seen.add(row);
        if (row.kind === 'c') linked.customers.push(this.toCustomerResult(row));
        else linked.accounts.push(this.toAccountResult(row));
      }
    }
    return linked;
  }
}

/** The walk's rows by each root that reached them (a row reached from several roots is listed under each). */
function indexByRoot(rows: readonly WalkRow[]): Map<string, WalkRow[]> {
  const byRoot = new Map<string, WalkRow[]>();
  for (const row of rows) {
    for (const root of idList(row.roots)) {
      const reached = byRoot.get(root);
      if (reached) reached.push(row);
      else byRoot.set(root, [row]);
    }
  }
  return byRoot;
}
