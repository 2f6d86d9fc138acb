import {
  customerNotFound,
  verificationProviderNotConfigured,
  verificationTransitionNotAllowed,
} from '../../domain/errors.js';
import { failure } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import {
  verificationAnswerDataSchema,
  verificationCheckAnswerDataSchema,
  verificationDataSchema,
} from './verification.presenter.js';
import { decisionSchema, VERIFICATION_LIMITS } from './verification.schemas.js';

const notFound = failure(
  'CUSTOMER_NOT_FOUND',
  'No customer with this id in this environment (an id that is not a UUID cannot name one).',
  customerNotFound(),
);

const PATH = '/:environment/customer/:customerId/verification';

const REPEAT =
  'a repeat changes nothing (409 VERIFICATION_TRANSITION_NOT_ALLOWED: the status already moved): after a lost answer, read the verification';

/** A customer's verification (docs/adr/0101, docs/verification.md), tagged Customers. */
export const VERIFICATION_ROUTES = [
  {
    operationId: 'getVerification',
    method: 'GET',
    path: PATH,
    family: 'customer',
    tag: 'Customers',
    summary: "Read a customer's verification",
    description:
      "Not in the contract. The status (UNVERIFIED, PENDING, NEEDS_REVIEW, VERIFIED, REJECTED), the requirements derived from the customer's type, checks, decision and (for a business) its owners' statuses, " +
      `the newest ${VERIFICATION_LIMITS.checksListed} checks, the newest 20 documents (metadata only) and the last decision by a person. Never a value a check covered.`,
    scope: 'verification:read',
    success: {
      status: 200,
      description: 'The verification.',
      data: verificationDataSchema,
      component: 'Verification',
    },
    failures: [notFound],
  },
  {
    operationId: 'requestVerificationCheck',
    method: 'POST',
    path: `${PATH}/check`,
    family: 'customer',
    tag: 'Customers',
    summary: 'Ask for a verification check',
    description:
      "Not in the contract. No body. Records a check with the configured provider (VERIFICATION_PROVIDER; the `sandbox` outside production) covering a person's name, date of birth, address and SSN, or a business's legal name, tax id, address and formation, " +
      'and moves the status to PENDING; the result arrives later and moves it again (`customer.verification_updated`). Sandbox magic values (last name or legal name): `Review` → NEEDS_REVIEW, `Reject` → REJECTED (IDENTITY_NOT_FOUND), anything else VERIFIED. ' +
      'Refused while a check runs. Audited (`customer.verification.check`).',
    scope: 'verification:write',
    withoutIdempotencyKey: REPEAT,
    success: {
      status: 202,
      description: 'Recorded: the check, PENDING (its id alone without `verification:read`).',
      data: verificationCheckAnswerDataSchema,
      component: 'VerificationCheckAnswer',
    },
    failures: [
      notFound,
      failure(
        'VERIFICATION_TRANSITION_NOT_ALLOWED',
        'A check already runs (the status is PENDING); nothing changes.',
        verificationTransitionNotAllowed('PENDING', 'PENDING', 'check requested'),
      ),
      failure(
        'VERIFICATION_PROVIDER_NOT_CONFIGURED',
        'VERIFICATION_PROVIDER is none (production, until a real provider is configured); nothing changes.',
        verificationProviderNotConfigured(),
      ),
    ],
  },
  {
    operationId: 'decideVerification',
    method: 'POST',
    path: `${PATH}/decision`,
    family: 'customer',
    tag: 'Customers',
    summary: "Record a person's verification decision",
    description:
      `Not in the contract. \`outcome\`: VERIFIED or REJECTED; \`reason\`: 1–${VERIFICATION_LIMITS.reasonLength} characters, kept and answered (never personal data). ` +
      'A person decides a review (NEEDS_REVIEW), overturns a rejection or rejects what was verified; not while a check runs, not before anything was asked. ' +
      'A rejection sends every VERIFIED business the customer owns or controls back to NEEDS_REVIEW. Audited (`customer.verification.decide`); the event `customer.verification_updated`.',
    scope: 'verification:decide',
    withoutIdempotencyKey: REPEAT,
    requestBody: {
      schema: decisionSchema,
      component: 'VerificationDecisionRequest',
      example: { outcome: 'VERIFIED', reason: 'Passport and utility bill match the application.' },
    },
    success: {
      status: 200,
      description: 'Decided: the verification (the customer id alone without `verification:read`).',
      data: verificationAnswerDataSchema,
      component: 'VerificationAnswer',
    },
    failures: [
      notFound,
      failure(
        'VERIFICATION_TRANSITION_NOT_ALLOWED',
        'The status may not move to the outcome by a decision (e.g. while a check runs, or to the status it has); nothing changes.',
        verificationTransitionNotAllowed('PENDING', 'VERIFIED', 'decision'),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
