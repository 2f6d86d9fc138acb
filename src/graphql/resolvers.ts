import { isAuthorized } from '../domain/authorization.js';
import { accountResolvers } from '../features/accounts/index.js';
import { auditResolvers } from '../features/audit/index.js';
import { clockResolvers } from '../features/clock/index.js';
import { beneficialOwnerResolvers } from '../features/businesses/index.js';
import { verificationResolvers } from '../features/verification/index.js';
import { customerResolvers } from '../features/customers/index.js';
import { eventResolvers, subscriptionResolvers } from '../features/events/index.js';
import { historyResolvers } from '../features/history/index.js';
import { interestResolvers } from '../features/interest/index.js';
import { feeResolvers } from '../features/fees/index.js';
import { taxFormResolvers } from '../features/tax-forms/index.js';
import { ledgerResolvers } from '../features/ledger/index.js';
import { noteResolvers } from '../features/notes/index.js';
import { productResolvers } from '../features/products/index.js';
import { timelineResolvers } from '../features/timeline/index.js';
import { accountNumberResolvers } from '../features/account-numbers/index.js';
import { lifecycleResolvers } from '../features/lifecycle/index.js';
import { dormancyResolvers } from '../features/dormancy/index.js';
import { webhookResolvers } from '../features/webhooks/index.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { byId } from './loaders.js';
import type { AccountParent, CustomerParent } from './parents.js';
import { scalarResolvers } from './scalars.js';
import { viewerResolvers } from './viewer.js';

/**
 * The resolver maps of schema.graphql, merged by buildGraphqlSchema (schema.ts): one per feature, in its
 * folder (src/features/<feature>/*.resolvers.ts: a type's fields may come from several features, e.g.
 * `Account.transactions` from the ledger, `Account.balance` from the history), and what no one feature
 * owns: the `Node` interface over customers and accounts, the scalars (scalars.ts) and the viewer (viewer.ts).
 * Scalars: see scalars.ts.
 */

const isCustomer = (record: CustomerParent | AccountParent): record is CustomerParent => 'customerId' in record;

export const nodeResolvers: Pick<Resolvers, 'Query' | 'Node'> = {
  Query: {
    // Ids are UUIDv7 for both kinds of record, so at most one of the two look-ups finds something. Only the
    // kinds the token may read are looked up: a customers:read token gets its customer, and null for an
    // account id (as for an unknown id), instead of the account look-up's FORBIDDEN. A token that may read
    // neither kind is refused by the domain (FORBIDDEN, customers:read).
    node: async (_parent, { id }, { loaders, caller }) => {
      const customers = isAuthorized(caller, 'customers:read');
      const accounts = isAuthorized(caller, 'accounts:read');
      if (!customers && !accounts) return loaders.customerById.load(byId(id));
      const [customer, account] = await Promise.all([
        customers ? loaders.customerById.load(byId(id)) : null,
        accounts ? loaders.accountById.load(byId(id)) : null,
      ]);
      return customer ?? account;
    },
  },

  Node: {
    __resolveType: (record) => (isCustomer(record) ? 'Customer' : 'Account'),
  },
};

export const resolverMaps = [
  customerResolvers,
  beneficialOwnerResolvers,
  verificationResolvers,
  accountResolvers,
  ledgerResolvers,
  historyResolvers,
  eventResolvers,
  nodeResolvers,
  auditResolvers,
  noteResolvers,
  productResolvers,
  timelineResolvers,
  accountNumberResolvers,
  lifecycleResolvers,
  dormancyResolvers,
  interestResolvers,
  feeResolvers,
  taxFormResolvers,
  clockResolvers,
  webhookResolvers,
  subscriptionResolvers,
  scalarResolvers,
  viewerResolvers,
];
