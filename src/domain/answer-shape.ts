import { isAuthorized } from './authorization.js';
import type { AccessScope, Caller } from './caller.js';
import { insufficientScope } from './errors.js';

/**
 * How much of a record an answer may show: the one rule, for every surface (REST's answers, GraphQL's fields).
 * An operation needs exactly the one scope it declares (a write never needs a read scope), but no answer shows
 * more than its reader could read directly: a customer's fields need `customers:read`, an account's
 * `accounts:read`. Without it, a write answers an acknowledgment: the record's identity (its id, and its
 * version, which the caller needs for conditional writes), never its fields. The domain services return the
 * record as a fact; the surfaces ask `answerShape` how to present it.
 */
export type RecordKind = 'customer' | 'account' | 'verification';

/** The scope that reads each kind of record. */
export const READ_SCOPE_OF: Readonly<Record<RecordKind, AccessScope>> = {
  customer: 'customers:read',
  account: 'accounts:read',
  // A customer's verification (docs/adr/0101): its own read scope, not the customer's.
  verification: 'verification:read',
};

/** `full`: the whole record, as a read answers it; `acknowledgment`: its id (and version) only. */
export type AnswerShape = 'full' | 'acknowledgment';

/** How an answer naming a record of `kind` is shaped for this caller. */
export const answerShape = (caller: Caller, kind: RecordKind): AnswerShape =>
  isAuthorized(caller, READ_SCOPE_OF[kind]) ? 'full' : 'acknowledgment';

/**
 * The same rule for one field of a record beyond its identity (GraphQL's `Account.balance`, `Customer.lastName`, …):
 * FORBIDDEN naming the read scope, as authorize() answers a read. A cheap check: it runs for every field of
 * every record answered.
 */
export function requireReadable(caller: Caller, kind: RecordKind): void {
  if (!isAuthorized(caller, READ_SCOPE_OF[kind])) throw insufficientScope(READ_SCOPE_OF[kind]);
}
