import type {
  CheckKind,
  OwnerVerification,
  VerificationCheck,
  VerificationDecision,
  VerificationState,
} from './ports.js';
import type { VerificationStatus } from './verification-status.js';

/**
 * What a customer still owes its verification, derived on every read from its type, its checks, the last decision
 * and (for a business) its owners' statuses: never stored, so it cannot drift from them (docs/adr/0101,
 * docs/verification.md lists the rules). Names:
 * - `identity_check` (a person): a check covering name, date of birth, address and SSN;
 * - `business_check` (a business): a check covering legal name, tax id, address and formation;
 * - `formation_document` (a business): an APPROVED CERTIFICATE_OF_FORMATION (docs/adr/0103): pending while one
 *   awaits review, due (with DOCUMENT_REJECTED) when every one was rejected;
 * - `beneficial_owners` (a business): its owners listed under the CDD rule: at least one with the CONTROL prong,
 *   and every OWNERSHIP owner at 25 % or more;
 * - `owner_verification:<customerId>` (a business): each listed owner VERIFIED.
 * A requirement is in `currentlyDue` (the customer or its client has to act), or in `pendingVerification`
 * (a check runs, or a person has to review); `errors` tells why a due one failed.
 */

/** The fields each kind of check covers, as stored with the check and digested in SQL (verification.store.ts). */
export const CHECKED_FIELDS: Readonly<Record<CheckKind, readonly string[]>> = {
  IDENTITY: ['name', 'dateOfBirth', 'address', 'ssn'],
  BUSINESS: ['legalName', 'taxId', 'address', 'formation'],
};

/** The CDD rule's ownership threshold (31 CFR 1010.230(d)(1)): 25 %. */
export const OWNERSHIP_THRESHOLD = 25;

export const REQUIREMENT_ERROR_CODES = [
  // The provider did not find or confirm the identity (its reason code is the error's code when it gave one).
  'IDENTITY_NOT_FOUND',
  'BUSINESS_NOT_FOUND',
  // A person rejected it (POST …/verification/decision).
  'REJECTED_BY_REVIEWER',
  // A field the check covered changed since: the reason names which.
  'VERIFIED_FIELDS_CHANGED',
  'CONTROL_PERSON_MISSING',
  'OWNERSHIP_BELOW_THRESHOLD',
  'OWNER_REJECTED',
  // Every certificate of formation uploaded was rejected by a reviewer (docs/adr/0103).
  'DOCUMENT_REJECTED',
] as const;

export interface RequirementError {
  requirement: string;
  code: string;
  reason: string;
}

export interface Requirements {
  currentlyDue: string[];
  pendingVerification: string[];
  errors: RequirementError[];
}

const CHECK_REQUIREMENT: Readonly<Record<CheckKind, string>> = {
  IDENTITY: 'identity_check',
  BUSINESS: 'business_check',
};

export const ownerRequirement = (customerId: string) => `owner_verification:${customerId}`;

/** The fields whose value today is not the one the check covered. */
export function changedFields(check: VerificationCheck, currentDigests: Readonly<Record<string, string>>): string[] {
  return check.coveredFields.filter((field) => check.fieldDigests[field] !== currentDigests[field]);
}

/** A person's decision taken after the check's result, which it then stands for. */
const decidedAfter = (decision: VerificationDecision | null, check: VerificationCheck) =>
  decision !== null && check.completedAt !== null && decision.decidedAt >= check.completedAt ? decision : null;

export function requirementsOf(state: VerificationState): Requirements {
  const requirements: Requirements = { currentlyDue: [], pendingVerification: [], errors: [] };
  const kind: CheckKind = state.customerType === 'BUSINESS' ? 'BUSINESS' : 'IDENTITY';
  checkRequirement(requirements, kind, state);
  if (kind === 'BUSINESS') {
    formationRequirement(requirements, state.formationDocument);
    ownersRequirements(requirements, state.owners);
  }
  return requirements;
}

function checkRequirement(requirements: Requirements, kind: CheckKind, state: VerificationState): void {
  const name = CHECK_REQUIREMENT[kind];
  const latest = state.checks.find((check) => check.kind === kind);
  if (latest === undefined) {
    requirements.currentlyDue.push(name);
    return;
  }
  if (latest.status === 'PENDING') {
    requirements.pendingVerification.push(name);
    return;
  }
  const changed = changedFields(latest, state.currentDigests);
  if (changed.length > 0) {
    requirements.currentlyDue.push(name);
    requirements.errors.push({
      requirement: name,
      code: 'VERIFIED_FIELDS_CHANGED',
      reason: `Changed since the last check: ${changed.join(', ')}. Request a new check.`,
    });
    return;
  }
  const decision = decidedAfter(state.decision, latest);
  if (decision?.outcome === 'VERIFIED' || (decision === null && latest.outcome === 'VERIFIED')) return;
  if (decision?.outcome === 'REJECTED') {
    requirements.currentlyDue.push(name);
    requirements.errors.push({ requirement: name, code: 'REJECTED_BY_REVIEWER', reason: 'A reviewer rejected it.' });
    return;
  }
  if (latest.outcome === 'NEEDS_REVIEW') {
    requirements.pendingVerification.push(name);
    return;
  }
  requirements.currentlyDue.push(name);
  requirements.errors.push({
    requirement: name,
    code: latest.reasonCodes[0] ?? (kind === 'BUSINESS' ? 'BUSINESS_NOT_FOUND' : 'IDENTITY_NOT_FOUND'),
    reason: 'The provider could not verify the fields the check covered.',
  });
}

function formationRequirement(requirements: Requirements, formation: VerificationState['formationDocument']): void {
  if (formation === 'APPROVED') return;
  if (formation === 'RECEIVED') {
    requirements.pendingVerification.push('formation_document');
    return;
  }
  requirements.currentlyDue.push('formation_document');
  if (formation === 'REJECTED')
    requirements.errors.push({
      requirement: 'formation_document',
      code: 'DOCUMENT_REJECTED',
      reason: 'A reviewer rejected every certificate of formation uploaded: upload a new one.',
    });
}

function ownersRequirements(requirements: Requirements, owners: readonly OwnerVerification[]): void {
  const belowThreshold = owners.filter(
    (owner) =>
      !owner.prongs.includes('CONTROL') &&
      owner.ownershipPercentage !== null &&
      Number(owner.ownershipPercentage) < OWNERSHIP_THRESHOLD,
  );
  const hasControl = owners.some((owner) => owner.prongs.includes('CONTROL'));
  if (!hasControl || belowThreshold.length > 0) requirements.currentlyDue.push('beneficial_owners');
  if (!hasControl)
    requirements.errors.push({
      requirement: 'beneficial_owners',
      code: 'CONTROL_PERSON_MISSING',
      reason: 'List at least one beneficial owner with the CONTROL prong.',
    });
  for (const owner of belowThreshold)
    requirements.errors.push({
      requirement: 'beneficial_owners',
      code: 'OWNERSHIP_BELOW_THRESHOLD',
      reason: `Owner ${owner.customerId} owns less than ${OWNERSHIP_THRESHOLD} % and has no CONTROL prong: not a beneficial owner under the CDD rule.`,
    });
  for (const owner of owners) ownerVerificationRequirement(requirements, owner.customerId, owner.status);
}

function ownerVerificationRequirement(
  requirements: Requirements,
  customerId: string,
  status: VerificationStatus,
): void {
  const name = ownerRequirement(customerId);
  switch (status) {
    case 'VERIFIED':
      return;
    case 'PENDING':
    case 'NEEDS_REVIEW':
      requirements.pendingVerification.push(name);
      return;
    case 'REJECTED':
      requirements.currentlyDue.push(name);
      requirements.errors.push({ requirement: name, code: 'OWNER_REJECTED', reason: 'This owner was rejected.' });
      return;
    case 'UNVERIFIED':
      requirements.currentlyDue.push(name);
  }
}

/**
 * The status a completed check moves its customer to. A person's follows the check's outcome. A business's
 * VERIFIED outcome makes it VERIFIED only when nothing else is due or pending (its owners, its formation
 * document); otherwise a person reviews the rest (NEEDS_REVIEW).
 */
export function statusAfterCheck(
  state: VerificationState,
  completed: VerificationCheck & { outcome: NonNullable<VerificationCheck['outcome']> },
): VerificationStatus {
  if (completed.outcome !== 'VERIFIED' || state.customerType !== 'BUSINESS') return completed.outcome;
  const after = requirementsOf({
    ...state,
    checks: [completed, ...state.checks.filter((check) => check.checkId !== completed.checkId)],
  });
  return after.currentlyDue.length === 0 && after.pendingVerification.length === 0 ? 'VERIFIED' : 'NEEDS_REVIEW';
}
