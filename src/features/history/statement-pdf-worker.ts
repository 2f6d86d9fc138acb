import { parentPort } from 'node:worker_threads';
import type { StatementDocument } from './statement.js';
import { statementPdf } from './statement-pdf.js';

/**
 * A rendering worker of src/features/history/statement-pdf-pool.ts: a worker thread that draws one statement PDF at a
 * time with the same renderer as ever (src/features/history/statement-pdf.ts), so the bytes are the same, off the
 * service's event loop. Built to dist/ beside the pool like every other module.
 */

/** What the pool sends: one statement to draw. */
export interface RenderRequest {
  id: number;
  document: StatementDocument;
}

/** What the worker answers: the PDF's bytes, or why it could not draw them. */
export type RenderResponse = { id: number; pdf: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on('message', (request: RenderRequest) => {
    statementPdf(request.document).then(
      (pdf) => {
        // A buffer of its own, exactly the PDF's size, handed over rather than copied (a small Buffer may share a larger slab).
        const bytes = new Uint8Array(pdf);
        port.postMessage({ id: request.id, pdf: bytes } satisfies RenderResponse, [bytes.buffer]);
      },
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies RenderResponse),
    );
  });
}
