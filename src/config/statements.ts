import { byteSize, integer, type Settings } from './settings.js';

/**
 * Statement PDFs (docs/statements.md, "Rendering a PDF"): drawn by a few worker threads off the event loop, at
 * most so many in flight or queued per instance, and those of ended periods kept in memory by content.
 */
export const statementsEnv = {
  STATEMENT_PDF_WORKERS: integer('STATEMENT_PDF_WORKERS', 1, 16).default(1),
  STATEMENT_PDF_MAX_PENDING: integer('STATEMENT_PDF_MAX_PENDING', 1, 1000).optional(),
  STATEMENT_PDF_CACHE_BYTES: byteSize('STATEMENT_PDF_CACHE_BYTES', 0, 1024).default(32 * 1024 * 1024),
};

/** Renders in flight plus queued per worker, when STATEMENT_PDF_MAX_PENDING is not set. */
export const STATEMENT_PDF_PENDING_PER_WORKER = 4;

/** STATEMENT_PDF_MAX_PENDING, set, must give every worker a render. */
export function statementPdfProblems(raw: Settings<typeof statementsEnv>, problems: string[]): void {
  if (raw.STATEMENT_PDF_MAX_PENDING !== undefined && raw.STATEMENT_PDF_MAX_PENDING < raw.STATEMENT_PDF_WORKERS) {
    problems.push(
      'STATEMENT_PDF_MAX_PENDING must be at least STATEMENT_PDF_WORKERS: it counts the renders in flight (one per worker) and those queued',
    );
  }
}

export const statementsConfig = (raw: Settings<typeof statementsEnv>) => ({
  statementPdf: {
    /** Worker threads drawing statement PDFs, each one at a time (STATEMENT_PDF_WORKERS). */
    workers: raw.STATEMENT_PDF_WORKERS,
    /** Renders in flight plus queued; one more is STATEMENT_RENDERING_BUSY (503). */
    maxPending: raw.STATEMENT_PDF_MAX_PENDING ?? STATEMENT_PDF_PENDING_PER_WORKER * raw.STATEMENT_PDF_WORKERS,
    /** Bytes of PDFs of ended periods kept in memory, by content; 0 keeps none. */
    cacheBytes: raw.STATEMENT_PDF_CACHE_BYTES,
  },
});
