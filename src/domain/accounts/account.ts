/** An account as it leaves the domain. */
export interface Account {
  accountId: string;
  type: string;
  name: string;
  /** Exact decimal as a string (e.g. "0", "-12.5"); each surface decides how to render it. */
  amount: string;
  currency: string;
  /** Ids of the associated customers, in the order they were given at creation. */
  customerIds: string[];
  /** No transaction endpoints exist yet (spec: "not shown"), so this is always empty. */
  transactions: never[];
  flags: string[];
}

/** An account's identity and links only; every Account is one. */
export type AccountLinks = Pick<Account, 'accountId' | 'customerIds'>;

/** A new account: no money, no transactions, no flags yet. */
export const newAccount = (fields: Pick<Account, 'accountId' | 'type' | 'name' | 'currency' | 'customerIds'>): Account => ({
  ...fields,
  amount: '0',
  transactions: [],
  flags: [],
});
