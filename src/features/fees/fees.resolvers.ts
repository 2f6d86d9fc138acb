import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import type { Page } from '../../domain/pagination.js';
import type { MaintenanceFeeAssessment } from './fees.js';

/**
 * `Account.fees` (docs/adr/0115): REST's FeeService.list, its scope, rules and codes; the resolvers only translate.
 * The cursor is the month itself (YYYY-MM), the value REST answers as `nextAfter`, so a page read over one surface can
 * be continued over the other. First pages are batched: a list of accounts with their fees is one statement more,
 * whatever its length.
 */
export const feeResolvers: Pick<Resolvers, 'Account' | 'FeeAssessmentConnection'> = {
  Account: {
    // A first page is batched over every account of the response (loaders.ts); a page after a cursor is read alone.
    fees: (account, { first, after }, { services, caller, loaders }) =>
      after === null || after === undefined
        ? loaders.firstFees(first ?? undefined).load(account.accountId)
        : services.fees.list(caller, account.accountId, { first: first ?? undefined, after }),
  },
  FeeAssessmentConnection: {
    edges: (page: Page<MaintenanceFeeAssessment>) => page.items.map((node) => ({ cursor: node.month, node })),
    nodes: (page: Page<MaintenanceFeeAssessment>) => page.items,
    pageInfo: (page: Page<MaintenanceFeeAssessment>) => ({
      hasNextPage: page.nextAfter !== null,
      endCursor: page.items.at(-1)?.month ?? null,
    }),
  },
};
