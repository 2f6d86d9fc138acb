import type { CheckKind } from './ports.js';

/**
 * The `http` verification provider (docs/adr/0104, docs/verification-providers.md): the job submits each check to
 * a vendor endpoint shaped like Alloy's or Persona's (one POST of the fields, answered 202 with the vendor's own
 * reference), and the vendor's signed callback (verification-callback.ts) brings the result. Nothing here logs or
 * keeps the body: the fields are decrypted for this one call and dropped.
 */

/** What the vendor is sent. `reference` is the check's id: the vendor's callback names it back. */
export interface CheckSubmission {
  reference: string;
  environment: string;
  kind: CheckKind;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  fields: SubmittedIdentity | SubmittedBusiness;
}

/** The customer's first address, as the contract stores it. */
export interface SubmittedAddress {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
}

export interface SubmittedIdentity {
  name: { first: string | null; middle: string | null; last: string | null };
  dateOfBirth: string | null;
  address: SubmittedAddress | null;
  ssn: string | null;
}

export interface SubmittedBusiness {
  legalName: string;
  taxId: string;
  address: SubmittedAddress | null;
  formation: { entityType: string; date: string; state: string | null; country: string };
}

/** Why a submission failed, as recorded and logged: a code, never the body or the vendor's answer text. */
export type SubmissionFailure = 'TIMEOUT' | 'NETWORK' | 'BAD_ANSWER' | `HTTP_${number}`;

export type SubmissionResult =
  { outcome: 'accepted'; reference: string } | { outcome: 'failed'; reason: SubmissionFailure };

export interface HttpProviderSettings {
  url: string;
  token: string;
  timeoutMs: number;
  /** Retries after the first attempt (VERIFICATION_HTTP_RETRIES): attempts are at most retries + 1. */
  retries: number;
  /** How long an accepted check waits for the vendor's callback (VERIFICATION_HTTP_RESULT_TIMEOUT_S). */
  resultTimeoutMs: number;
}

/** How an attempt is sent (fetch; a test may hand its own). */
export type VendorFetch = typeof fetch;

/** The longest wait between two attempts: the back-off doubles from one second up to this. */
const MAX_RETRY_DELAY_MS = 60_000;

export interface SubmittingProvider {
  readonly name: 'http';
  /** All attempts of a check, the first included. */
  readonly maxAttempts: number;
  /** How long after the `attempt`-th failed attempt the next one is due. */
  retryDelayMs(attempt: number): number;
  /** How long a taken submission is held against other instances: one attempt's time-out and a margin. */
  readonly leaseMs: number;
  /** How long after the vendor accepted a check its result may take; then the check completes NEEDS_REVIEW. */
  readonly resultTimeoutMs: number;
  submit(submission: CheckSubmission): Promise<SubmissionResult>;
}

/** The vendor's answer that names its reference: `{id}` (Persona's inquiries) or `{reference}` (Alloy's evaluations). */
function vendorReference(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { id, reference } = body as { id?: unknown; reference?: unknown };
  const value = typeof reference === 'string' ? reference : typeof id === 'string' ? id : null;
  return value !== null && value.length > 0 && value.length <= 128 ? value : null;
}

export function httpProvider(settings: HttpProviderSettings, send: VendorFetch = fetch): SubmittingProvider {
  return {
    name: 'http',
    maxAttempts: settings.retries + 1,
    retryDelayMs: (attempt) => Math.min(1000 * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS),
    leaseMs: settings.timeoutMs + 5000,
    resultTimeoutMs: settings.resultTimeoutMs,
    async submit(submission) {
      let response: Response;
      try {
        response = await send(settings.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${settings.token}`,
            'content-type': 'application/json',
            // The vendor may refuse a second submission of the same check (a retry after a lost 202).
            'idempotency-key': submission.reference,
          },
          body: JSON.stringify(submission),
          // A redirect would carry the fields elsewhere: refused.
          redirect: 'error',
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
      } catch (error) {
        const name = (error as Error).name;
        return { outcome: 'failed', reason: name === 'TimeoutError' || name === 'AbortError' ? 'TIMEOUT' : 'NETWORK' };
      }
      if (response.status !== 202 && response.status !== 200 && response.status !== 201) {
        await response.body?.cancel().catch(() => undefined);
        return { outcome: 'failed', reason: `HTTP_${response.status}` };
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        return { outcome: 'failed', reason: 'BAD_ANSWER' };
      }
      const reference = vendorReference(body);
      return reference === null ? { outcome: 'failed', reason: 'BAD_ANSWER' } : { outcome: 'accepted', reference };
    },
  };
}
