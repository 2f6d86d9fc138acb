import type { WriteEffects } from '../../domain/write-effects.js';
import type { VerificationStatus } from './verification-status.js';

/** What a check covers: a person's identity, or a business's (docs/adr/0101). */
export type CheckKind = 'IDENTITY' | 'BUSINESS';
export type CheckOutcome = 'VERIFIED' | 'NEEDS_REVIEW' | 'REJECTED';
export type DecisionOutcome = 'VERIFIED' | 'REJECTED';

/** One check asked of a provider, as stored. */
export interface VerificationCheck {
  checkId: string;
  kind: CheckKind;
  provider: string;
  /** The provider's own reference for the check. */
  reference: string;
  status: 'PENDING' | 'COMPLETED';
  outcome: CheckOutcome | null;
  /** The provider's reason codes (e.g. IDENTITY_NOT_FOUND); empty for a clean pass. */
  reasonCodes: string[];
  /** The fields the check covered (requirements.ts, CHECKED_FIELDS). */
  coveredFields: string[];
  /** Each covered field's digest when the check was asked: compared with today's to reopen it. Never presented. */
  fieldDigests: Record<string, string>;
  requestedAt: string;
  completedAt: string | null;
}

/** A person's decision (POST …/verification/decision). */
export interface VerificationDecision {
  outcome: DecisionOutcome;
  reason: string;
  /** The principal that decided (a token id, a JWT subject). */
  decidedBy: string;
  decidedAt: string;
}

/** A business's beneficial owner with its own verification status. */
export interface OwnerVerification {
  customerId: string;
  prongs: string[];
  ownershipPercentage: string | null;
  status: VerificationStatus;
}

/** Everything a customer's verification is derived from, read in one statement. */
export interface VerificationState {
  customerId: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  status: VerificationStatus;
  decision: VerificationDecision | null;
  /** Newest first, at most the store's limit. */
  checks: VerificationCheck[];
  /** Each checked field's digest now (the same expression a check stores). */
  currentDigests: Record<string, string>;
  /** A business's owners by addedAt (empty for a person). */
  owners: OwnerVerification[];
  /** Its documents' metadata, newest first, at most the store's limit (docs/adr/0103). */
  documents: VerificationDocument[];
  /**
   * Its certificates of formation, whatever their number: APPROVED when one is, else RECEIVED when one awaits review,
   * else REJECTED when all were; null when none was uploaded.
   */
  formationDocument: DocumentStatus | null;
}

/** A pending check that is due, as the job hands it to its provider. */
export interface DueCheck {
  checkId: string;
  customerId: string;
  environment: string;
  kind: CheckKind;
  provider: string;
  reference: string;
  /** The person's last name or the business's legal name now: what the sandbox's magic values are read from. */
  subjectName: string;
}

/** What the job applies for a due check: the provider's result and the status it moves the customer to. */
export interface CheckCompletion {
  outcome: CheckOutcome;
  reasonCodes: string[];
  status: VerificationStatus;
}

export interface NewCheck {
  checkId: string;
  provider: string;
  reference: string;
  /** When the job first asks the provider for the result. */
  delayMs: number;
  requestedBy: string;
}

export type CheckRequest =
  | { outcome: 'requested'; check: VerificationCheck; previousStatus: VerificationStatus }
  | { outcome: 'not-found' }
  | { outcome: 'not-allowed'; from: VerificationStatus };

export type DecisionRecording =
  | { outcome: 'decided'; previousStatus: VerificationStatus; businessesToReview: string[] }
  | { outcome: 'not-found' }
  | { outcome: 'not-allowed'; from: VerificationStatus };

/**
 * In a gated environment (VERIFICATION_REQUIRED, docs/adr/0104), a rejection freezes every account the customer is
 * linked to: FROZEN with reason VERIFICATION_REJECTED, set by `setBy`, each with its own audit event.
 */
export interface AccountFreeze {
  setBy: string;
  audit: (accountId: string) => WriteEffects['audit'];
}

/** The audit event of each business an owner's rejection sends back to review (one per business, fresh ids). */
export type OwnerRejectedAudit = (businessId: string) => WriteEffects['audit'];

export interface VerificationStore {
  /** Each customer's state, in `customerIds` order; null for an id that names no customer. One statement. */
  readMany(
    environment: string,
    customerIds: readonly string[],
    checksListed: number,
  ): Promise<(VerificationState | null)[]>;
  /**
   * In one transaction holding the customer's row: the transition PENDING (cause check_requested) when the table
   * allows it, and then the check row (its digests taken from the row as it is), the status, the audit event
   * and the `customer.verification_updated` event.
   */
  requestCheck(environment: string, customerId: string, check: NewCheck, effects: WriteEffects): Promise<CheckRequest>;
  /**
   * In one transaction holding the customer's row: the decision and its transition when the table allows it, its
   * audit event and event; on REJECTED, every VERIFIED business the customer owns or controls moves to
   * NEEDS_REVIEW (owner_rejected), each with its own audit event and event.
   */
  decide(
    environment: string,
    customerId: string,
    decision: Omit<VerificationDecision, 'decidedAt'>,
    effects: WriteEffects,
    ownerRejectedAudit: OwnerRejectedAudit,
    freeze?: AccountFreeze,
  ): Promise<DecisionRecording>;
  /**
   * Takes one due pending check of `provider` (FOR UPDATE SKIP LOCKED: instances never take the same one) and,
   * in the same transaction, asks `complete` for its result given the customer's state; applies the result, the
   * transition (check_completed), the audit event and event, and the owner-rejected rule. False when no check is due.
   */
  completeDueCheck(
    provider: string,
    complete: (due: DueCheck, state: VerificationState) => CheckCompletion,
    audit: (due: DueCheck) => WriteEffects['audit'],
    ownerRejectedAudit: (due: DueCheck) => OwnerRejectedAudit,
    freeze?: (environment: string) => AccountFreeze | undefined,
  ): Promise<boolean>;
}

/** A check the `http` provider's job took to submit: its customer's fields as stored (the sealed ones sealed). */
export interface SubmissionTaken {
  checkId: string;
  customerId: string;
  environment: string;
  kind: CheckKind;
  /** Attempts including this one. */
  attempts: number;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  /** The customer's addresses as stored (the first is sent). */
  addresses: unknown;
  ssn: { keyId: string; ciphertext: Uint8Array } | null;
  business: {
    legalName: string;
    taxId: { keyId: string; ciphertext: Uint8Array };
    entityType: string;
    formationDate: string;
    formationState: string | null;
    formationCountry: string;
  } | null;
}

/** A vendor's callback, verified, as the store applies it. */
export interface CallbackResult {
  /** The callback's `webhook-id`; null for a result the service itself concludes (PROVIDER_UNAVAILABLE). */
  webhookId: string | null;
  checkId: string;
  providerReference: string | null;
}

export type CallbackApplication =
  | { outcome: 'applied'; completion: CheckCompletion }
  | { outcome: 'duplicate' }
  | { outcome: 'unknown-check' }
  | { outcome: 'already-completed' };

/** The `http` provider's writes (docs/adr/0104): submissions by the job, results by the vendor's callback. */
export interface VerificationHttpStore {
  /**
   * Takes one due, not yet submitted check of `provider` (SKIP LOCKED, with its customer's row), counts the attempt
   * and moves its next attempt `leaseMs` ahead (so no other instance takes it while the call runs), and answers it
   * with its customer's fields; null when none is due. Its own short transaction: no call is made while it is open.
   */
  takeSubmission(provider: string, leaseMs: number): Promise<SubmissionTaken | null>;
  /** Checks the vendor accepted longer ago than `olderThanMs` and has not called back about, oldest first. */
  overdueResults(
    provider: string,
    olderThanMs: number,
    limit: number,
  ): Promise<{ checkId: string; environment: string }[]>;
  /** The vendor accepted it: its reference, and no more attempts. */
  recordSubmitted(checkId: string, providerReference: string): Promise<void>;
  /** An attempt failed: the next one after `retryInMs`. */
  recordAttemptFailed(checkId: string, retryInMs: number): Promise<void>;
  /**
   * A result for a pending check (the vendor's callback, or PROVIDER_UNAVAILABLE after the last attempt), in one
   * transaction holding the customer's row, then the check's: the callback's id remembered (a repeat: 'duplicate',
   * nothing applied), the result applied as the sandbox's job applies one (applyCompletion).
   */
  applyResult(
    environment: string,
    provider: string,
    callback: CallbackResult,
    complete: (due: DueCheck, state: VerificationState) => CheckCompletion,
    audit: (due: DueCheck) => WriteEffects['audit'],
    ownerRejectedAudit: (due: DueCheck) => OwnerRejectedAudit,
    freeze: AccountFreeze | undefined,
  ): Promise<CallbackApplication>;
  /** Forgets callback ids taken before `olderThanMs` ago (far past the signature's tolerance). */
  pruneCallbacks(olderThanMs: number): Promise<void>;
  /** The customers among `customerIds` (of the environment) whose status is not VERIFIED, in id order. */
  unverifiedAmong(environment: string, customerIds: readonly string[]): Promise<string[]>;
  /** The customers linked to the accounts (any role) whose status is not VERIFIED, in id order. */
  unverifiedHoldersOf(environment: string, accountIds: readonly string[]): Promise<string[]>;
}

// ---- Documents (docs/adr/0103) -------------------------------------------------------------------------------

export const DOCUMENT_TYPES = [
  'ID_DOCUMENT',
  'PROOF_OF_ADDRESS',
  'CERTIFICATE_OF_FORMATION',
  'EIN_LETTER',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_MEDIA_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentMediaType = (typeof DOCUMENT_MEDIA_TYPES)[number];
export const DOCUMENT_STATUSES = ['RECEIVED', 'APPROVED', 'REJECTED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const DOCUMENT_REASON_CODES = ['EXPIRED', 'ILLEGIBLE', 'NAME_MISMATCH', 'OTHER'] as const;
export type DocumentReasonCode = (typeof DOCUMENT_REASON_CODES)[number];

/** A document's metadata, as stored and answered: never its content, and no file name (none is taken). */
export interface VerificationDocument {
  documentId: string;
  customerId: string;
  type: DocumentType;
  mediaType: DocumentMediaType;
  sizeBytes: number;
  /** The content's SHA-256, lower-case hex. */
  sha256: string;
  status: DocumentStatus;
  /** REJECTED only. */
  reasonCode: DocumentReasonCode | null;
  uploadedBy: string;
  uploadedAt: string;
  reviewedBy: string | null;
  reviewedAt: string | null;
}

/** What a document's sealed chunks are bound to. */
export interface DocumentBinding {
  environment: string;
  customerId: string;
  documentId: string;
}

export interface SealedChunk {
  keyId: string;
  ciphertext: Uint8Array;
}

/** Seals a document's content a chunk at a time under the PII keys (src/pii/pii-cipher.ts implements it). */
export interface DocumentSealer {
  sealChunk(binding: DocumentBinding, seq: number, plaintext: Uint8Array): SealedChunk;
  openChunk(binding: DocumentBinding, seq: number, sealed: SealedChunk): Buffer;
}

export interface NewDocument {
  documentId: string;
  type: DocumentType;
  mediaType: DocumentMediaType;
  sizeBytes: number;
  sha256: Buffer;
  uploadedBy: string;
}

export type DocumentUpload =
  | {
      outcome: 'stored';
      document: VerificationDocument;
      previousStatus: VerificationStatus;
      status: VerificationStatus;
    }
  | { outcome: 'not-found' };

export type DocumentReview =
  | { outcome: 'reviewed'; document: VerificationDocument }
  | { outcome: 'customer-not-found' }
  | { outcome: 'document-not-found' }
  | { outcome: 'by-uploader' }
  | { outcome: 'already-reviewed'; status: DocumentStatus };

export interface VerificationDocumentStore {
  /**
   * In one transaction holding the customer's row: the document, its sealed chunks in order and its audit event; an
   * UNVERIFIED customer moves to NEEDS_REVIEW (cause document_received), with its `customer.verification_updated`
   * event. `audit(changedFields)` is the upload's one audit event.
   */
  insert(
    environment: string,
    customerId: string,
    document: NewDocument,
    chunks: readonly SealedChunk[],
    audit: (changedFields: string[]) => WriteEffects['audit'],
  ): Promise<DocumentUpload>;
  /** A document's metadata; null when the customer has no such document. */
  find(environment: string, customerId: string, documentId: string): Promise<VerificationDocument | null>;
  /** A document's metadata with, in the same statement, the audit event of reading its content; null: no such document. */
  findForReading(
    environment: string,
    customerId: string,
    documentId: string,
    effects: WriteEffects,
  ): Promise<(VerificationDocument & { chunkCount: number }) | null>;
  /** Chunk `seq` of the document, sealed; null when it is not there. */
  chunk(documentId: string, seq: number): Promise<SealedChunk | null>;
  /** In one transaction holding the customer's row, then the document's: the review and its audit event. */
  review(
    environment: string,
    customerId: string,
    documentId: string,
    review: { status: 'APPROVED' | 'REJECTED'; reasonCode: DocumentReasonCode | null; reviewedBy: string },
    effects: WriteEffects,
  ): Promise<DocumentReview>;
}
