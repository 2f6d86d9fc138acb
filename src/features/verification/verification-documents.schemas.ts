import { z } from 'zod';
import { DOCUMENT_REASON_CODES, DOCUMENT_TYPES, type DocumentMediaType } from './ports.js';

/**
 * docs/adr/0103: a document's limits. The content is read a piece at a time and sealed in chunks of `chunkBytes`, so
 * an upload holds at most `maxBytes` of ciphertext (and one chunk of plaintext) while it is read, and an instance
 * reads at most `concurrentUploads` at once. `maxBytes` is the ceiling: VERIFICATION_DOCUMENT_MAX_BYTES may lower an
 * instance's cap (src/config/verification.ts), never raise it, so a stored document's size is always within it.
 */
export const DOCUMENT_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  chunkBytes: 256 * 1024,
  concurrentUploads: 4,
} as const;

/** The first bytes each media type's content starts with (its magic number). */
export const MAGIC_NUMBERS: Readonly<Record<DocumentMediaType, Uint8Array>> = {
  'application/pdf': Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d]), // %PDF-
  'image/png': Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': Uint8Array.from([0xff, 0xd8, 0xff]),
};

/** POST …/document?type=…: which kind of evidence the content is. */
export const uploadQuerySchema = z.strictObject({
  type: z.enum(DOCUMENT_TYPES, {
    error: (issue) => (issue.input === undefined ? 'Required.' : `Must be one of ${DOCUMENT_TYPES.join(', ')}.`),
  }),
});

export const REVIEW_STATUSES = ['APPROVED', 'REJECTED'] as const;

/** POST …/document/{documentId}/review: APPROVED (no reason code), or REJECTED with one. */
export const reviewSchema = z
  .strictObject({
    status: z.enum(REVIEW_STATUSES, {
      error: (issue) => (issue.input === undefined ? 'Required.' : `Must be one of ${REVIEW_STATUSES.join(', ')}.`),
    }),
    reasonCode: z
      .enum(DOCUMENT_REASON_CODES, { error: () => `Must be one of ${DOCUMENT_REASON_CODES.join(', ')}.` })
      .nullable()
      .optional(),
  })
  .superRefine((review, context) => {
    if (review.status === 'REJECTED' && (review.reasonCode ?? null) === null)
      context.addIssue({ code: 'custom', path: ['reasonCode'], message: 'Required when status is REJECTED.' });
    if (review.status === 'APPROVED' && (review.reasonCode ?? null) !== null)
      context.addIssue({
        code: 'custom',
        path: ['reasonCode'],
        message: 'Must be null or absent when status is APPROVED.',
      });
  });

export type ReviewInput = z.output<typeof reviewSchema>;
