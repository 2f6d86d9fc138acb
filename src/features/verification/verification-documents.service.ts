import { createHash } from 'node:crypto';
import { auditEventFor, type NewAuditEvent } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import {
  customerNotFound,
  documentAlreadyReviewed,
  documentNotFound,
  documentReviewByUploader,
  documentTooLarge,
  documentTypeMismatch,
  documentUploadsBusy,
} from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import type {
  DocumentMediaType,
  DocumentSealer,
  SealedChunk,
  VerificationDocument,
  VerificationDocumentStore,
} from './ports.js';
import { DOCUMENT_LIMITS, MAGIC_NUMBERS, reviewSchema, uploadQuerySchema } from './verification-documents.schemas.js';

/** An upload as the REST surface hands it over: the declared media type (one of three), its length when announced, the bytes. */
export interface DocumentUploadInput {
  /** The `type` query parameter, validated here. */
  type: unknown;
  mediaType: DocumentMediaType;
  /** The Content-Length, when the request announced one. */
  declaredLength: number | undefined;
  content: AsyncIterable<Uint8Array>;
}

/** A document's content being read: its metadata, and its bytes a chunk at a time, each opened as it is written. */
export interface DocumentContent {
  document: VerificationDocument;
  chunks: AsyncIterable<Buffer>;
}

/**
 * A customer's verification documents (docs/adr/0103-verification-documents.md, docs/verification-documents.md):
 * uploads (`verification:write`), whose content is checked against its media type's magic number, digested and
 * sealed under the PII keys a chunk at a time as it is read; their metadata (`verification:read`); their content
 * (`documents:read`, every read audited); and their review by a person (`verification:decide`), never by the
 * principal that uploaded it. Nothing of a document's content or name reaches an event, an error or a log line.
 */
export class VerificationDocumentService {
  private uploading = 0;
  /** The largest content an upload may carry: VERIFICATION_DOCUMENT_MAX_BYTES, at most DOCUMENT_LIMITS.maxBytes. */
  private readonly maxBytes: number;

  constructor(
    private readonly stores: { verificationDocuments: VerificationDocumentStore },
    private readonly sealer: DocumentSealer,
    options: { maxBytes?: number } = {},
  ) {
    this.maxBytes = Math.min(options.maxBytes ?? DOCUMENT_LIMITS.maxBytes, DOCUMENT_LIMITS.maxBytes);
  }

  /**
   * Refusals, each storing nothing: VALIDATION_FAILED (type), CUSTOMER_NOT_FOUND, DOCUMENT_CONTENT_TOO_LARGE (announced or
   * read beyond the limit: reading stops there), DOCUMENT_TYPE_MISMATCH (the first bytes), DOCUMENT_UPLOADS_BUSY.
   */
  async upload(caller: Caller, customerId: string, input: DocumentUploadInput): Promise<VerificationDocument> {
    authorize(caller, 'verification:write');
    const { type } = parseInput(uploadQuerySchema, { type: input.type });
    if (!isRecordId(customerId)) throw customerNotFound();
    if (input.declaredLength !== undefined && input.declaredLength > this.maxBytes)
      throw documentTooLarge(this.maxBytes);
    if (this.uploading >= DOCUMENT_LIMITS.concurrentUploads)
      throw documentUploadsBusy(DOCUMENT_LIMITS.concurrentUploads);
    this.uploading += 1;
    try {
      const id = customerId.toLowerCase();
      const documentId = newId();
      const binding = { environment: caller.environment, customerId: id, documentId };
      const read = await readSealed(input.content, input.mediaType, this.maxBytes, (seq, plaintext) =>
        this.sealer.sealChunk(binding, seq, plaintext),
      );
      const upload = await this.stores.verificationDocuments.insert(
        caller.environment,
        id,
        {
          documentId,
          type,
          mediaType: input.mediaType,
          sizeBytes: read.sizeBytes,
          sha256: read.sha256,
          uploadedBy: caller.principal.id,
        },
        read.chunks,
        (changedFields) => documentAudit(caller, 'customer.verification.document_upload', documentId, changedFields),
      );
      if (upload.outcome === 'not-found') throw customerNotFound();
      return upload.document;
    } finally {
      this.uploading -= 1;
    }
  }

  /** A document's metadata and status. CUSTOMER_NOT_FOUND, DOCUMENT_NOT_FOUND. */
  async get(caller: Caller, customerId: string, documentId: string): Promise<VerificationDocument> {
    authorize(caller, 'verification:read');
    if (!isRecordId(customerId)) throw customerNotFound();
    if (!isRecordId(documentId)) throw documentNotFound();
    const document = await this.stores.verificationDocuments.find(
      caller.environment,
      customerId.toLowerCase(),
      documentId.toLowerCase(),
    );
    if (!document) throw documentNotFound();
    return document;
  }

  /**
   * A document's content: the read is audited (`customer.verification.document_read`) in the statement that finds
   * the document, before a byte is answered. Each chunk is opened (and so authenticated) as it is read; a chunk
   * missing or failing to open ends the answer as a failure. DOCUMENT_NOT_FOUND.
   */
  async content(caller: Caller, customerId: string, documentId: string): Promise<DocumentContent> {
    authorize(caller, 'documents:read');
    if (!isRecordId(customerId) || !isRecordId(documentId)) throw documentNotFound();
    const id = customerId.toLowerCase();
    const docId = documentId.toLowerCase();
    const found = await this.stores.verificationDocuments.findForReading(caller.environment, id, docId, {
      audit: documentAudit(caller, 'customer.verification.document_read', docId, []),
    });
    if (!found) throw documentNotFound();
    const { chunkCount, ...document } = found;
    const store = this.stores.verificationDocuments;
    const sealer = this.sealer;
    const binding = { environment: caller.environment, customerId: id, documentId: docId };
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = 0; seq < chunkCount; seq++) {
        const sealed = await store.chunk(docId, seq);
        if (!sealed) throw new Error(`verification document chunk ${seq} is missing`);
        yield sealer.openChunk(binding, seq, sealed);
      }
    }
    return { document, chunks: chunks() };
  }

  /**
   * A person's review: APPROVED, or REJECTED with a reason code. Refusals, changing nothing: VALIDATION_FAILED,
   * CUSTOMER_NOT_FOUND, DOCUMENT_NOT_FOUND, DOCUMENT_REVIEW_BY_UPLOADER (403: the uploader does not review its own
   * upload), DOCUMENT_ALREADY_REVIEWED (a document is reviewed once).
   */
  async review(caller: Caller, customerId: string, documentId: string, input: unknown): Promise<VerificationDocument> {
    authorize(caller, 'verification:decide');
    const valid = parseInput(reviewSchema, input);
    if (!isRecordId(customerId)) throw customerNotFound();
    if (!isRecordId(documentId)) throw documentNotFound();
    const docId = documentId.toLowerCase();
    const review = await this.stores.verificationDocuments.review(
      caller.environment,
      customerId.toLowerCase(),
      docId,
      { status: valid.status, reasonCode: valid.reasonCode ?? null, reviewedBy: caller.principal.id },
      { audit: documentAudit(caller, 'customer.verification.document_review', docId, ['documents']) },
    );
    switch (review.outcome) {
      case 'reviewed':
        return review.document;
      case 'customer-not-found':
        throw customerNotFound();
      case 'document-not-found':
        throw documentNotFound();
      case 'by-uploader':
        throw documentReviewByUploader();
      case 'already-reviewed':
        throw documentAlreadyReviewed(review.status);
    }
  }
}

const documentAudit = (
  caller: Caller,
  operation: NewAuditEvent['operation'],
  documentId: string,
  changedFields: string[],
): NewAuditEvent =>
  auditEventFor(caller, { operation, resourceType: 'verification_document', resourceId: documentId, changedFields });

/**
 * Reads the content a piece at a time: its first bytes are checked against the media type's magic number as soon as
 * they are in, the whole is digested, and every DOCUMENT_LIMITS.chunkBytes of plaintext are sealed at once and let go.
 * Stops reading, and throws, as soon as the content goes past `maxBytes`.
 */
async function readSealed(
  content: AsyncIterable<Uint8Array>,
  mediaType: DocumentMediaType,
  maxBytes: number,
  seal: (seq: number, plaintext: Uint8Array) => SealedChunk,
): Promise<{ chunks: SealedChunk[]; sizeBytes: number; sha256: Buffer }> {
  const magic = MAGIC_NUMBERS[mediaType];
  const digest = createHash('sha256');
  const chunks: SealedChunk[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let sizeBytes = 0;
  let checked = false;
  const check = (head: Buffer) => {
    if (head.length < magic.length || !head.subarray(0, magic.length).equals(magic))
      throw documentTypeMismatch(mediaType);
    checked = true;
  };
  const flush = (all: boolean) => {
    if (pendingBytes === 0) return;
    let joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    while (joined.length >= DOCUMENT_LIMITS.chunkBytes || (all && joined.length > 0)) {
      const piece = joined.subarray(0, Math.min(DOCUMENT_LIMITS.chunkBytes, joined.length));
      chunks.push(seal(chunks.length, piece));
      joined = joined.subarray(piece.length);
    }
    // Copied, so the sealed pieces' plaintext is not kept alive by the rest.
    pending = joined.length > 0 ? [Buffer.from(joined)] : [];
    pendingBytes = joined.length;
  };
  for await (const piece of content) {
    sizeBytes += piece.length;
    if (sizeBytes > maxBytes) throw documentTooLarge(maxBytes);
    const bytes = Buffer.from(piece.buffer, piece.byteOffset, piece.length);
    digest.update(bytes);
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (!checked && pendingBytes >= magic.length) check(Buffer.concat(pending, pendingBytes));
    if (pendingBytes >= DOCUMENT_LIMITS.chunkBytes) flush(false);
  }
  if (!checked) check(Buffer.concat(pending, pendingBytes));
  flush(true);
  return { chunks, sizeBytes, sha256: digest.digest() };
}
