import { auditEventFor, type NewAuditEvent } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller, Principal } from '../../domain/caller.js';
import { customerNotFound, verificationProviderNotConfigured } from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import type {
  AccountFreeze,
  CheckCompletion,
  DueCheck,
  VerificationCheck,
  VerificationDecision,
  VerificationDocument,
  VerificationState,
  VerificationStore,
} from './ports.js';
import type { ProviderResult, VerificationProvider } from './providers.js';
import { type Requirements, requirementsOf, statusAfterCheck } from './requirements.js';
import { decisionSchema, VERIFICATION_LIMITS } from './verification.schemas.js';
import { assertTransition, type VerificationStatus } from './verification-status.js';

/** A customer's verification as it is read (GET …/verification, GraphQL `Customer.verification`). */
export interface Verification {
  customerId: string;
  status: VerificationStatus;
  requirements: Requirements;
  /** Newest first, at most VERIFICATION_LIMITS.checksListed. */
  checks: VerificationCheck[];
  /** Its documents' metadata, newest first (docs/adr/0103). */
  documents: VerificationDocument[];
  decision: VerificationDecision | null;
}

/** Who applies a provider's result, as the audit trail names it. */
const providerPrincipal = (provider: string, environment: string): Principal => ({
  id: `system:verification-${provider}`,
  kind: 'system',
  scopes: [],
  environments: [environment],
});

const present = (state: VerificationState): Verification => ({
  customerId: state.customerId,
  status: state.status,
  requirements: requirementsOf(state),
  checks: state.checks,
  documents: state.documents,
  decision: state.decision,
});

/**
 * Customer verification, KYC and KYB (docs/adr/0101-customer-verification.md, docs/verification.md): the status
 * moves only along the table of verification-status.ts, each move audited with its `customer.verification_updated`
 * event; requirements are derived on read. Reading needs `verification:read`, asking for a check
 * `verification:write`, deciding `verification:decide`. Every refusal is coded and changes nothing.
 */
export class VerificationService {
  constructor(
    private readonly stores: { verification: VerificationStore },
    /** null: VERIFICATION_PROVIDER=none, checks are refused and the job has nothing to do. */
    private readonly provider: VerificationProvider | null,
    /**
     * The gates (docs/adr/0104): whether an environment freezes a rejected customer's accounts; and the `http`
     * provider's submissions, which the job runs instead of asking `resultOf`.
     */
    private readonly options: {
      freezesIn?: (environment: string) => boolean;
      submissions?: { submitDueChecks(stopped: () => boolean): Promise<number> };
    } = {},
  ) {}

  /** CUSTOMER_NOT_FOUND for no such customer. */
  async get(caller: Caller, customerId: string): Promise<Verification> {
    authorize(caller, 'verification:read');
    if (!isRecordId(customerId)) throw customerNotFound();
    const [state] = await this.stores.verification.readMany(
      caller.environment,
      [customerId.toLowerCase()],
      VERIFICATION_LIMITS.checksListed,
    );
    if (!state) throw customerNotFound();
    return present(state);
  }

  /** Many customers' verifications at once (GraphQL, batched): in `customerIds` order, null for no such customer. */
  async getMany(caller: Caller, customerIds: readonly string[]): Promise<(Verification | null)[]> {
    authorize(caller, 'verification:read');
    const ids = customerIds.filter(isRecordId).map((id) => id.toLowerCase());
    const states =
      ids.length > 0
        ? await this.stores.verification.readMany(caller.environment, ids, VERIFICATION_LIMITS.checksListed)
        : [];
    const byId = new Map(ids.map((id, i) => [id, states[i] ?? null]));
    return customerIds.map((id) => {
      const state = isRecordId(id) ? byId.get(id.toLowerCase()) : null;
      return state ? present(state) : null;
    });
  }

  /**
   * Records a check with the configured provider (its result arrives later: the verification job) and moves the
   * status to PENDING. Refusals: CUSTOMER_NOT_FOUND, VERIFICATION_TRANSITION_NOT_ALLOWED (a check already runs).
   */
  async requestCheck(caller: Caller, customerId: string): Promise<VerificationCheck> {
    authorize(caller, 'verification:write');
    if (!isRecordId(customerId)) throw customerNotFound();
    const provider = this.provider;
    if (provider === null) throw verificationProviderNotConfigured();
    const id = customerId.toLowerCase();
    const checkId = newId();
    const request = await this.stores.verification.requestCheck(
      caller.environment,
      id,
      {
        checkId,
        provider: provider.name,
        reference: provider.referenceFor(checkId),
        delayMs: provider.resultDelayMs,
        requestedBy: caller.principal.id,
      },
      { audit: verificationAudit(caller, 'customer.verification.check', id, ['checks', 'status']) },
    );
    if (request.outcome === 'not-found') throw customerNotFound();
    if (request.outcome === 'not-allowed') assertTransition(request.from, 'PENDING', 'check_requested');
    if (request.outcome !== 'requested') throw new Error('unreachable: the table allowed what the store refused');
    return request.check;
  }

  /**
   * A person's decision: VERIFIED or REJECTED, with a reason. Refusals: VALIDATION_FAILED, CUSTOMER_NOT_FOUND,
   * VERIFICATION_TRANSITION_NOT_ALLOWED (e.g. while a check runs, or the status it already has). A rejection sends
   * every VERIFIED business the customer owns or controls back to NEEDS_REVIEW, in the same transaction.
   */
  async decide(caller: Caller, customerId: string, input: unknown): Promise<Verification> {
    authorize(caller, 'verification:decide');
    const valid = parseInput(decisionSchema, input);
    if (!isRecordId(customerId)) throw customerNotFound();
    const id = customerId.toLowerCase();
    const recording = await this.stores.verification.decide(
      caller.environment,
      id,
      { outcome: valid.outcome, reason: valid.reason, decidedBy: caller.principal.id },
      { audit: verificationAudit(caller, 'customer.verification.decide', id, ['decision', 'status']) },
      (businessId) => verificationAudit(caller, 'customer.verification.owner_rejected', businessId, ['status']),
      this.freezeIn(caller.environment, caller),
    );
    if (recording.outcome === 'not-found') throw customerNotFound();
    if (recording.outcome === 'not-allowed') assertTransition(recording.from, valid.outcome, 'decision');
    // The verification as decided, as a fact: the surfaces show it to a reader of verifications only (answer-shape.ts).
    const [state] = await this.stores.verification.readMany(caller.environment, [id], VERIFICATION_LIMITS.checksListed);
    if (!state) throw customerNotFound();
    return present(state);
  }

  /**
   * The verification job's pass (verification-checks.job.ts): applies the result of every due check of the
   * configured provider, one transaction each, and answers how many it applied.
   */
  async completeDueChecks(stopped: () => boolean = () => false): Promise<number> {
    const provider = this.provider;
    if (provider === null) return 0;
    const resultOf = provider.resultOf?.bind(provider);
    if (resultOf === undefined) return this.options.submissions?.submitDueChecks(stopped) ?? 0;
    let completed = 0;
    while (!stopped()) {
      const applied = await this.stores.verification.completeDueCheck(
        provider.name,
        (due, state) => completionOf(resultOf(due), due, state),
        (due) => systemAudit(provider.name, due.environment, 'customer.verification.result', due.customerId),
        (due) => (businessId) =>
          systemAudit(provider.name, due.environment, 'customer.verification.owner_rejected', businessId),
        (environment) => this.freezeIn(environment, systemCaller(provider.name, environment)),
      );
      if (!applied) break;
      completed += 1;
    }
    return completed;
  }

  /** In a gated environment, the freeze a rejection by `caller` sets (docs/adr/0104); else none. */
  freezeIn(environment: string, caller: Caller): AccountFreeze | undefined {
    if (this.options.freezesIn?.(environment) !== true) return undefined;
    return {
      setBy: caller.principal.id,
      audit: (accountId) =>
        auditEventFor(caller, {
          operation: 'account.flag.set',
          resourceType: 'account',
          resourceId: accountId,
          changedFields: ['flags'],
        }),
    };
  }
}

/** A provider's result as the job applies it: the status it moves the customer to (statusAfterCheck). */
export function completionOf(result: ProviderResult, due: DueCheck, state: VerificationState): CheckCompletion {
  // The pending check is the customer's newest (one at a time), so the state read with it lists it.
  const check = state.checks.find((candidate) => candidate.checkId === due.checkId);
  if (check === undefined) return { ...result, status: result.outcome };
  const done = {
    ...check,
    status: 'COMPLETED' as const,
    outcome: result.outcome,
    reasonCodes: result.reasonCodes,
    completedAt: new Date().toISOString(),
  };
  return { ...result, status: statusAfterCheck(state, done) };
}

const verificationAudit = (
  caller: Caller,
  operation: NewAuditEvent['operation'],
  customerId: string,
  changedFields: string[],
): NewAuditEvent =>
  auditEventFor(caller, { operation, resourceType: 'customer', resourceId: customerId, changedFields });

export const systemCaller = (provider: string, environment: string): Caller => ({
  principal: providerPrincipal(provider, environment),
  environment,
  requestId: newId(),
});

export function systemAudit(
  provider: string,
  environment: string,
  operation: NewAuditEvent['operation'],
  customerId: string,
): NewAuditEvent {
  return verificationAudit(systemCaller(provider, environment), operation, customerId, ['status']);
}
