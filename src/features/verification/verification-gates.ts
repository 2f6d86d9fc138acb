import { verificationRequired } from '../../domain/errors.js';
import type { VerificationHttpStore } from './ports.js';

/**
 * The gates (docs/adr/0104): opt-in per environment (VERIFICATION_REQUIRED; none by default, so the contract's
 * "no restrictions" holds). In a gated environment an account is created only for VERIFIED customers and money
 * posts only on accounts whose customers (every role) are all VERIFIED; else VERIFICATION_REQUIRED (409) naming
 * them. Read just before the write: a status that leaves VERIFIED meanwhile lets that one write through, as if it
 * came an instant earlier; a rejection is strict all the same, since it freezes the accounts under their row locks.
 */
export class VerificationGates {
  private readonly gated: ReadonlySet<string>;

  constructor(
    private readonly store: Pick<VerificationHttpStore, 'unverifiedAmong' | 'unverifiedHoldersOf'>,
    gatedEnvironments: readonly string[],
  ) {
    this.gated = new Set(gatedEnvironments);
  }

  /** Whether the environment is gated (and a rejection there freezes accounts). */
  requiredIn(environment: string): boolean {
    return this.gated.has(environment);
  }

  /** VERIFICATION_REQUIRED unless every customer an account is to be created for is VERIFIED. */
  async assertCustomersVerified(environment: string, customerIds: readonly string[]): Promise<void> {
    if (!this.requiredIn(environment) || customerIds.length === 0) return;
    const unverified = await this.store.unverifiedAmong(environment, customerIds);
    if (unverified.length > 0) throw verificationRequired(unverified);
  }

  /**
   * VERIFICATION_REQUIRED unless every customer of the accounts money would post on is VERIFIED; `more` names further
   * accounts of the posting, asked only here (a reversed transfer's other side).
   */
  async assertHoldersVerified(
    environment: string,
    accountIds: readonly string[],
    more?: () => Promise<readonly string[]>,
  ): Promise<void> {
    if (!this.requiredIn(environment)) return;
    const accounts = [...new Set([...accountIds, ...((await more?.()) ?? [])])];
    if (accounts.length === 0) return;
    const unverified = await this.store.unverifiedHoldersOf(environment, accounts);
    if (unverified.length > 0) throw verificationRequired(unverified);
  }
}

/** What the account and ledger services ask before a write (an ungated environment asks nothing of the database). */
export type VerificationGate = Pick<VerificationGates, 'assertCustomersVerified' | 'assertHoldersVerified'>;

/** No environment gated: a test's harness, or a service built without configuration. */
export const NO_GATES: VerificationGate = {
  assertCustomersVerified: async () => undefined,
  assertHoldersVerified: async () => undefined,
};
