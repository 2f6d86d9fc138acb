import type { CheckKind, CheckOutcome } from './ports.js';

/** What a provider is asked about: the kind of check and the subject's name (its last or legal name). */
export interface CheckSubject {
  kind: CheckKind;
  subjectName: string;
}

export interface ProviderResult {
  outcome: CheckOutcome;
  reasonCodes: string[];
}

/**
 * A verification provider (docs/adr/0101). A check is recorded in the request's transaction and answered 202; its
 * result arrives later and is applied by the verification job (verification-checks.job.ts). The sandbox answers
 * from the subject's name after `resultDelayMs`; an `http` provider (later) submits at request time and is asked
 * (or calls back) for the result, so the port names only what the job needs.
 */
export interface VerificationProvider {
  readonly name: string;
  /** How long after the request the job first asks for the result. */
  readonly resultDelayMs: number;
  /** The provider's reference for a new check (the sandbox's is made from the check id). */
  referenceFor(checkId: string): string;
  /**
   * The result of a due check; absent for a provider whose results arrive by callback (`http`: its submissions are
   * the job's, http-provider.ts).
   */
  resultOf?(subject: CheckSubject): ProviderResult;
}

/**
 * The sandbox's magic values (docs/verification.md), compared with the last name of a person or the legal name
 * of a business, trimmed and in any case: `Review` → NEEDS_REVIEW, `Reject` → REJECTED with IDENTITY_NOT_FOUND (a
 * person) or BUSINESS_NOT_FOUND (a business); anything else → VERIFIED. Deterministic, so tests and client
 * integrations can walk every path.
 */
export const SANDBOX_MAGIC_VALUES = { review: 'review', reject: 'reject' } as const;

export function sandboxProvider(resultDelayMs: number): VerificationProvider {
  return {
    name: 'sandbox',
    resultDelayMs,
    referenceFor: (checkId) => `sandbox_${checkId}`,
    resultOf: ({ kind, subjectName }) => {
      const magic = subjectName.trim().toLowerCase();
      if (magic === SANDBOX_MAGIC_VALUES.review) return { outcome: 'NEEDS_REVIEW', reasonCodes: ['MANUAL_REVIEW'] };
      if (magic === SANDBOX_MAGIC_VALUES.reject)
        return {
          outcome: 'REJECTED',
          reasonCodes: [kind === 'BUSINESS' ? 'BUSINESS_NOT_FOUND' : 'IDENTITY_NOT_FOUND'],
        };
      return { outcome: 'VERIFIED', reasonCodes: [] };
    },
  };
}
