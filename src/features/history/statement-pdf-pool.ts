import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { StatementDocument } from './statement.js';
import { serviceUnavailable, statementRenderingBusy } from '../../domain/errors.js';
import type { PdfDocumentRequest, RenderRequest, RenderResponse } from './statement-pdf-worker.js';
import type { Form1099IntPdf } from './form-1099-int-pdf.js';

/**
 * Statement PDFs drawn off the event loop: a few worker threads (STATEMENT_PDF_WORKERS), each drawing one
 * statement at a time with src/features/history/statement-pdf.ts, and a queue in front of them. Drawing 10,000
 * entries is seconds of CPU; on the event loop it would stall every other request of the instance for as long.
 *
 * Bounded: at most `maxPending` renders are in flight or queued (STATEMENT_PDF_MAX_PENDING); one more is refused
 * at once with STATEMENT_RENDERING_BUSY (503, Retry-After), as the ledger export refuses one export too many.
 * Workers start on the first render, not with the service, and do not keep the process alive; a worker that
 * dies fails its render (500) and is replaced for the next one.
 */

/**
 * The worker's module: the sibling file with this module's own extension, so the service run from dist/ (`.js`,
 * built by tsc like every module) and from its TypeScript sources (vitest, tsx: `.ts`) each find theirs.
 */
export const STATEMENT_PDF_WORKER_URL = new URL(
  `./statement-pdf-worker${path.extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

export interface StatementPdfPoolOptions {
  /** Worker threads drawing at once (STATEMENT_PDF_WORKERS). */
  workers: number;
  /** Renders in flight plus queued (STATEMENT_PDF_MAX_PENDING); one more is STATEMENT_RENDERING_BUSY. */
  maxPending: number;
  /** Called on each refusal for want of room (a metric). */
  onRefused?: () => void;
  /** The worker's module; STATEMENT_PDF_WORKER_URL unless a test brings its own. */
  workerUrl?: URL;
}

interface Job {
  id: number;
  request: PdfDocumentRequest;
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
}

export class StatementPdfPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly workerUrl: URL;
  private running = 0;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: StatementPdfPoolOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1)
      throw new Error('a statement PDF pool needs at least one worker');
    if (!Number.isInteger(options.maxPending) || options.maxPending < options.workers)
      throw new Error('a statement PDF pool must let every worker have a render');
    this.workerUrl = options.workerUrl ?? STATEMENT_PDF_WORKER_URL;
  }

  /** Renders in flight or queued now (the quota's usage). */
  pending(): number {
    return this.running + this.queue.length;
  }

  /** The statement's PDF, drawn by a worker; STATEMENT_RENDERING_BUSY at once when `maxPending` renders are pending. */
  render(document: StatementDocument): Promise<Buffer> {
    return this.enqueue({ kind: 'statement', document });
  }

  /** A 1099-INT's PDF (docs/adr/0116), by the same workers under the same bound as statements. */
  renderForm1099Int(form: Form1099IntPdf): Promise<Buffer> {
    return this.enqueue({ kind: 'form-1099-int', form });
  }

  private enqueue(request: PdfDocumentRequest): Promise<Buffer> {
    if (this.closed) return Promise.reject(serviceUnavailable());
    if (this.pending() >= this.options.maxPending) {
      this.options.onRefused?.();
      return Promise.reject(statementRenderingBusy(this.options.maxPending));
    }
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; renders still queued or in flight fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(serviceUnavailable());
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map(async (slot) => {
        slot.worker.removeAllListeners();
        // An 'error' after this point has nobody to tell.
        slot.worker.on('error', () => {});
        slot.job?.reject(serviceUnavailable());
        await slot.worker.terminate();
      }),
    );
    this.running = 0;
  }

  /** Hands queued renders to idle workers, starting workers up to `workers`. */
  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.slots.find((candidate) => candidate.job === undefined);
      if (!slot && this.slots.length < this.options.workers) {
        try {
          slot = this.spawn();
        } catch (error) {
          this.queue
            .shift()!
            .reject(
              new Error(
                `the statement PDF worker could not start (${error instanceof Error ? error.message : String(error)})`,
              ),
            );
          continue;
        }
      }
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      this.running++;
      slot.worker.postMessage({ id: job.id, request: job.request } satisfies RenderRequest);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker(this.workerUrl), job: undefined };
    // An idle worker never keeps the process alive; a render in flight has its request (and the listener) waiting.
    slot.worker.unref();
    const finish = (): Job | undefined => {
      const job = slot.job;
      if (job) {
        slot.job = undefined;
        this.running--;
      }
      return job;
    };
    slot.worker.on('message', (response: RenderResponse) => {
      if (slot.job?.id !== response.id) return;
      const job = finish()!;
      if ('pdf' in response)
        job.resolve(Buffer.from(response.pdf.buffer, response.pdf.byteOffset, response.pdf.byteLength));
      else job.reject(new Error(`a statement PDF could not be rendered: ${response.error}`));
      this.dispatch();
    });
    // 'error' (an exception the worker did not catch) is followed by 'exit': whichever comes first retires the slot.
    const lost = (reason: string) => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      this.slots.splice(index, 1);
      finish()?.reject(new Error(`the statement PDF worker stopped (${reason})`));
      this.dispatch();
    };
    slot.worker.on('error', (error) => lost(error.message));
    slot.worker.on('exit', (code) => lost(`exit code ${code}`));
    this.slots.push(slot);
    return slot;
  }
}

/**
 * A worker running `url`. Node runs JavaScript only: from the TypeScript sources (the tests, `npm run dev`) the
 * worker loads its module through tsx, as the main thread was loaded; from dist/ it is an ordinary module.
 */
function startWorker(url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { name: 'statement-pdf' });
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)}));`;
  return new Worker(source, { eval: true, name: 'statement-pdf' });
}
