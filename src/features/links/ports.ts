import type { Account } from '../accounts/index.js';
import type { Customer } from '../customers/index.js';

/** What the link service needs from storage (src/features/links/link.read-model.ts implements it). */

/** Where a walk along the links starts. */
export interface LinkRoots {
  customerIds: readonly string[];
  accountIds: readonly string[];
}

/** Customers and accounts read together (see LinkReadModel.findLinkedRecords). */
export interface LinkedRecords {
  customers: Customer[];
  accounts: Account[];
}

/**
 * The most links any customer or account of an environment has held (high-water marks kept by the links'
 * trigger, never lowered; docs/adr/0089): what GraphQL's cost multiplies `Customer.accounts` and
 * `Account.customers` by. 0 where the environment never had a link.
 */
export interface LinkBounds {
  accountsPerCustomer: number;
  customersPerAccount: number;
}

/** Reads across the customer–account links (GraphQL's nested reads). */
export interface LinkReadModel {
  /**
   * The customers and accounts named in `roots` and every record linked to them within `depth` links
   * (customer → account is one link, account → customer the next), in one round trip; absent ids are skipped.
   */
  findLinkedRecords(environment: string, roots: LinkRoots, depth: number): Promise<LinkedRecords>;
  /** The environment's link bounds, one row by primary key. */
  findBounds(environment: string): Promise<LinkBounds>;
}
