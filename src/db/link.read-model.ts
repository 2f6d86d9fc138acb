import type { Account, AccountLinks } from '../domain/accounts/account.js';
import type { Customer, CustomerLinks } from '../domain/customers/customer.js';
import type { LinkedIds, LinkedRecords, LinkReadModel, LinkRoots } from '../domain/ports.js';
import {
  ACCOUNT_FIELDS,
  ACCOUNT_IDS_OF,
  type AccountRow,
  CUSTOMER_COLUMNS,
  type CustomerRow,
  NO_ACCOUNT_FIELDS,
  NO_CUSTOMER_FIELDS,
  toAccount,
  toCustomer,
} from './columns.js';
import type { PrismaClient } from './prisma-client.js';
import { idList, queryRows, type Statement, statement } from './sql.js';

/**
 * The records reached from customer ids $2 and account ids $3 (environment $1) within $4 links:
 * `walk(kind, id, depth)`, breadth-first, each record once per depth. Raw SQL: a recursive walk has no
 * typed-API form, and this is the nested GraphQL read's one statement.
 */
const LINK_WALK = `WITH RECURSIVE walk(kind, id, depth) AS (
         SELECT roots.kind, roots.id, 0
         FROM (SELECT 'c' AS kind, unnest($2::uuid[]) AS id UNION ALL SELECT 'a', unnest($3::uuid[])) AS roots
       UNION
         SELECT step.kind, step.id, walk.depth + 1
         FROM walk CROSS JOIN LATERAL (
             SELECT 'a' AS kind, ac.account_id AS id FROM account_customers ac
             WHERE walk.kind = 'c' AND ac.customer_id = walk.id AND ac.environment = $1
           UNION ALL
             SELECT 'c', ac.customer_id FROM account_customers ac
             WHERE walk.kind = 'a' AND ac.account_id = walk.id AND ac.environment = $1
         ) AS step
         WHERE walk.depth < $4::int
     )`;

const SQL = {
  /** Every record the walk reached: customers and accounts in one result (NULL-padded), told apart by `kind`. */
  linkedRecords: statement(
    'links_records',
    `${LINK_WALK}
     SELECT 'c' AS kind, ${CUSTOMER_COLUMNS}, ${NO_ACCOUNT_FIELDS}
     FROM customers c WHERE c.environment = $1 AND c.id IN (SELECT id FROM walk WHERE kind = 'c')
     UNION ALL
     SELECT 'a', a.id, ${NO_CUSTOMER_FIELDS}, ${ACCOUNT_FIELDS}
     FROM accounts a WHERE a.environment = $1 AND a.id IN (SELECT id FROM walk WHERE kind = 'a')`,
  ),
  /** The same walk and records, only their ids and links: nothing personal, and a fraction of the work. */
  linkedIds: statement(
    'links_ids',
    `${LINK_WALK}
     SELECT 'c' AS kind, c.id, ${ACCOUNT_IDS_OF.customer} AS links
     FROM customers c WHERE c.environment = $1 AND c.id IN (SELECT id FROM walk WHERE kind = 'c')
     UNION ALL
     SELECT 'a', a.id, ${ACCOUNT_IDS_OF.account}
     FROM accounts a WHERE a.environment = $1 AND a.id IN (SELECT id FROM walk WHERE kind = 'a')`,
  ),
};

/** The customer–account link walk on PostgreSQL, through Prisma Client. */
export class PrismaLinkReadModel implements LinkReadModel {
  constructor(private readonly prisma: PrismaClient) {}

  findLinkedRecords(environment: string, roots: LinkRoots, depth: number): Promise<LinkedRecords> {
    return this.walk<CustomerRow & AccountRow, Customer, Account>(SQL.linkedRecords, environment, roots, depth, toCustomer, toAccount);
  }

  findLinkedIds(environment: string, roots: LinkRoots, depth: number): Promise<LinkedIds> {
    return this.walk<{ id: string; links: string }, CustomerLinks, AccountLinks>(
      SQL.linkedIds,
      environment,
      roots,
      depth,
      (row) => ({ customerId: row.id, accountIds: idList(row.links) }),
      (row) => ({ accountId: row.id, customerIds: idList(row.links) }),
    );
  }

  /** Runs one of the two walks (their rows say `kind` 'c' or 'a') and sorts what it found by kind. */
  private async walk<R, C, A>(
    sql: Statement,
    environment: string,
    roots: LinkRoots,
    depth: number,
    toCustomerResult: (row: R) => C,
    toAccountResult: (row: R) => A,
  ): Promise<{ customers: C[]; accounts: A[] }> {
    const rows = await queryRows<{ kind: 'c' | 'a' } & R>(this.prisma, sql, [environment, roots.customerIds, roots.accountIds, depth]);
    const linked: { customers: C[]; accounts: A[] } = { customers: [], accounts: [] };
    for (const row of rows) {
      if (row.kind === 'c') linked.customers.push(toCustomerResult(row));
      else linked.accounts.push(toAccountResult(row));
    }
    return linked;
  }
}
