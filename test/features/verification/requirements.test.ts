import { describe, expect, it } from 'vitest';
import type { VerificationCheck, VerificationState } from '../../../src/features/verification/ports.js';
import { requirementsOf, statusAfterCheck } from '../../../src/features/verification/requirements.js';

/**
 * The requirement rules (src/features/verification/requirements.ts, docs/verification.md) on states built by hand:
 * what a decision stands for, how each owner status counts, and where a business's passing check lands.
 */
const DIGESTS = { legalName: 'a', taxId: 'b', address: 'c', formation: 'd' };

const check = (overrides: Partial<VerificationCheck> = {}): VerificationCheck => ({
  checkId: 'k1',
  kind: 'BUSINESS',
  provider: 'sandbox',
  reference: 'sandbox_k1',
  status: 'COMPLETED',
  outcome: 'VERIFIED',
  reasonCodes: [],
  coveredFields: Object.keys(DIGESTS),
  fieldDigests: { ...DIGESTS },
  requestedAt: '2026-12-02T10:00:00.000Z',
  completedAt: '2026-12-02T10:00:02.000Z',
  ...overrides,
});

const business = (overrides: Partial<VerificationState> = {}): VerificationState => ({
  customerId: 'b1',
  customerType: 'BUSINESS',
  status: 'PENDING',
  decision: null,
  checks: [check()],
  currentDigests: { ...DIGESTS },
  owners: [{ customerId: 'o1', prongs: ['CONTROL'], ownershipPercentage: null, status: 'VERIFIED' }],
  documents: [],
  formationDocument: null,
  ...overrides,
});

describe('requirements', () => {
  it("count each owner's status: PENDING and NEEDS_REVIEW pending, UNVERIFIED due, REJECTED due with an error", () => {
    const owners = (['VERIFIED', 'PENDING', 'NEEDS_REVIEW', 'UNVERIFIED', 'REJECTED'] as const).map((status, i) => ({
      customerId: `o${i}`,
      prongs: ['CONTROL'],
      ownershipPercentage: null,
      status,
    }));
    expect(requirementsOf(business({ owners }))).toEqual({
      currentlyDue: ['formation_document', 'owner_verification:o3', 'owner_verification:o4'],
      pendingVerification: ['owner_verification:o1', 'owner_verification:o2'],
      errors: [{ requirement: 'owner_verification:o4', code: 'OWNER_REJECTED', reason: 'This owner was rejected.' }],
    });
  });

  it('count an owner at exactly 25 % by OWNERSHIP alone as a beneficial owner, one below it not', () => {
    const at = (percentage: string) =>
      requirementsOf(
        business({
          owners: [
            { customerId: 'o1', prongs: ['CONTROL'], ownershipPercentage: null, status: 'VERIFIED' },
            { customerId: 'o2', prongs: ['OWNERSHIP'], ownershipPercentage: percentage, status: 'VERIFIED' },
          ],
        }),
      ).currentlyDue;
    expect(at('25.00')).toEqual(['formation_document']);
    expect(at('24.99')).toEqual(['formation_document', 'beneficial_owners']);
  });

  it("take a person's decision for the check only when it came after the check's result", () => {
    const rejected = check({ outcome: 'REJECTED', reasonCodes: ['BUSINESS_NOT_FOUND'] });
    const decided = (decidedAt: string) =>
      requirementsOf(
        business({
          checks: [rejected],
          decision: { outcome: 'VERIFIED', reason: 'ok', decidedBy: 'token:x', decidedAt },
        }),
      ).currentlyDue;
    expect(decided('2026-12-02T11:00:00.000Z')).toEqual(['formation_document']);
    expect(decided('2026-12-01T11:00:00.000Z')).toEqual(['business_check', 'formation_document']);
  });

  it("land a business's passing check on NEEDS_REVIEW while anything else is due (its formation document now)", () => {
    const state = business({ checks: [check({ status: 'PENDING', outcome: null, completedAt: null })] });
    expect(statusAfterCheck(state, { ...check(), outcome: 'VERIFIED' })).toBe('NEEDS_REVIEW');
    expect(statusAfterCheck(state, { ...check(), outcome: 'REJECTED' })).toBe('REJECTED');
    const person: VerificationState = { ...state, customerType: 'INDIVIDUAL', owners: [] };
    expect(statusAfterCheck(person, { ...check({ kind: 'IDENTITY' }), outcome: 'VERIFIED' })).toBe('VERIFIED');
  });
});
