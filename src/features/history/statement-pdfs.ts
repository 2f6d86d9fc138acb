import { createHash } from 'node:crypto';
import type { StatementDocument } from './statement.js';
import { STATEMENT_PDF_RENDERER_VERSION } from './statement-pdf.js';
import { StatementPdfPool } from './statement-pdf-pool.js';
import type { Form1099IntPdf } from './form-1099-int-pdf.js';

/**
 * Statement PDFs as the REST surface serves them: drawn by the worker pool (src/features/history/statement-pdf-pool.ts),
 * and, for a period that has ended, kept by content. The PDF is deterministic (the same statement gives the same
 * bytes), so a closed statement asked again with the same content is answered from memory without a render: the
 * key is a hash of everything the PDF is drawn from (the statement, the account's name, the holders' names or
 * their absence, the chart's points) and of the renderer's version, so whatever changes in what was read is
 * another key, never a stale document. An open period (`to` now or later) is never kept: it changes with every
 * posting. The kept PDFs are bounded in bytes (STATEMENT_PDF_CACHE_BYTES), least recently used out first.
 */

/** What the router needs: a statement's PDF, and a 1099-INT's (docs/adr/0116) from the same pool. */
export interface StatementPdfRenderer {
  render(document: StatementDocument): Promise<Buffer>;
  renderForm1099Int(form: Form1099IntPdf): Promise<Buffer>;
}

export interface StatementPdfsOptions {
  /** Worker threads (STATEMENT_PDF_WORKERS). */
  workers: number;
  /** Renders in flight plus queued (STATEMENT_PDF_MAX_PENDING). */
  maxPending: number;
  /** Bytes of closed-period PDFs kept (STATEMENT_PDF_CACHE_BYTES); 0 keeps none. */
  cacheBytes: number;
  /** Metrics: a render finished, a PDF answered without one (kept, or shared with an identical render in flight), a refusal. */
  onRendered?: () => void;
  onCacheHit?: () => void;
  onRefused?: () => void;
  now?: () => Date;
  /** The worker's module (tests). */
  workerUrl?: URL;
}

export class StatementPdfs implements StatementPdfRenderer {
  private readonly pool: StatementPdfPool;
  private readonly cache: ByteBudgetLru;
  /** Closed statements being rendered now, by key: an identical request waits for the same render. */
  private readonly rendering = new Map<string, Promise<Buffer>>();
  private readonly now: () => Date;

  constructor(private readonly options: StatementPdfsOptions) {
    this.pool = new StatementPdfPool({
      workers: options.workers,
      maxPending: options.maxPending,
      onRefused: options.onRefused,
      ...(options.workerUrl && { workerUrl: options.workerUrl }),
    });
    this.cache = new ByteBudgetLru(options.cacheBytes);
    this.now = options.now ?? (() => new Date());
  }

  render(document: StatementDocument): Promise<Buffer> {
    if (new Date(document.statement.to).getTime() > this.now().getTime()) return this.renderInPool(document);
    const key = statementPdfKey(document);
    const known = this.cache.get(key) ?? this.rendering.get(key);
    if (known) {
      this.options.onCacheHit?.();
      return Promise.resolve(known);
    }
    const rendering = this.renderInPool(document).then(
      (pdf) => {
        this.rendering.delete(key);
        this.cache.set(key, pdf);
        return pdf;
      },
      (error: unknown) => {
        this.rendering.delete(key);
        throw error;
      },
    );
    this.rendering.set(key, rendering);
    return rendering;
  }

  /**
   * A 1099-INT's PDF: drawn each time (a few hundred bytes of text, never kept: it holds a person's name and address
   * and changes with the year's postings until the year is final), under the same quota as statements.
   */
  async renderForm1099Int(form: Form1099IntPdf): Promise<Buffer> {
    const pdf = await this.pool.renderForm1099Int(form);
    this.options.onRendered?.();
    return pdf;
  }

  /** Renders in flight or queued (the quota's usage). */
  pending(): number {
    return this.pool.pending();
  }

  /** Bytes of PDFs kept now. */
  cachedBytes(): number {
    return this.cache.bytes();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async renderInPool(document: StatementDocument): Promise<Buffer> {
    const pdf = await this.pool.render(document);
    this.options.onRendered?.();
    return pdf;
  }
}

/** The cache key of a statement's PDF: SHA-256 of the renderer's version and of every datum the PDF is drawn from. */
export function statementPdfKey(document: StatementDocument): string {
  return createHash('sha256')
    .update(`statement-pdf ${STATEMENT_PDF_RENDERER_VERSION}\n`)
    .update(JSON.stringify(document))
    .digest('hex');
}

/** Buffers by key, at most `budget` bytes in all, the least recently used evicted first; one larger than the budget is not kept. */
export class ByteBudgetLru {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first.
  private readonly entries = new Map<string, Buffer>();
  private total = 0;

  constructor(private readonly budget: number) {}

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: Buffer): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.total -= previous.length;
    }
    if (value.length > this.budget) return;
    for (const [oldest, buffer] of this.entries) {
      if (this.total + value.length <= this.budget) break;
      this.entries.delete(oldest);
      this.total -= buffer.length;
    }
    this.entries.set(key, value);
    this.total += value.length;
  }

  bytes(): number {
    return this.total;
  }

  size(): number {
    return this.entries.size;
  }
}
