import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mayTransition,
  TRANSITION_CAUSES,
  TRANSITIONS,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from '../../../src/features/verification/verification-status.js';
import { startTestService, type TestService } from '../../support/service.js';
import { verificationHelpers } from './support.js';

/**
 * The written table of transitions (src/features/verification/verification-status.ts), walked pair by pair: as
 * data (exactly the documented moves), and through the service from every status, for every operation that
 * targets a status (a check request → PENDING, a decision → VERIFIED / REJECTED, a check's result → its outcome):
 * an allowed one succeeds and writes its event and audit row; any other answers 409
 * VERIFICATION_TRANSITION_NOT_ALLOWED and changes nothing.
 */

let service: TestService;
let v: ReturnType<typeof verificationHelpers>;

beforeAll(async () => {
  service = await startTestService({ VERIFICATION_SANDBOX_DELAY_MS: '0', VERIFICATION_JOB_INTERVAL_MS: '3600000' });
  v = verificationHelpers(service);
});
afterAll(async () => service?.stop());

/** The table as docs/verification.md writes it: from → to: causes. */
const DOCUMENTED = [
  'UNVERIFIED → PENDING: check_requested',
  'UNVERIFIED → NEEDS_REVIEW: document_received',
  'PENDING → NEEDS_REVIEW: check_completed',
  'PENDING → VERIFIED: check_completed',
  'PENDING → REJECTED: check_completed',
  'NEEDS_REVIEW → PENDING: check_requested',
  'NEEDS_REVIEW → VERIFIED: decision',
  'NEEDS_REVIEW → REJECTED: decision',
  'VERIFIED → PENDING: check_requested',
  'VERIFIED → NEEDS_REVIEW: owner_rejected',
  'VERIFIED → REJECTED: decision',
  'REJECTED → PENDING: check_requested',
  'REJECTED → VERIFIED: decision',
];

describe('the transition table', () => {
  it('allows exactly the documented moves, each by its cause, and nothing into UNVERIFIED or onto itself', () => {
    const allowed: string[] = [];
    for (const from of VERIFICATION_STATUSES)
      for (const to of VERIFICATION_STATUSES)
        for (const cause of TRANSITION_CAUSES)
          if (mayTransition(from, to, cause)) allowed.push(`${from} → ${to}: ${cause}`);
    expect(allowed.sort()).toEqual([...DOCUMENTED].sort());
    for (const status of VERIFICATION_STATUSES) {
      expect(TRANSITIONS[status][status]).toBeUndefined();
      expect(TRANSITIONS[status].UNVERIFIED).toBeUndefined();
    }
  });
});

/** A person whose verification is `from`, set as a fixture (a PENDING one with its check running). */
async function personIn(from: VerificationStatus, lastName = 'Doe'): Promise<string> {
  const customerId = await v.person(lastName);
  if (from === 'PENDING') expect((await v.requestCheck(customerId)).status).toBe(202);
  else if (from !== 'UNVERIFIED') await v.setStatus(customerId, from);
  return customerId;
}

describe('every (from, to) pair through the service', () => {
  const operations: {
    to: VerificationStatus;
    cause: 'check_requested' | 'decision';
    run: (id: string) => ReturnType<typeof v.get>;
  }[] = [
    { to: 'PENDING', cause: 'check_requested', run: (id) => v.requestCheck(id) },
    { to: 'VERIFIED', cause: 'decision', run: (id) => v.decide(id, { outcome: 'VERIFIED', reason: 'walk' }) },
    { to: 'REJECTED', cause: 'decision', run: (id) => v.decide(id, { outcome: 'REJECTED', reason: 'walk' }) },
  ];
  for (const from of VERIFICATION_STATUSES)
    for (const { to, cause, run } of operations) {
      const allowed = mayTransition(from, to, cause);
      it(`${from} → ${to} by ${cause.replace('_', ' ')}: ${allowed ? 'moves, with its event and audit row' : 'refused, nothing changed'}`, async () => {
        const customerId = await personIn(from);
        if (allowed) {
          const eventsBefore = (await v.events(customerId)).length;
          const auditBefore = (await v.audit(customerId)).length;
          const res = await run(customerId);
          expect(res.status, res.text).toBe(cause === 'check_requested' ? 202 : 200);
          expect((await v.read(customerId)).status).toBe(to);
          const events = await v.events(customerId);
          expect(events).toHaveLength(eventsBefore + 1);
          expect(events.at(-1)!.payload).toEqual({ customerId, status: to, previousStatus: from });
          expect(await v.audit(customerId)).toHaveLength(auditBefore + 1);
        } else {
          const res = await v.expectRefused(() => run(customerId), 409, 'VERIFICATION_TRANSITION_NOT_ALLOWED');
          expect(res.json.error.message).toContain(`that is ${from} cannot become ${to}`);
          expect((await v.read(customerId)).status).toBe(from);
        }
        // Leave no check running for the next pair's job pass.
        await service.jobs.verificationChecks.runOnce();
      });
    }

  for (const [lastName, to] of [
    ['Doe', 'VERIFIED'],
    ['Review', 'NEEDS_REVIEW'],
    ['Reject', 'REJECTED'],
  ] as const)
    it(`PENDING → ${to} by check completed (the sandbox's ${lastName})`, async () => {
      const customerId = await personIn('PENDING', lastName);
      await service.jobs.verificationChecks.runOnce();
      expect((await v.read(customerId)).status).toBe(to);
      expect((await v.events(customerId)).at(-1)!.payload).toEqual({
        customerId,
        status: to,
        previousStatus: 'PENDING',
      });
    });
});
