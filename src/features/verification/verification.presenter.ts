import { z } from 'zod';
import { answerShape } from '../../domain/answer-shape.js';
import type { Caller } from '../../domain/caller.js';
import { recordId } from '../../presenters/record-id.js';
import type { VerificationCheck } from './ports.js';
import { documentDataSchema, presentDocument } from './verification-documents.presenter.js';
import { DECISION_OUTCOMES } from './verification.schemas.js';
import type { Verification } from './verification.service.js';
import { VERIFICATION_STATUSES } from './verification-status.js';

/**
 * What leaves the service of a verification (docs/adr/0101): strict schemas (the OpenAPI document is generated
 * from them) and presenters that copy field by field, so a check's digests or anything added to the domain never
 * reach a client by accident. No field the checks covered is ever answered: only their names.
 */

const instant = z.iso.datetime();

export const verificationCheckDataSchema = z
  .strictObject({
    checkId: recordId,
    kind: z.enum(['IDENTITY', 'BUSINESS']).describe('IDENTITY for a person, BUSINESS for a business.'),
    provider: z.string().describe('The provider that answers it, e.g. `sandbox`.'),
    reference: z.string().describe("The provider's own reference for the check."),
    status: z.enum(['PENDING', 'COMPLETED']),
    outcome: z
      .enum(['VERIFIED', 'NEEDS_REVIEW', 'REJECTED'])
      .nullable()
      .describe("The provider's result; null while PENDING."),
    reasonCodes: z
      .array(z.string())
      .describe("The provider's reason codes, e.g. IDENTITY_NOT_FOUND; empty for a pass."),
    coveredFields: z
      .array(z.string())
      .describe(
        'The fields the check covered (names only): name, dateOfBirth, address, ssn; or legalName, taxId, address, formation.',
      ),
    requestedAt: instant.describe('When it was asked, ISO 8601 UTC.'),
    completedAt: instant.nullable().describe('When its result was applied; null while PENDING.'),
  })
  .describe('One check asked of a verification provider.');

const requirementsDataSchema = z
  .strictObject({
    currentlyDue: z.array(z.string()).describe('What the customer or its client has to provide or ask for now.'),
    pendingVerification: z.array(z.string()).describe('What a check or a person is working on.'),
    errors: z
      .array(
        z.strictObject({
          requirement: z.string(),
          code: z.string().describe('E.g. IDENTITY_NOT_FOUND, VERIFIED_FIELDS_CHANGED, OWNER_REJECTED.'),
          reason: z.string(),
        }),
      )
      .describe('Why a requirement that is due failed.'),
  })
  .describe(
    'Derived on every read (docs/verification.md): identity_check; business_check, formation_document, beneficial_owners, owner_verification:<customerId>.',
  );

const decisionDataSchema = z
  .strictObject({
    outcome: z.enum(DECISION_OUTCOMES),
    reason: z.string(),
    decidedBy: z.string().describe('The principal that decided (as the audit trail names it).'),
    decidedAt: instant,
  })
  .describe("A person's last decision.");

export const verificationDataSchema = z
  .strictObject({
    customerId: recordId,
    status: z.enum(VERIFICATION_STATUSES),
    requirements: requirementsDataSchema,
    checks: z.array(verificationCheckDataSchema).describe('Newest first: at most the newest 20.'),
    documents: z
      .array(documentDataSchema)
      .describe(
        "The customer's documents' metadata, newest first: at most the newest 20 (docs/verification-documents.md).",
      ),
    decision: decisionDataSchema.nullable().describe('Null until a person decided.'),
  })
  .describe("A customer's verification (KYC for a person, KYB for a business).");

/** A decision's answer: the verification with `verification:read`, the customer's id alone without. */
export const verificationAnswerDataSchema = z
  .xor([
    verificationDataSchema,
    z
      .strictObject({ customerId: recordId })
      .describe('For a token without `verification:read`: the customer id only. Read it with `verification:read`.'),
  ])
  .describe('The verification as decided when the token holds `verification:read`; otherwise only the customer id.');

/** A check request's answer (202): the check with `verification:read`, its id alone without. */
export const verificationCheckAnswerDataSchema = z
  .xor([
    verificationCheckDataSchema,
    z.strictObject({ checkId: recordId }).describe('For a token without `verification:read`: the check id only.'),
  ])
  .describe('The check as recorded (PENDING) when the token holds `verification:read`; otherwise only its id.');

export const presentVerificationCheck = (check: VerificationCheck): z.infer<typeof verificationCheckDataSchema> => ({
  checkId: check.checkId,
  kind: check.kind,
  provider: check.provider,
  reference: check.reference,
  status: check.status,
  outcome: check.outcome,
  reasonCodes: [...check.reasonCodes],
  coveredFields: [...check.coveredFields],
  requestedAt: check.requestedAt,
  completedAt: check.completedAt,
});

export const presentVerification = (verification: Verification): z.infer<typeof verificationDataSchema> => ({
  customerId: verification.customerId,
  status: verification.status,
  requirements: {
    currentlyDue: [...verification.requirements.currentlyDue],
    pendingVerification: [...verification.requirements.pendingVerification],
    errors: verification.requirements.errors.map(({ requirement, code, reason }) => ({ requirement, code, reason })),
  },
  checks: verification.checks.map(presentVerificationCheck),
  documents: verification.documents.map(presentDocument),
  decision: verification.decision && {
    outcome: verification.decision.outcome,
    reason: verification.decision.reason,
    decidedBy: verification.decision.decidedBy,
    decidedAt: verification.decision.decidedAt,
  },
});

export const verificationAnswer = (caller: Caller, verification: Verification) =>
  answerShape(caller, 'verification') === 'full'
    ? presentVerification(verification)
    : { customerId: verification.customerId };

export const verificationCheckAnswer = (caller: Caller, check: VerificationCheck) =>
  answerShape(caller, 'verification') === 'full' ? presentVerificationCheck(check) : { checkId: check.checkId };
