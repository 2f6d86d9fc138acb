import type { Account, AccountLinks } from '../features/accounts/index.js';
import type { Customer, CustomerLinks } from '../features/customers/index.js';

/**
 * What the fields of a Customer or an Account resolve from (codegen's mappers, codegen.ts): the domain record,
 * whole, or, where the selection below a walk's root asks for nothing but ids and nested lists (loaders.ts), its
 * id and links alone, told apart by `shape`. When a walk along the links read the records below it in the same
 * statement, `below` hands them out; without it, `Customer.accounts` and `Account.customers` ask their loader.
 */
export type CustomerParent = CustomerRecordParent | CustomerIdsParent;
export type AccountParent = AccountRecordParent | AccountIdsParent;

export interface CustomerRecordParent extends Customer {
  readonly shape?: 'records';
  readonly below?: Below;
}

export interface CustomerIdsParent extends CustomerLinks {
  readonly shape: 'ids';
  readonly below?: Below;
}

export interface AccountRecordParent extends Account {
  readonly shape?: 'records';
  readonly below?: Below;
}

export interface AccountIdsParent extends AccountLinks {
  readonly shape: 'ids';
  readonly below?: Below;
}

/** The records a walk read one link further down, in the order of the parent's id list, ready to be parents themselves. */
export interface Below {
  accountsOf(customer: CustomerLinks): AccountParent[];
  customersOf(account: AccountLinks): CustomerParent[];
}

/**
 * The whole record behind a parent, for a field that reads more than ids and links. An ids-only parent is made
 * only for selections without such a field (loaders.ts, selectsOnlyIdsAndLinks), so reaching one here is a bug,
 * reported as an internal error rather than answered with missing data.
 */
export function wholeRecord<P extends { shape?: 'records' | 'ids' }>(parent: P): Exclude<P, { shape: 'ids' }> {
  if (parent.shape === 'ids') throw new Error('an ids-only parent reached a field that reads the whole record');
  return parent as Exclude<P, { shape: 'ids' }>;
}
