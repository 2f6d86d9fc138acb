import type { Account, AccountLinks } from '../accounts/index.js';
import type { Customer, CustomerLinks } from '../customers/index.js';

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
 * The same records, only their ids and links (see LinkReadModel.findLinkedIds): what a selection of nothing but
 * ids and nested lists needs, without a personal column and at a fraction of the work.
 */
export interface LinkedIds {
  customers: CustomerLinks[];
  accounts: AccountLinks[];
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
  /** The same walk, answering each record's id and links alone. */
  findLinkedIds(environment: string, roots: LinkRoots, depth: number): Promise<LinkedIds>;
  /** The environment's link bounds, one row by primary key. */
  findBounds(environment: string): Promise<LinkBounds>;
}
