import { z } from 'zod';
import { text } from '../../domain/validation.js';

/** docs/adr/0101: how many checks a verification record lists (the newest), and a decision's reason's length. */
export const VERIFICATION_LIMITS = { checksListed: 20, reasonLength: 500 } as const;

export const DECISION_OUTCOMES = ['VERIFIED', 'REJECTED'] as const;

/** POST …/verification/decision: a person's decision and why (the reason is kept and answered; never personal data). */
export const decisionSchema = z.strictObject({
  outcome: z.enum(DECISION_OUTCOMES, {
    error: (issue) => (issue.input === undefined ? 'Required.' : `Must be one of ${DECISION_OUTCOMES.join(', ')}.`),
  }),
  reason: text(VERIFICATION_LIMITS.reasonLength),
});

export type DecisionInput = z.output<typeof decisionSchema>;
