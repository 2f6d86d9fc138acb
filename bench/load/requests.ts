import { randomInt, randomUUID } from 'node:crypto';
import type { Request } from 'autocannon';
import { customerForSequence, ssnForSequence } from '../lib/ssn-sequence.js';

/** What a load generator sends for each scenario; every request is built per call (fresh ids and bodies). */
export type LoadKind =
  | 'rest-get-customer'
  | 'rest-get-account'
  | 'rest-post-customer'
  | 'rest-put-customer'
  | 'graphql-nested'
  | 'postgraphile-nested'
  | 'mixed'
  | 'rest-mixed'
  | 'rest-transfer-uniform'
  | 'rest-transfer-hot'
  | 'rest-get-account-with-transactions'
  | 'rest-list-customers-by-name'
  | 'rest-search-customer-by-ssn'
  | 'rest-balance-as-of'
  | 'rest-statement';

export interface LoadIds {
  customerIds: string[];
  accountIds: string[];
  nestedCustomerIds: string[];
  /** The ledger's seed (bench/lib/seed.ts, seedLedger); empty unless a ledger scenario runs. */
  transferAccountIds?: string[];
  hotAccountId?: string | null;
  accountsWithTransactions?: string[];
  /** The data-growth seed's busy account (bench/lib/growth-seed.ts), its entries posted evenly over [busyFrom, busyTo). */
  busyAccountId?: string | null;
  busyFrom?: string | null;
  busyTo?: string | null;
}

/**
 * The service's nested query (issue 4's schema): customer → accounts → customers, the many-to-many both ways. One
 * level deeper (each joint holder's accounts) the worst-case estimate, 100 accounts × 20 customers × 100 accounts,
 * is above the default GRAPHQL_MAX_COST: at production settings the service refuses it, as it would any client's.
 */
export const SERVICE_NESTED_QUERY =
  'query Nested($id: ID!) { customer(customerId: $id) { customerId accounts { accountId customers { customerId } } } }';

/**
 * The same data from PostGraphile's generated schema: the many-to-many goes through the link table's
 * connections, ordered as the service orders them (a customer's accounts by link time, an account's
 * customers by position).
 */
export const POSTGRAPHILE_NESTED_QUERY = `query Nested($id: UUID!) {
  customerByRowId(rowId: $id) {
    rowId
    accountCustomersByCustomerIdAndEnvironment(orderBy: [CREATED_AT_ASC, ACCOUNT_ID_ASC]) {
      nodes {
        accountByAccountIdAndEnvironment {
          rowId
          accountCustomersByAccountIdAndEnvironment(orderBy: POSITION_ASC) {
            nodes {
              customerByCustomerIdAndEnvironment {
                rowId
              }
            }
          }
        }
      }
    }
  }
}`;

const pick = (ids: readonly string[]): string => ids[randomInt(ids.length)]!;

/**
 * What a support agent types: the first three letters of a seeded last name (bench/lib/seed.ts), lower case
 * and without the accent ("mul" finds "Müller"), so each matches about a twelfth of all customers: the
 * broadest prefix, the one a page must not cost more for as the table grows.
 */
export const LAST_NAME_PREFIXES = [
  'doe',
  'ngu',
  'gar',
  'smi',
  'oka',
  'kow',
  'her',
  'bro',
  'tan',
  'mul',
  'ros',
  'had',
] as const;

/** A random moment (whole milliseconds, ISO 8601) of the busy account's history. */
export function busyMoment(ids: LoadIds): string {
  const from = Date.parse(ids.busyFrom ?? '');
  const to = Date.parse(ids.busyTo ?? '');
  return new Date(from + randomInt(Math.max(1, Math.min(to - from, 2 ** 47)))).toISOString();
}

/** A random calendar month (UTC) wholly inside the busy account's history, as [from, to) in ISO 8601. */
export function busyMonth(ids: LoadIds): [string, string] {
  const from = new Date(ids.busyFrom ?? '');
  const to = new Date(ids.busyTo ?? '');
  const firstMonth =
    from.getUTCFullYear() * 12 +
    from.getUTCMonth() +
    (from.getUTCDate() === 1 && from.getUTCHours() === 0 && from.getUTCMinutes() === 0 ? 0 : 1);
  const months = Math.max(1, to.getUTCFullYear() * 12 + to.getUTCMonth() - firstMonth);
  const month = firstMonth + randomInt(months);
  const start = new Date(Date.UTC(Math.floor(month / 12), month % 12, 1));
  const end = new Date(Date.UTC(Math.floor((month + 1) / 12), (month + 1) % 12, 1));
  return [start.toISOString(), end.toISOString()];
}

export class RequestFactory {
  private nextSsnSequence: number;
  private writes = 0;

  constructor(
    private readonly environment: string,
    private readonly ids: LoadIds,
    ssnSequenceStart: number,
  ) {
    this.nextSsnSequence = ssnSequenceStart;
  }

  /** SSN sequence numbers handed out so far (the orchestrator starts the next run above them). */
  get ssnSequencesUsed(): number {
    return this.nextSsnSequence;
  }

  build(kind: LoadKind): Request {
    switch (kind) {
      case 'rest-get-customer':
        return { method: 'GET', path: `/${this.environment}/customer/${pick(this.ids.customerIds)}` };
      case 'rest-get-account':
        return { method: 'GET', path: `/${this.environment}/account/${pick(this.ids.accountIds)}` };
      case 'rest-post-customer':
        return this.createCustomer();
      case 'rest-put-customer':
        return this.updateCustomer();
      case 'graphql-nested':
        return this.graphql(SERVICE_NESTED_QUERY);
      case 'postgraphile-nested':
        return this.graphql(POSTGRAPHILE_NESTED_QUERY);
      case 'mixed':
        return this.build(mixedKind());
      case 'rest-mixed':
        return this.build(restMixedKind());
      case 'rest-transfer-uniform':
        return this.transfer(false);
      case 'rest-transfer-hot':
        return this.transfer(true);
      case 'rest-get-account-with-transactions':
        return { method: 'GET', path: `/${this.environment}/account/${pick(this.ids.accountsWithTransactions ?? [])}` };
      case 'rest-list-customers-by-name':
        return {
          method: 'GET',
          path: `/${this.environment}/customer?lastName=${encodeURIComponent(pick(LAST_NAME_PREFIXES))}&limit=20`,
        };
      case 'rest-balance-as-of':
        return {
          method: 'GET',
          path: `/${this.environment}/account/${this.ids.busyAccountId}/balance?asOf=${busyMoment(this.ids)}`,
        };
      case 'rest-statement': {
        const [from, to] = busyMonth(this.ids);
        return {
          method: 'GET',
          path: `/${this.environment}/account/${this.ids.busyAccountId}/statement?from=${from}&to=${to}`,
          headers: { accept: 'application/json' },
        };
      }
      case 'rest-search-customer-by-ssn':
        // The seed gave customer n the SSN of sequence n: every search finds exactly one.
        return {
          method: 'POST',
          path: `/${this.environment}/customer/search`,
          body: JSON.stringify({ socialSecurityNumber: ssnForSequence(randomInt(this.ids.customerIds.length)) }),
        };
    }
  }

  private createCustomer(): Request {
    return {
      method: 'POST',
      path: `/${this.environment}/customer`,
      headers: { 'idempotency-key': randomUUID() },
      body: JSON.stringify(customerForSequence(this.nextSsnSequence++)),
    };
  }

  /**
   * A transfer of 0.01–10.00 USD between two funded accounts, with an Idempotency-Key as a real client sends
   * it. Uniform: a random pair. Hot: from a random account into the one hot account.
   */
  transfer(hot: boolean): Request {
    const accounts = this.ids.transferAccountIds ?? [];
    const fromAccountId = pick(accounts);
    let toAccountId = hot ? this.ids.hotAccountId! : pick(accounts);
    while (toAccountId === fromAccountId) toAccountId = pick(accounts);
    return {
      method: 'POST',
      path: `/${this.environment}/transfer`,
      headers: { 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        fromAccountId,
        toAccountId,
        amount: randomInt(1, 1001) / 100,
        description: 'bench transfer',
      }),
    };
  }

  private updateCustomer(): Request {
    const n = this.writes++;
    return {
      method: 'PUT',
      path: `/${this.environment}/customer/${pick(this.ids.customerIds)}`,
      body: JSON.stringify({ preferredName: `Bench ${n % 1000}`, emails: [`bench.${n}@example.com`] }),
    };
  }

  private graphql(query: string): Request {
    return {
      method: 'POST',
      path: `/${this.environment}/graphql`,
      body: JSON.stringify({ query, variables: { id: pick(this.ids.nestedCustomerIds) } }),
    };
  }
}

/** 80 % reads (REST customer 35, REST account 20, GraphQL nested 25), 20 % writes (create 10, update 10). */
function mixedKind(): Exclude<LoadKind, 'mixed' | 'postgraphile-nested'> {
  const roll = randomInt(100);
  if (roll < 35) return 'rest-get-customer';
  if (roll < 55) return 'rest-get-account';
  if (roll < 80) return 'graphql-nested';
  if (roll < 90) return 'rest-post-customer';
  return 'rest-put-customer';
}

/**
 * The mixed REST workload (bench/lib/mixed-workload.ts), every request one the floor answers too: 70 % reads (GET
 * customer 30, GET account 25, list by last name 10, SSN search 5), 30 % writes (create 10, update 10, transfer 10).
 */
export const REST_MIX: readonly (readonly [Exclude<LoadKind, 'mixed' | 'rest-mixed'>, number])[] = [
  ['rest-get-customer', 30],
  ['rest-get-account', 25],
  ['rest-list-customers-by-name', 10],
  ['rest-search-customer-by-ssn', 5],
  ['rest-post-customer', 10],
  ['rest-put-customer', 10],
  ['rest-transfer-uniform', 10],
];

function restMixedKind(): Exclude<LoadKind, 'mixed' | 'rest-mixed'> {
  let roll = randomInt(100);
  for (const [kind, share] of REST_MIX) {
    if (roll < share) return kind;
    roll -= share;
  }
  throw new Error('the REST mix does not add up to 100');
}
