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

/** The same walk, ids and links only (see LinkReadModel.findLinkedIds). */
export interface LinkedIds {
  customers: CustomerLinks[];
  accounts: AccountLinks[];
}

/** Reads across the customer–account links (GraphQL's nested reads). */
export interface LinkReadModel {
  /**
   * The customers and accounts named in `roots` and every record linked to them within `depth` links
   * (customer → account is one link, account → customer the next), in one round trip; absent ids are skipped.
   */
  findLinkedRecords(environment: string, roots: LinkRoots, depth: number): Promise<LinkedRecords>;
  /** As findLinkedRecords, reading only each record's id and links: no personal data, far less to read. */
  findLinkedIds(environment: string, roots: LinkRoots, depth: number): Promise<LinkedIds>;
}
