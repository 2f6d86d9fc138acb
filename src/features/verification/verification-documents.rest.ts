import {
  customerNotFound,
  documentAlreadyReviewed,
  documentNotFound,
  documentReviewByUploader,
  documentTooLarge,
  documentTypeMismatch,
  documentUploadsBusy,
} from '../../domain/errors.js';
import { malformedRequest, unsupportedMediaType } from '../../http/errors.js';
import { failure, validationFailureOf } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { DOCUMENT_MEDIA_TYPES, DOCUMENT_TYPES } from './ports.js';
import { documentAnswerDataSchema, documentDataSchema } from './verification-documents.presenter.js';
import { DOCUMENT_LIMITS, reviewSchema, uploadQuerySchema } from './verification-documents.schemas.js';

const PATH = '/:environment/customer/:customerId/document';

const customerMissing = failure(
  'CUSTOMER_NOT_FOUND',
  'No customer with this id in this environment (an id that is not a UUID cannot name one).',
  customerNotFound(),
);
const documentMissing = failure(
  'DOCUMENT_NOT_FOUND',
  'No document with this id belongs to this customer in this environment.',
  documentNotFound(),
);

/** Exported for the router: the one message of a document sent as another media type. */
export const DOCUMENT_MEDIA_TYPE_MESSAGE = `Send the document's bytes as the body with Content-Type ${DOCUMENT_MEDIA_TYPES.join(', ')} (no Content-Encoding).`;

/** A customer's verification documents (docs/adr/0103, docs/verification-documents.md), tagged Customers. */
export const DOCUMENT_ROUTES = [
  {
    operationId: 'uploadVerificationDocument',
    method: 'POST',
    path: PATH,
    family: 'customer',
    tag: 'Customers',
    summary: 'Upload a verification document',
    description:
      `Not in the contract. The body is the file itself (not JSON): ${DOCUMENT_MEDIA_TYPES.join(', ')}, at most VERIFICATION_DOCUMENT_MAX_BYTES bytes (the instance's setting, 1 KiB to 10 MiB; ${DOCUMENT_LIMITS.maxBytes}, 10 MiB, by default), whose first bytes must be that media type's (its magic number). ` +
      'Read as it arrives and stored only encrypted under the PII keys, with its size and SHA-256; the answer is its metadata (no file name is taken or kept). ' +
      "An UNVERIFIED customer's verification moves to NEEDS_REVIEW (`customer.verification_updated`, which never carries a document); a business's APPROVED CERTIFICATE_OF_FORMATION meets its `formation_document` requirement. " +
      'Audited (`customer.verification.document_upload`). No Idempotency-Key: a repeat stores a second document (compare `sha256`).',
    scope: 'verification:write',
    withoutIdempotencyKey: 'a repeat stores a second document; compare sha256 after a lost answer',
    rawBody: {
      mediaTypes: DOCUMENT_MEDIA_TYPES,
      description: `The file's bytes, at most VERIFICATION_DOCUMENT_MAX_BYTES (${DOCUMENT_LIMITS.maxBytes} by default).`,
    },
    query: { schema: uploadQuerySchema, example: { type: 'ID_DOCUMENT' } },
    success: {
      status: 201,
      description: "Stored: the document's metadata, RECEIVED (its id alone without `verification:read`).",
      data: documentAnswerDataSchema,
      component: 'VerificationDocumentAnswer',
    },
    failures: [
      failure(
        'VALIDATION_FAILED',
        `\`type\` is missing or not one of ${DOCUMENT_TYPES.join(', ')}.`,
        validationFailureOf(uploadQuerySchema, { type: 'PASSPORT' }),
      ),
      failure(
        'UNSUPPORTED_MEDIA_TYPE',
        'The Content-Type is not one of the three (or the body has a Content-Encoding); nothing is read or stored.',
        unsupportedMediaType(DOCUMENT_MEDIA_TYPE_MESSAGE),
      ),
      customerMissing,
      failure(
        'DOCUMENT_CONTENT_TOO_LARGE',
        `The body is longer than VERIFICATION_DOCUMENT_MAX_BYTES (${DOCUMENT_LIMITS.maxBytes} bytes by default; the message names the limit): refused at once when its Content-Length says so, else as soon as reading passes the limit; nothing is stored.`,
        documentTooLarge(DOCUMENT_LIMITS.maxBytes),
      ),
      failure(
        'DOCUMENT_TYPE_MISMATCH',
        "The content's first bytes are not its Content-Type's (e.g. a PNG sent as application/pdf); nothing is stored.",
        documentTypeMismatch('application/pdf'),
      ),
      failure(
        'MALFORMED_REQUEST_body',
        'The body ended before its announced length; nothing is stored.',
        malformedRequest('The request body ended before its announced length.'),
      ),
      failure(
        'DOCUMENT_UPLOADS_BUSY',
        `The instance already reads ${DOCUMENT_LIMITS.concurrentUploads} uploads; retry after Retry-After. Nothing is read or stored.`,
        documentUploadsBusy(DOCUMENT_LIMITS.concurrentUploads),
      ),
    ],
  },
  {
    operationId: 'getVerificationDocument',
    method: 'GET',
    path: `${PATH}/:documentId`,
    family: 'customer',
    tag: 'Customers',
    summary: "Read a verification document's metadata",
    description:
      'Not in the contract. Its type, media type, size, SHA-256 and status: RECEIVED, APPROVED, or REJECTED with a reason code (EXPIRED, ILLEGIBLE, NAME_MISMATCH, OTHER). Never its content (`…/content`, with `documents:read`).',
    scope: 'verification:read',
    success: { status: 200, description: 'The metadata.', data: documentDataSchema, component: 'VerificationDocument' },
    failures: [customerMissing, documentMissing],
  },
  {
    operationId: 'getVerificationDocumentContent',
    method: 'GET',
    path: `${PATH}/:documentId/content`,
    family: 'customer',
    tag: 'Customers',
    summary: "Download a verification document's content",
    description:
      'Not in the contract. The bytes as uploaded, in their own media type, with `Content-Disposition: attachment`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. ' +
      'Every read is audited (`customer.verification.document_read`, the document as its resource) before a byte is sent. Its own scope: reading verifications does not read passports.',
    scope: 'documents:read',
    binaryAnswer: DOCUMENT_MEDIA_TYPES,
    success: {
      status: 200,
      description: 'The content, decrypted as it is sent.',
      data: documentDataSchema,
      component: 'VerificationDocument',
    },
    failures: [documentMissing],
  },
  {
    operationId: 'reviewVerificationDocument',
    method: 'POST',
    path: `${PATH}/:documentId/review`,
    family: 'customer',
    tag: 'Customers',
    summary: 'Review a verification document',
    description:
      'Not in the contract. `status`: APPROVED (no `reasonCode`) or REJECTED with a `reasonCode` (EXPIRED, ILLEGIBLE, NAME_MISMATCH, OTHER). A document is reviewed once, never by the principal that uploaded it. ' +
      "An APPROVED CERTIFICATE_OF_FORMATION meets a business's `formation_document` requirement; the verification's status does not move (a person decides it). Audited (`customer.verification.document_review`).",
    scope: 'verification:decide',
    withoutIdempotencyKey:
      'a repeat is refused (409 DOCUMENT_ALREADY_REVIEWED): after a lost answer, read the document',
    requestBody: {
      schema: reviewSchema,
      component: 'VerificationDocumentReviewRequest',
      example: { status: 'REJECTED', reasonCode: 'EXPIRED' },
    },
    success: {
      status: 200,
      description: "Reviewed: the document's metadata (its id alone without `verification:read`).",
      data: documentAnswerDataSchema,
      component: 'VerificationDocumentAnswer',
    },
    failures: [
      customerMissing,
      documentMissing,
      failure(
        'DOCUMENT_REVIEW_BY_UPLOADER',
        'The token is the principal that uploaded the document: another person reviews it. Nothing changes.',
        documentReviewByUploader(),
      ),
      failure(
        'DOCUMENT_ALREADY_REVIEWED',
        'The document is APPROVED or REJECTED already; nothing changes.',
        documentAlreadyReviewed('APPROVED'),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
