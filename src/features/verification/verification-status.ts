import { verificationTransitionNotAllowed } from '../../domain/errors.js';

/**
 * A customer's verification status (docs/adr/0101-customer-verification.md, docs/verification.md):
 * - UNVERIFIED: nothing asked yet (a customer without a verification row);
 * - PENDING: a check is running at the provider;
 * - NEEDS_REVIEW: a person has to look (a check said so, or a business's owner was rejected);
 * - VERIFIED, REJECTED: a check's result or a person's decision.
 */
export const VERIFICATION_STATUSES = ['UNVERIFIED', 'PENDING', 'NEEDS_REVIEW', 'VERIFIED', 'REJECTED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** What moves a status, each by one path of the service. */
export const TRANSITION_CAUSES = [
  'check_requested',
  'check_completed',
  'decision',
  'owner_rejected',
  'document_received',
] as const;
export type TransitionCause = (typeof TRANSITION_CAUSES)[number];

/**
 * The written table of transitions: from → to → the causes that may make it. Every pair not in it (a status to
 * itself included) is refused with VERIFICATION_TRANSITION_NOT_ALLOWED and changes nothing. Why each one:
 * - a check is asked from any status but PENDING (one check at a time): after a rejection, a review, or a change
 *   of a verified field alike;
 * - only a check's result leaves PENDING, so a check's outcome always lands on the status it was asked from;
 * - a person decides a review, overturns a rejection, or rejects what was verified (fraud found later); nobody
 *   decides while a check runs or before anything was asked;
 * - an owner's rejection sends a VERIFIED business back to NEEDS_REVIEW (a pending business gets there through its
 *   own check's result, which reads its owners; one already in review or rejected stays where it is).
 * - a document's upload (docs/adr/0103) puts evidence before a person: an UNVERIFIED customer goes to NEEDS_REVIEW.
 *   From any other status the upload moves nothing (a check runs, a person already looks, or a decision stands: the
 *   document's requirement says it awaits review), and is not refused for it.
 * Nothing leads back to UNVERIFIED: a verification's history is kept.
 */
export const TRANSITIONS: Readonly<
  Record<VerificationStatus, Readonly<Partial<Record<VerificationStatus, readonly TransitionCause[]>>>>
> = {
  UNVERIFIED: { PENDING: ['check_requested'], NEEDS_REVIEW: ['document_received'] },
  PENDING: { NEEDS_REVIEW: ['check_completed'], VERIFIED: ['check_completed'], REJECTED: ['check_completed'] },
  NEEDS_REVIEW: { PENDING: ['check_requested'], VERIFIED: ['decision'], REJECTED: ['decision'] },
  VERIFIED: { PENDING: ['check_requested'], NEEDS_REVIEW: ['owner_rejected'], REJECTED: ['decision'] },
  REJECTED: { PENDING: ['check_requested'], VERIFIED: ['decision'] },
};

export const mayTransition = (from: VerificationStatus, to: VerificationStatus, cause: TransitionCause): boolean =>
  TRANSITIONS[from][to]?.includes(cause) === true;

/** VERIFICATION_TRANSITION_NOT_ALLOWED (409) unless the table allows it. */
export function assertTransition(from: VerificationStatus, to: VerificationStatus, cause: TransitionCause): void {
  if (!mayTransition(from, to, cause)) throw verificationTransitionNotAllowed(from, to, cause.replace('_', ' '));
}

/** The statuses the owner-rejected rule moves a business from (the table's `owner_rejected` rows). */
export const OWNER_REJECTED_FROM: readonly VerificationStatus[] = VERIFICATION_STATUSES.filter((from) =>
  mayTransition(from, 'NEEDS_REVIEW', 'owner_rejected'),
);
