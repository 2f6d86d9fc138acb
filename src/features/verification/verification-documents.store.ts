import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { writeAuditEvents } from '../../db/sql/rotation-audit.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import { auditInsert, auditValues } from '../../db/sql/write-effects.js';
import type { WriteEffects } from '../../domain/write-effects.js';
import type { DocumentChunkResealBatch, SealedDocumentChunk, SealedDocumentStore } from '../../pii/pii-rotation.js';
import type {
  DocumentReasonCode,
  DocumentReview,
  DocumentUpload,
  NewDocument,
  SealedChunk,
  VerificationDocument,
  VerificationDocumentStore,
} from './ports.js';
import { DOCUMENT_FIELDS, lockCustomer, moveStatus } from './verification.store.js';
import { mayTransition } from './verification-status.js';

const SQL = {
  insertDocument: statement(
    'verification_document_insert',
    `INSERT INTO verification_documents AS d (id, customer_id, environment, type, media_type, size_bytes, sha256, chunk_count, uploaded_by)
     VALUES ($1::uuid, $2::uuid, $3::varchar, $4::varchar, $5::varchar, $6::int, $7::bytea, $8::int, $9::varchar)
     RETURNING ${DOCUMENT_FIELDS}`,
  ),
  // A batch of chunks in one statement: their positions, key ids and ciphertexts as arrays.
  insertChunks: statement(
    'verification_document_insert_chunks',
    `INSERT INTO verification_document_chunks (document_id, seq, pii_key_id, ciphertext)
     SELECT $1::uuid, c.seq, c.key_id, c.ciphertext
       FROM unnest($2::int[], $3::varchar[], $4::bytea[]) AS c(seq, key_id, ciphertext)`,
  ),
  // The audit event of a write that moved no status ($1…).
  audit: statement('verification_document_audit', `${auditInsert(1, '(SELECT 1) AS one')}`),
  find: statement(
    'verification_document_find',
    `SELECT ${DOCUMENT_FIELDS} FROM verification_documents d
      WHERE d.id = $1::uuid AND d.customer_id = $2::uuid AND d.environment = $3`,
  ),
  // The metadata and, in the same statement, the audit event of reading the content ($4…): no read unaudited.
  findForReading: statement(
    'verification_document_find_for_reading',
    `WITH found AS (
       SELECT ${DOCUMENT_FIELDS}, d.chunk_count AS "chunkCount" FROM verification_documents d
        WHERE d.id = $1::uuid AND d.customer_id = $2::uuid AND d.environment = $3
     ), audit AS (${auditInsert(4, 'found')})
     SELECT * FROM found`,
  ),
  chunk: statement(
    'verification_document_chunk',
    `SELECT k.pii_key_id AS "keyId", k.ciphertext FROM verification_document_chunks k
      WHERE k.document_id = $1::uuid AND k.seq = $2::int`,
  ),
  // Held after its customer's row: one review at a time.
  lockDocument: statement(
    'verification_document_lock',
    `SELECT d.status, d.uploaded_by AS "uploadedBy" FROM verification_documents d
      WHERE d.id = $1::uuid AND d.customer_id = $2::uuid AND d.environment = $3 FOR NO KEY UPDATE`,
  ),
  // $4 status, $5 reason code, $6 who; its audit event ($7…).
  review: statement(
    'verification_document_review',
    `WITH reviewed AS (
       UPDATE verification_documents d SET status = $4::varchar, reason_code = $5::varchar, reviewed_by = $6::varchar,
              reviewed_at = CURRENT_TIMESTAMP
        WHERE d.id = $1::uuid AND d.customer_id = $2::uuid AND d.environment = $3 AND d.status = 'RECEIVED'
       RETURNING ${DOCUMENT_FIELDS}
     ), audit AS (${auditInsert(7, 'reviewed')})
     SELECT * FROM reviewed`,
  ),
};

type Row = Omit<VerificationDocument, 'sizeBytes'> & { sizeBytes: number | bigint };

const toDocument = (row: Row): VerificationDocument => ({ ...row, sizeBytes: Number(row.sizeBytes) });

/** How many sealed chunks one INSERT carries (a few MiB at most). */
const CHUNKS_PER_INSERT = 1;

/** A customer's verification documents (docs/adr/0103): verification_documents and their sealed chunks. */
export class PrismaVerificationDocumentStore implements VerificationDocumentStore {
  constructor(private readonly prisma: PrismaClient) {}

  async insert(
    environment: string,
    customerId: string,
    document: NewDocument,
    chunks: readonly SealedChunk[],
    audit: (changedFields: string[]) => WriteEffects['audit'],
  ): Promise<DocumentUpload> {
    return this.prisma.$transaction(
      async (tx) => {
        const locked = await lockCustomer(tx, environment, customerId);
        if (!locked) return { outcome: 'not-found' };
        const [stored] = await queryRows<Row>(tx, SQL.insertDocument, [
          document.documentId,
          customerId,
          environment,
          document.type,
          document.mediaType,
          document.sizeBytes,
          document.sha256,
          chunks.length,
          document.uploadedBy,
        ]);
        for (let first = 0; first < chunks.length; first += CHUNKS_PER_INSERT) {
          const batch = chunks.slice(first, first + CHUNKS_PER_INSERT);
          await queryRows(tx, SQL.insertChunks, [
            document.documentId,
            batch.map((_chunk, i) => first + i),
            batch.map((chunk) => chunk.keyId),
            batch.map((chunk) =>
              Buffer.from(chunk.ciphertext.buffer, chunk.ciphertext.byteOffset, chunk.ciphertext.length),
            ),
          ]);
        }
        const moves = mayTransition(locked.status, 'NEEDS_REVIEW', 'document_received');
        if (moves)
          await moveStatus(tx, environment, customerId, 'NEEDS_REVIEW', locked.status, audit(['documents', 'status']));
        else await queryRows(tx, SQL.audit, auditValues(audit(['documents'])));
        return {
          outcome: 'stored',
          document: toDocument(stored!),
          previousStatus: locked.status,
          status: moves ? 'NEEDS_REVIEW' : locked.status,
        };
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
  }

  async find(environment: string, customerId: string, documentId: string): Promise<VerificationDocument | null> {
    const [row] = await queryRows<Row>(this.prisma, SQL.find, [documentId, customerId, environment]);
    return row ? toDocument(row) : null;
  }

  async findForReading(
    environment: string,
    customerId: string,
    documentId: string,
    effects: WriteEffects,
  ): Promise<(VerificationDocument & { chunkCount: number }) | null> {
    const [row] = await queryRows<Row & { chunkCount: number }>(this.prisma, SQL.findForReading, [
      documentId,
      customerId,
      environment,
      ...auditValues(effects.audit),
    ]);
    return row ? { ...toDocument(row), chunkCount: Number(row.chunkCount) } : null;
  }

  async chunk(documentId: string, seq: number): Promise<SealedChunk | null> {
    const [row] = await queryRows<SealedChunk>(this.prisma, SQL.chunk, [documentId, seq]);
    return row ?? null;
  }

  async review(
    environment: string,
    customerId: string,
    documentId: string,
    review: { status: 'APPROVED' | 'REJECTED'; reasonCode: DocumentReasonCode | null; reviewedBy: string },
    effects: WriteEffects,
  ): Promise<DocumentReview> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await lockCustomer(tx, environment, customerId);
      if (!locked) return { outcome: 'customer-not-found' };
      const [document] = await queryRows<{ status: VerificationDocument['status']; uploadedBy: string }>(
        tx,
        SQL.lockDocument,
        [documentId, customerId, environment],
      );
      if (!document) return { outcome: 'document-not-found' };
      if (document.uploadedBy === review.reviewedBy) return { outcome: 'by-uploader' };
      if (document.status !== 'RECEIVED') return { outcome: 'already-reviewed', status: document.status };
      const [reviewed] = await queryRows<Row>(tx, SQL.review, [
        documentId,
        customerId,
        environment,
        review.status,
        review.reasonCode,
        review.reviewedBy,
        ...auditValues(effects.audit),
      ]);
      return { outcome: 'reviewed', document: toDocument(reviewed!) };
    });
  }
}

/**
 * The documents' sealed chunks, for key rotation (src/pii/pii-rotation.ts, rotateDocumentChunks), as
 * PrismaSealedBusinessStore does tax ids: SKIP LOCKED row locks, a batch UPDATE from arrays, one short transaction a
 * batch (a few chunks: each is up to 256 KiB). Only a chunk's ciphertext and key id change.
 */
export class PrismaSealedDocumentStore implements SealedDocumentStore {
  constructor(private readonly prisma: PrismaClient) {}

  async resealBatch(batch: DocumentChunkResealBatch): Promise<{ lastId: string | undefined; resealed: number }> {
    return this.prisma.$transaction(
      async (tx) => {
        // The cursor is "<documentId>/<seq padded>", so (document, seq) order is text order.
        const [afterDocument, afterSeq] = splitCursor(batch.after);
        const rows = await tx.$queryRaw<(SealedDocumentChunk & { cursor: string })[]>`
          SELECT k.document_id::text AS "documentId", k.seq, d.environment, d.customer_id::text AS "customerId",
                 k.pii_key_id AS "keyId", k.ciphertext
            FROM verification_document_chunks k JOIN verification_documents d ON d.id = k.document_id
           WHERE k.pii_key_id <> ${batch.activeKeyId} AND (k.document_id, k.seq) > (${afterDocument}::uuid, ${afterSeq}::int)
           ORDER BY k.document_id, k.seq LIMIT ${batch.limit} FOR NO KEY UPDATE OF k SKIP LOCKED`;
        const documents: string[] = [];
        const seqs: number[] = [];
        const ciphertexts: Buffer[] = [];
        const environments: string[] = [];
        for (const row of rows) {
          const resealed = batch.reseal(row);
          if (!resealed) continue;
          documents.push(row.documentId);
          seqs.push(row.seq);
          ciphertexts.push(Buffer.from(resealed.ciphertext));
          environments.push(row.environment);
        }
        const resealed =
          documents.length === 0
            ? 0
            : await tx.$executeRaw`
                UPDATE verification_document_chunks AS k SET ciphertext = v.ciphertext, pii_key_id = ${batch.activeKeyId}
                  FROM unnest(${documents}::uuid[], ${seqs}::int[], ${ciphertexts}::bytea[]) AS v(document_id, seq, ciphertext)
                 WHERE k.document_id = v.document_id AND k.seq = v.seq AND k.pii_key_id <> ${batch.activeKeyId}`;
        await writeAuditEvents(tx, environments, batch.audit);
        const last = rows.at(-1);
        return { lastId: last && chunkCursor(last.documentId, last.seq), resealed };
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  }

  async countNotUnder(keyId: string): Promise<number> {
    return this.prisma.verificationDocumentChunk.count({ where: { piiKeyId: { not: keyId } } });
  }
}

/** The rotation's cursor over (document, seq): the first cursor is the nil UUID, before every chunk. */
const chunkCursor = (documentId: string, seq: number) => `${documentId}/${seq}`;
function splitCursor(cursor: string): [string, number] {
  const [documentId, seq] = cursor.split('/');
  return [documentId!, seq === undefined ? -1 : Number(seq)];
}
