import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { z } from 'zod';
import type { Caller } from '../../domain/caller.js';
import {
  DomainError,
  verificationCallbackSignatureInvalid,
  verificationCheckCompleted,
  verificationCheckNotFound,
} from '../../domain/errors.js';
import { isRecordId } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import type {
  CheckSubmission,
  SubmittedAddress,
  SubmittedBusiness,
  SubmittedIdentity,
  SubmittingProvider,
} from './http-provider.js';
import type { AccountFreeze, CheckCompletion, SubmissionTaken, VerificationHttpStore } from './ports.js';
import type { ProviderResult } from './providers.js';
import { completionOf, systemAudit, systemCaller } from './verification.service.js';

/** Opens a sealed SSN or tax id for the one call that sends it (src/pii/pii-cipher.ts). */
export interface SealedFieldOpener {
  open(
    binding: { environment: string; customerId: string },
    field: 'ssn' | 'tax_id',
    keyId: string,
    ciphertext: Uint8Array,
  ): string;
}

/** What the job logs of a failed attempt: ids and a code, never a field or the vendor's answer. */
export interface SubmissionLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** The reason code of a check the vendor never accepted, after its last attempt (docs/adr/0104). */
export const PROVIDER_UNAVAILABLE = 'PROVIDER_UNAVAILABLE';
/** The reason code of a check the vendor accepted and sent no result for within VERIFICATION_HTTP_RESULT_TIMEOUT_S. */
export const PROVIDER_NO_RESULT = 'PROVIDER_NO_RESULT';
/** How many overdue checks one pass concludes (the next pass takes the rest). */
const OVERDUE_BATCH = 100;

/** Callback ids are kept a week: far past the 5-minute tolerance, so no replay can outlive its id. */
const CALLBACK_IDS_KEPT_MS = 7 * 86_400_000;
/** How often an instance forgets old callback ids: hourly is plenty for a week's window. */
const PRUNE_EVERY_MS = 3_600_000;

/** The callback's body (a Standard Webhooks payload: type, timestamp, data). */
const REASON_CODE = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'Must be an upper-case code.');
export const callbackSchema = z.object({
  type: z.literal('verification.completed'),
  timestamp: z.string().max(64).optional(),
  data: z.object({
    reference: z.string().max(64),
    providerReference: z.string().min(1).max(128).optional(),
    outcome: z.enum(['VERIFIED', 'NEEDS_REVIEW', 'REJECTED']),
    reasonCodes: z.array(REASON_CODE).max(20).default([]),
  }),
});

/** What a callback did: its result applied, or a repeat of one already taken (nothing applied twice). */
export type CallbackAnswer = { outcome: 'applied'; checkId: string; status: string } | { outcome: 'duplicate' };

const firstAddress = (addresses: unknown): SubmittedAddress | null => {
  if (!Array.isArray(addresses) || addresses.length === 0) return null;
  const { street, city, state, zip } = addresses[0] as SubmittedAddress;
  return { street, city, state, zip };
};

/**
 * The `http` provider (docs/adr/0104, docs/verification-providers.md): the job submits each due check to the vendor
 * (the fields decrypted for that call alone), with bounded retries recorded on the check; the vendor's signed
 * callback applies its result as the sandbox's job applies one. After the last attempt the check completes
 * NEEDS_REVIEW with PROVIDER_UNAVAILABLE: a person looks, or asks a new check.
 */
export class VerificationHttpService {
  private readonly webhook: Webhook;
  private prunedAt = 0;

  constructor(
    private readonly stores: { verificationHttp: VerificationHttpStore },
    private readonly provider: SubmittingProvider,
    private readonly opener: SealedFieldOpener,
    callbackSecret: string,
    private readonly freezeIn: (environment: string, caller: Caller) => AccountFreeze | undefined,
    private readonly log: SubmissionLog = { warn: () => undefined },
  ) {
    this.webhook = new Webhook(callbackSecret);
  }

  /** The job's pass: every due submission, one at a time; answers how many were accepted or concluded. */
  async submitDueChecks(stopped: () => boolean = () => false): Promise<number> {
    if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      await this.stores.verificationHttp.pruneCallbacks(CALLBACK_IDS_KEPT_MS);
      this.prunedAt = Date.now();
    }
    let done = 0;
    while (!stopped()) {
      const taken = await this.stores.verificationHttp.takeSubmission(this.provider.name, this.provider.leaseMs);
      if (taken === null) break;
      const result = await this.provider.submit(this.submissionOf(taken));
      if (result.outcome === 'accepted') {
        await this.stores.verificationHttp.recordSubmitted(taken.checkId, result.reference);
        done += 1;
        continue;
      }
      const last = taken.attempts >= this.provider.maxAttempts;
      this.log.warn(
        { checkId: taken.checkId, attempt: taken.attempts, reason: result.reason, last },
        last
          ? 'the verification vendor did not accept a check after its last attempt; it completes with PROVIDER_UNAVAILABLE'
          : 'the verification vendor did not accept a check; it is tried again later',
      );
      if (!last) {
        await this.stores.verificationHttp.recordAttemptFailed(
          taken.checkId,
          this.provider.retryDelayMs(taken.attempts),
        );
        continue;
      }
      await this.apply(taken.environment, null, taken.checkId, null, {
        outcome: 'NEEDS_REVIEW',
        reasonCodes: [PROVIDER_UNAVAILABLE],
      });
      done += 1;
    }
    if (!stopped()) done += await this.concludeOverdue();
    return done;
  }

  /**
   * A vendor that accepted a check and never called back would leave it PENDING for ever: after the result time-out
   * the check completes NEEDS_REVIEW with PROVIDER_NO_RESULT (a person decides, or asks for a new check). A callback
   * arriving after that is refused as VERIFICATION_CHECK_COMPLETED, as any second result is.
   */
  private async concludeOverdue(): Promise<number> {
    const overdue = await this.stores.verificationHttp.overdueResults(
      this.provider.name,
      this.provider.resultTimeoutMs,
      OVERDUE_BATCH,
    );
    let concluded = 0;
    for (const { checkId, environment } of overdue) {
      this.log.warn(
        { checkId, reason: PROVIDER_NO_RESULT },
        'the verification vendor sent no result for an accepted check in time; it completes NEEDS_REVIEW',
      );
      try {
        await this.apply(environment, null, checkId, null, {
          outcome: 'NEEDS_REVIEW',
          reasonCodes: [PROVIDER_NO_RESULT],
        });
        concluded += 1;
      } catch (error) {
        // Its callback arrived meanwhile: the result stands, nothing to conclude.
        if (!(error instanceof DomainError && error.code === 'VERIFICATION_CHECK_COMPLETED')) throw error;
      }
    }
    return concluded;
  }

  /**
   * The vendor's callback (POST /{environment}/verification/callback): verified with the Standard Webhooks secret
   * (webhook-id, webhook-timestamp within 5 minutes, webhook-signature) over the raw body before anything is read
   * from it. Refusals, nothing applied: VERIFICATION_CALLBACK_SIGNATURE_INVALID, VALIDATION_FAILED,
   * VERIFICATION_CHECK_NOT_FOUND, VERIFICATION_CHECK_COMPLETED. A webhook-id taken before: 'duplicate'.
   */
  async receiveCallback(
    environment: string,
    rawBody: string,
    headers: Record<string, string | undefined>,
  ): Promise<CallbackAnswer> {
    const webhookHeaders = {
      'webhook-id': headers['webhook-id'] ?? '',
      'webhook-timestamp': headers['webhook-timestamp'] ?? '',
      'webhook-signature': headers['webhook-signature'] ?? '',
    };
    try {
      this.webhook.verify(rawBody, webhookHeaders, { jsonParse: false });
    } catch (error) {
      if (error instanceof WebhookVerificationError) throw verificationCallbackSignatureInvalid();
      throw error;
    }
    if (webhookHeaders['webhook-id'].length > 256) throw verificationCallbackSignatureInvalid();
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const { data } = parseInput(callbackSchema, body);
    if (!isRecordId(data.reference)) throw verificationCheckNotFound();
    const applied = await this.apply(
      environment,
      webhookHeaders['webhook-id'],
      data.reference.toLowerCase(),
      data.providerReference ?? null,
      { outcome: data.outcome, reasonCodes: data.reasonCodes },
    );
    return applied;
  }

  private async apply(
    environment: string,
    webhookId: string | null,
    checkId: string,
    providerReference: string | null,
    result: ProviderResult,
  ): Promise<CallbackAnswer> {
    const name = this.provider.name;
    const application = await this.stores.verificationHttp.applyResult(
      environment,
      name,
      { webhookId, checkId, providerReference },
      (due, state): CheckCompletion => completionOf(result, due, state),
      (due) => systemAudit(name, due.environment, 'customer.verification.result', due.customerId),
      (due) => (businessId) => systemAudit(name, due.environment, 'customer.verification.owner_rejected', businessId),
      this.freezeIn(environment, systemCaller(name, environment)),
    );
    switch (application.outcome) {
      case 'applied':
        return { outcome: 'applied', checkId, status: application.completion.status };
      case 'duplicate':
        return { outcome: 'duplicate' };
      case 'unknown-check':
        throw verificationCheckNotFound();
      case 'already-completed':
        throw verificationCheckCompleted();
    }
  }

  /** The check's fields, the sealed ones opened for this call alone. */
  private submissionOf(taken: SubmissionTaken): CheckSubmission {
    const binding = { environment: taken.environment, customerId: taken.customerId };
    const address = firstAddress(taken.addresses);
    let fields: SubmittedIdentity | SubmittedBusiness;
    if (taken.kind === 'BUSINESS' && taken.business !== null) {
      const b = taken.business;
      fields = {
        legalName: b.legalName,
        taxId: this.opener.open(binding, 'tax_id', b.taxId.keyId, b.taxId.ciphertext),
        address,
        formation: {
          entityType: b.entityType,
          date: b.formationDate,
          state: b.formationState,
          country: b.formationCountry,
        },
      };
    } else {
      fields = {
        name: { first: taken.firstName, middle: taken.middleName, last: taken.lastName },
        dateOfBirth: taken.dateOfBirth,
        address,
        ssn: taken.ssn === null ? null : this.opener.open(binding, 'ssn', taken.ssn.keyId, taken.ssn.ciphertext),
      };
    }
    return {
      reference: taken.checkId,
      environment: taken.environment,
      kind: taken.kind,
      customerType: taken.customerType,
      fields,
    };
  }
}
