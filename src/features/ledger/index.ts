/**
 * The ledger's public face (money: postings, holds, reversals, transfers), for the other features and the
 * composition root: transactions and exact amounts, the service, store, presenters, REST routes, GraphQL
 * resolvers and the hold-expiry job.
 */
export { type AccountBalance, RECENT_TRANSACTIONS, type Transaction } from './transaction.js';
export { amountProblemMessage, exactAmount, minorUnitDigits } from './money.js';
export { amountSchema } from './ledger.schemas.js';
export type { InternalAccount, LedgerRefusal, LedgerStore, LimitCheck, NewPosting } from './ports.js';
export { type HolderVerificationGate, LedgerService, refusalError, type Transfer } from './ledger.service.js';
export { limitCheckFor } from './limits.js';
export { PrismaLedgerStore } from './ledger.store.js';
export {
  presentTransaction,
  presentTransactionPage,
  presentTransfer,
  transactionDataSchema,
} from './transaction.presenter.js';
export { listTransactionsQuery, TRANSACTIONS_ROUTES } from './transaction.rest.js';
export { holdExpiryStep, startHoldExpiry } from './hold-expiry.job.js';
export { ledgerResolvers } from './ledger.resolvers.js';
