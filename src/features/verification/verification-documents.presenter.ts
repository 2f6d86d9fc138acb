import { z } from 'zod';
import { answerShape } from '../../domain/answer-shape.js';
import type { Caller } from '../../domain/caller.js';
import { recordId } from '../../presenters/record-id.js';
import {
  DOCUMENT_MEDIA_TYPES,
  DOCUMENT_REASON_CODES,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  type VerificationDocument,
} from './ports.js';
import { DOCUMENT_LIMITS } from './verification-documents.schemas.js';

/**
 * What leaves the service of a verification document (docs/adr/0103): its metadata, copied field by field. Never
 * its content (only GET …/content answers it), and it has no file name to leak.
 */
export const documentDataSchema = z
  .strictObject({
    documentId: recordId,
    customerId: recordId,
    type: z.enum(DOCUMENT_TYPES).describe('The kind of evidence, as uploaded.'),
    mediaType: z.enum(DOCUMENT_MEDIA_TYPES).describe('Its media type (the content was checked to match it).'),
    sizeBytes: z.int().min(1).max(DOCUMENT_LIMITS.maxBytes).describe("The content's length in bytes."),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe("The content's SHA-256, lower-case hex: compare it with the file sent."),
    status: z.enum(DOCUMENT_STATUSES).describe('RECEIVED until a person reviews it: APPROVED or REJECTED.'),
    reasonCode: z.enum(DOCUMENT_REASON_CODES).nullable().describe('Why it was REJECTED; null otherwise.'),
    uploadedBy: z.string().describe('The principal that uploaded it (as the audit trail names it).'),
    uploadedAt: z.iso.datetime(),
    reviewedBy: z.string().nullable().describe('The principal that reviewed it; null while RECEIVED.'),
    reviewedAt: z.iso.datetime().nullable(),
  })
  .describe("A verification document's metadata (never its content).");

/** An upload's or a review's answer: the metadata with `verification:read`, the document's id alone without. */
export const documentAnswerDataSchema = z
  .xor([
    documentDataSchema,
    z.strictObject({ documentId: recordId }).describe('For a token without `verification:read`: the document id only.'),
  ])
  .describe("The document's metadata when the token holds `verification:read`; otherwise only its id.");

export const presentDocument = (document: VerificationDocument): z.infer<typeof documentDataSchema> => ({
  documentId: document.documentId,
  customerId: document.customerId,
  type: document.type,
  mediaType: document.mediaType,
  sizeBytes: document.sizeBytes,
  sha256: document.sha256,
  status: document.status,
  reasonCode: document.reasonCode,
  uploadedBy: document.uploadedBy,
  uploadedAt: document.uploadedAt,
  reviewedBy: document.reviewedBy,
  reviewedAt: document.reviewedAt,
});

export const documentAnswer = (caller: Caller, document: VerificationDocument) =>
  answerShape(caller, 'verification') === 'full' ? presentDocument(document) : { documentId: document.documentId };

/** The file name a download is offered under: the document's id and its media type's extension, nothing the client sent. */
export const documentFileName = (document: VerificationDocument): string =>
  `document-${document.documentId}.${{ 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' }[document.mediaType]}`;
