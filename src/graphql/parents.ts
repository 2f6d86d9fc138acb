import type { Account, AccountLinks } from '../features/accounts/index.js';
import type { Customer, CustomerLinks } from '../features/customers/index.js';

/**
 * What the fields of a Customer or an Account resolve from: the domain record, or, when the whole
 * selection below a root field asks for nothing but ids and links (the look-ahead in loaders.ts), the
 * record's id and links alone. Only the id and link fields ever see the second kind.
 */
export type CustomerParent = Customer | CustomerLinks;
export type AccountParent = Account | AccountLinks;

export const isCustomerRecord = (parent: CustomerParent): parent is Customer => 'lastName' in parent;
export const isAccountRecord = (parent: AccountParent): parent is Account => 'name' in parent;
