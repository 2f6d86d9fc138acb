import { AsyncLocalStorage } from 'node:async_hooks';
import { Counter, type Registry } from 'prom-client';
import { isDomainError } from '../../domain/errors.js';
import type { Stores } from '../../features/ports.js';
import type { Logger } from '../../logging/logger.js';
import { isDatabaseUnavailable } from '../sql/errors.js';
import type { PrismaClient } from '../connection/prisma-client.js';
import { queryRows, statement } from '../sql/sql.js';
import {
  formatConsistencyToken,
  type Lsn,
  lsnFromText,
  parseConsistencyToken,
  UNKNOWN_POSITION,
} from './consistency-token.js';
import type { ReplicaMonitor } from './replica-monitor.js';

/**
 * Read only after the write returned, i.e. after its commit: the insert position is then past the commit
 * record, whatever synchronous_commit says (docs/adr/0040-read-replicas.md: why neither a position read
 * inside the write's own statement nor pg_current_wal_lsn() would do).
 */
const COMMIT_POSITION = statement('replica_commit_position', 'SELECT pg_current_wal_insert_lsn()::text AS position');

/**
 * Whether a replica's answer lacks something asked for by id. The replica may only say "not yet", never
 * "no": a record created a moment ago (its id learned from a webhook, another client, a list read on the
 * primary) must not be answered 404 because the replica has not replayed it, so such an answer is asked
 * again of the primary. Lists have no such test: a list from a moment ago is a correct, lagging list.
 */
type Absence = (result: unknown, args: readonly unknown[]) => boolean;
const LIST: Absence = () => false;
const NULL: Absence = (result) => result === null;
/** `(environment, ids)`: fewer records than distinct ids. */
const FEWER: Absence = (result, args) => (result as unknown[]).length < new Set(args[1] as string[]).size;
/** `(environment, ids)` answered as a map by id: fewer entries than distinct ids. */
const FEWER_IN_MAP: Absence = (result, args) =>
  (result as Map<string, unknown>).size < new Set(args[1] as string[]).size;
/** Records of one id (a transfer's sides): none read. */
const NONE: Absence = (result) => (result as unknown[]).length === 0;
/** A link walk: a root id missing from the records read. */
const ROOT_MISSING: Absence = (result, args) => {
  const roots = args[1] as { customerIds: readonly string[]; accountIds: readonly string[] };
  const found = result as { customers: { customerId: string }[]; accounts: { accountId: string }[] };
  const customers = new Set(found.customers.map((customer) => customer.customerId));
  const accounts = new Set(found.accounts.map((account) => account.accountId));
  return (
    roots.customerIds.some((id) => !customers.has(id.toLowerCase())) ||
    roots.accountIds.some((id) => !accounts.has(id.toLowerCase()))
  );
};

/**
 * The store methods whose reads tolerate lag: a replica may answer them in a request that only reads (a
 * REST GET, a GraphQL query), each with its absence test. Every other method runs on the primary; those not
 * in UNTRACKED_PRIMARY_CALLS count as writes, whose commit position becomes the request's consistency token.
 * A method added to a store is therefore a write on the primary until it is listed here: the safe side.
 */
export const LAG_TOLERANT_READS: { readonly [S in keyof Stores]: { readonly [M in keyof Stores[S]]?: Absence } } = {
  customers: { findById: NULL, findByIds: FEWER, list: LIST, search: LIST },
  // Writes: on the primary.
  businesses: {},
  // A profile is written with its customer: one the replica lacks is asked of the primary (a map by id).
  businessProfiles: { profilesByIds: FEWER_IN_MAP },
  // A business's owners are read on the primary: the list decides what an addition may still add.
  beneficialOwners: {},
  // A verification is read on the primary: it decides what a check or a decision may do next.
  verification: {},
  // The gates read statuses on the primary: they decide whether a write may happen.
  verificationHttp: {},
  // Documents are read on the primary: a review follows an upload at once, and a content read writes its audit row.
  verificationDocuments: {},
  accounts: { findById: NULL, findByIds: FEWER, list: LIST, search: LIST },
  // Account numbers are read on the primary: every full read and look-up writes its audit row (docs/adr/0107).
  accountNumbers: {},
  links: { findLinkedRecords: ROOT_MISSING, findLinkedIds: ROOT_MISSING },
  ledger: { findTransactions: FEWER, findTransfer: NONE, listTransactions: LIST },
  // A statement and the export read on the primary: a statement of an ended period gives the same bytes on
  // every request, which a lagging replica could break.
  history: { balanceAsOf: NULL, balancesBefore: LIST },
  events: { list: LIST, recent: LIST, recentOfMany: LIST, find: NULL },
  webhooks: { find: NULL, listAttempts: NULL },
  audit: { list: LIST },
  // A record or a cursor the replica lacks yet (a note's list answers outcomes, not rows): asked of the primary.
  notes: { list: (result) => (result as { outcome: string }).outcome !== 'listed', newestOfMany: LIST },
  // Products are read on the primary: a rate change is read back at once, and the catalogue is small (docs/adr/0112).
  products: {},
  // A list of what happened: lagging is correct; a customer the replica lacks yet (null) is asked of the primary.
  timeline: { read: NULL },
  // An idempotency key's record is read to replay a write: it must be the committed one, on the primary.
  idempotency: {},
  // An environment's time is read on the primary: an advance, then a read, must see the advance (docs/adr/0102).
  clock: {},
  endOfDay: {},
  // Writes only (each an interactive transaction on the primary).
  lifecycle: {},
  // The escheatment list is a compliance report: read on the primary, where the end of day writes (docs/adr/0109).
  dormancy: {},
  // An account's interest is read on the primary, where the end of day writes its accruals and postings (docs/adr/0113).
  interest: {},
  // An account's fee assessments too, where the end of day's maintenance-fee step writes them (docs/adr/0115).
  fees: {},
  // A tax form is read on the primary: its year's last postings are the end of day's writes (docs/adr/0116).
  taxForms: {},
};

/**
 * Primary calls that are no client's write, so they need no consistency token: the replay read of an
 * idempotency key, and housekeeping no client reads back (expired keys, expired holds' look-up, which the
 * background job follows with real writes).
 */
const UNTRACKED_PRIMARY_CALLS: { readonly [S in keyof Stores]?: readonly (keyof Stores[S] & string)[] } = {
  idempotency: ['find', 'purgeExpired'],
  // A replayed note's read (the note its key's first request wrote).
  notes: ['findById'],
  // A PUT's look-up of the customer's type (only when its body names a field a person's update cannot take).
  customers: ['typeOf'],
  ledger: ['expiredHolds', 'expiredHoldsOf'],
  // The gates' reads before a write (docs/adr/0104): on the primary, no write of their own.
  verificationHttp: ['unverifiedAmong', 'unverifiedHoldersOf'],
  // The environment's time (a read of environment_clocks, on the primary); the end of day's record and listing.
  clock: ['now'],
  endOfDay: ['list', 'progress'],
  // The escheatment list: a read on the primary, no write of its own.
  dormancy: ['escheatment'],
  // The cost's link bounds must be the primary's, where the links' trigger raises them: a replica's could be lower.
  links: ['findBounds'],
  history: ['statement', 'exportEntries'],
  // A tax form's reads: on the primary, no write of their own (its audit row is one).
  taxForms: ['recipient', 'interestByAccount'],
};

type Target = 'replica' | 'primary';

/** Why a request's lag-tolerant reads went where they went (the `reason` label of db_replica_reads_total). */
type Reason =
  | 'no_token'
  | 'token_replayed'
  | 'token_wait_timeout'
  | 'token_unreadable'
  | 'replica_down'
  | 'replica_lagging'
  | 'replica_failed'
  | 'absent_on_replica';

interface ReadScope {
  /** The request only reads: its lag-tolerant reads may go to the replica. */
  lagTolerant: boolean;
  presentedToken: string | undefined;
  /** Decided at the request's first lag-tolerant read, then kept: one request reads from one server. */
  target?: Promise<Target>;
  /** The highest commit position of the request's writes. */
  written?: Lsn;
}

export interface ReadRouterOptions {
  primary: PrismaClient;
  monitor: ReplicaMonitor;
  maxWaitMs: number;
  logger: Logger;
  registry: Registry;
}

/**
 * Routes each request's reads (docs/adr/0040-read-replicas.md). A request runs in a read scope opened by
 * the HTTP layer (src/http/read-consistency.ts); outside one (background jobs, the CLI) everything runs on the
 * primary. Implements the HTTP surfaces' ReadConsistency port.
 */
export class ReadRouter {
  private readonly scopes = new AsyncLocalStorage<ReadScope>();
  private readonly reads: Counter<'target' | 'reason'>;

  constructor(private readonly options: ReadRouterOptions) {
    this.reads = new Counter({
      name: 'db_replica_reads_total',
      help: 'Requests whose lag-tolerant reads were served by the replica or the primary, by target and reason.',
      labelNames: ['target', 'reason'],
      registers: [options.registry],
    });
  }

  run<T>(request: { lagTolerant: boolean; presentedToken: string | undefined }, handle: () => T): T {
    return this.scopes.run({ lagTolerant: request.lagTolerant, presentedToken: request.presentedToken }, handle);
  }

  allowLagTolerantReads(allowed: boolean): void {
    const scope = this.scopes.getStore();
    if (scope) scope.lagTolerant = allowed;
  }

  currentToken(): string | undefined {
    const written = this.scopes.getStore()?.written;
    return written === undefined ? undefined : formatConsistencyToken(written);
  }

  /** The stores, with lag-tolerant reads routed between the two sets and every other call on the primary's. */
  route(primary: Stores, replica: Stores): Stores {
    const routed: Partial<Record<keyof Stores, object>> = {};
    for (const name of Object.keys(primary) as (keyof Stores)[]) {
      routed[name] = this.routeStore(
        primary[name],
        replica[name],
        LAG_TOLERANT_READS[name] as { readonly [method: string]: Absence },
        UNTRACKED_PRIMARY_CALLS[name] ?? [],
      );
    }
    return routed as Stores;
  }

  private routeStore<T extends object>(
    primary: T,
    replica: T,
    reads: { readonly [method: string]: Absence | undefined },
    untracked: readonly string[],
  ): T {
    const wrapped = new Map<PropertyKey, unknown>();
    return new Proxy(primary, {
      get: (target, property, receiver) => {
        const known = wrapped.get(property);
        if (known !== undefined) return known;
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const onPrimary = (args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        let method: (...args: unknown[]) => Promise<unknown>;
        const absence = typeof property === 'string' ? reads[property] : undefined;
        if (absence !== undefined) {
          const replicaMethod = Reflect.get(replica, property) as (...a: unknown[]) => Promise<unknown>;
          method = (...args) =>
            this.read(
              () => replicaMethod.apply(replica, args),
              () => onPrimary(args),
              (result) => absence(result, args),
            );
        } else if (typeof property === 'string' && untracked.includes(property)) {
          method = (...args) => onPrimary(args);
        } else {
          method = (...args) => this.write(() => onPrimary(args));
        }
        wrapped.set(property, method);
        return method;
      },
    });
  }

  private async read<T>(
    onReplica: () => Promise<T>,
    onPrimary: () => Promise<T>,
    isIncomplete: (result: T) => boolean,
  ): Promise<T> {
    const scope = this.scopes.getStore();
    if (!scope?.lagTolerant) return onPrimary();
    if ((await (scope.target ??= this.choose(scope))) === 'primary') return onPrimary();
    try {
      const result = await onReplica();
      if (!isIncomplete(result)) return result;
      // Not replayed yet, or really absent: only the primary can say which. The rest of the request reads
      // there too, so it never mixes the new record with a replica's older view of its neighbours.
      scope.target = Promise.resolve('primary');
      this.reads.inc({ target: 'primary', reason: 'absent_on_replica' });
      return onPrimary();
    } catch (error) {
      // A domain error is an answer (the same on either server); anything else is the replica's failure.
      if (isDomainError(error) && error.kind !== 'unavailable') throw error;
      if (isUnavailable(error)) this.options.monitor.readFailed((error as Error).message);
      scope.target = Promise.resolve('primary');
      this.reads.inc({ target: 'primary', reason: 'replica_failed' });
      return onPrimary();
    }
  }

  private async choose(scope: ReadScope): Promise<Target> {
    const decide = (target: Target, reason: Reason): Target => {
      this.reads.inc({ target, reason });
      return target;
    };
    const usability = this.options.monitor.usability();
    if (usability === 'down') return decide('primary', 'replica_down');
    if (usability === 'lagging') return decide('primary', 'replica_lagging');
    if (scope.presentedToken === undefined) return decide('replica', 'no_token');
    const lsn = parseConsistencyToken(scope.presentedToken);
    if (lsn === undefined || lsn === UNKNOWN_POSITION) return decide('primary', 'token_unreadable');
    if (await this.options.monitor.waitForReplay(lsn, this.options.maxWaitMs))
      return decide('replica', 'token_replayed');
    return decide('primary', 'token_wait_timeout');
  }

  private async write<T>(call: () => Promise<T>): Promise<T> {
    const result = await call();
    const scope = this.scopes.getStore();
    if (scope) {
      const position = await this.commitPosition();
      if (scope.written === undefined || position > scope.written) scope.written = position;
    }
    return result;
  }

  /**
   * The primary's insert position, read after the write committed. If it cannot be read the write still
   * succeeded: its token then names no position, and reads presenting it go to the primary.
   */
  private async commitPosition(): Promise<Lsn> {
    try {
      const [row] = await queryRows<{ position: string }>(this.options.primary, COMMIT_POSITION, []);
      return lsnFromText(row!.position);
    } catch (error) {
      this.options.logger.warn(
        { err: { message: (error as Error).message } },
        "could not read a write's commit position: its consistency token sends reads to the primary",
      );
      return UNKNOWN_POSITION;
    }
  }
}

const isUnavailable = (error: unknown) =>
  isDatabaseUnavailable(error) || (isDomainError(error) && error.kind === 'unavailable');
