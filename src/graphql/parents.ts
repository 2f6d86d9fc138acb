import type { Account } from '../features/accounts/index.js';
import type { Customer } from '../features/customers/index.js';

/**
 * What the fields of a Customer or an Account resolve from (codegen's mappers, codegen.ts): always the domain
 * record, whole. When a walk along the links read the records below it in the same statement (loaders.ts),
 * `below` hands them out; without it, `Customer.accounts` and `Account.customers` ask their loader.
 */
export interface CustomerParent extends Customer {
  readonly below?: Below;
}

export interface AccountParent extends Account {
  readonly below?: Below;
}

/** The records a walk read one link further down, in the order of the parent's id list, ready to be parents themselves. */
export interface Below {
  accountsOf(customer: Customer): AccountParent[];
  customersOf(account: Account): CustomerParent[];
}
