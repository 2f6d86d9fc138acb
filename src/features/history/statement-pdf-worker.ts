import { parentPort } from 'node:worker_threads';
import type { StatementDocument } from './statement.js';
import { statementPdf } from './statement-pdf.js';
import { type Form1099IntPdf, form1099IntPdf } from './form-1099-int-pdf.js';

/**
 * A rendering worker of src/features/history/statement-pdf-pool.ts: a worker thread that draws one statement PDF at a
 * time with the same renderers as ever (src/features/history/statement-pdf.ts, and form-1099-int-pdf.ts for a tax form), so the bytes are the same, off the
 * service's event loop. Built to dist/ beside the pool like every other module.
 */

/** A document the engine draws: a statement, or a 1099-INT payee statement (docs/adr/0116). */
export type PdfDocumentRequest =
  { kind: 'statement'; document: StatementDocument } | { kind: 'form-1099-int'; form: Form1099IntPdf };

/** What the pool sends: one document to draw. */
export interface RenderRequest {
  id: number;
  request: PdfDocumentRequest;
}

const draw = (request: PdfDocumentRequest): Promise<Buffer> =>
  request.kind === 'statement' ? statementPdf(request.document) : form1099IntPdf(request.form);

/** What the worker answers: the PDF's bytes, or why it could not draw them. */
export type RenderResponse = { id: number; pdf: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on('message', (request: RenderRequest) => {
    draw(request.request).then(
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
