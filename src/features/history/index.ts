/**
 * The history feature's public face (balances as of a date, balance history, statements, the ledger export,
 * statement PDFs), for the other features and the composition root.
 */
export type { BalancePoint, Statement, StatementEntry } from './statement.js';
export { HISTORY_LIMITS } from './history.schemas.js';
export type { HistoryStore } from './ports.js';
export { HistoryService, type HistoryServiceOptions } from './history.service.js';
export { PrismaHistoryStore } from './history.store.js';
export {
  ledgerExportCsvHeader,
  presentBalanceAsOf,
  presentBalanceHistory,
  presentStatement,
  statementCsvChunks,
} from './history.presenter.js';
export {
  balanceHistoryQuery,
  balanceQuery,
  HISTORY_ROUTES,
  ledgerExportQuery,
  statementQuery,
} from './history.rest.js';
export type { BalanceHistoryRange, BalanceMoment, LedgerExportRange, StatementPeriod } from './history.schemas.js';
export { type StatementPdfRenderer, StatementPdfs } from './statement-pdfs.js';
export type { Form1099IntPdf } from './form-1099-int-pdf.js';
export { historyResolvers } from './history.resolvers.js';
