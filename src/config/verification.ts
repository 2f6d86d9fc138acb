import { z } from 'zod';
import { integer, type Settings } from './settings.js';

/** The verification providers this release has (docs/adr/0101); `none`: checks are refused. */
export const VERIFICATION_PROVIDERS = ['sandbox', 'none'] as const;

/** Customer verification (docs/verification.md): which provider answers checks, and how the results are applied. */
export const verificationEnv = {
  VERIFICATION_PROVIDER: z
    .enum(VERIFICATION_PROVIDERS, {
      message: `VERIFICATION_PROVIDER must be one of ${VERIFICATION_PROVIDERS.join(', ')}`,
    })
    .optional(),
  VERIFICATION_SANDBOX_DELAY_MS: integer('VERIFICATION_SANDBOX_DELAY_MS', 0, 3_600_000).default(2000),
  VERIFICATION_JOB_INTERVAL_MS: integer('VERIFICATION_JOB_INTERVAL_MS', 100, 3_600_000).default(1000),
};

/**
 * The sandbox is the default outside production and refused in it (its outcomes come from magic names, so it
 * would verify anyone); production has no provider until the `http` one exists, and refuses checks.
 */
export function verificationProblems(raw: Settings<typeof verificationEnv>, nodeEnv: string, problems: string[]): void {
  if (nodeEnv === 'production' && raw.VERIFICATION_PROVIDER === 'sandbox')
    problems.push(
      'VERIFICATION_PROVIDER must not be sandbox in production (NODE_ENV=production): its outcomes come from magic names',
    );
}

export const verificationConfig = (raw: Settings<typeof verificationEnv>, nodeEnv: string) => ({
  verification: {
    /** Who answers checks (VERIFICATION_PROVIDER): the sandbox by default outside production, none in it. */
    provider: raw.VERIFICATION_PROVIDER ?? (nodeEnv === 'production' ? 'none' : 'sandbox'),
    /** How long after a request the sandbox's result is applied (VERIFICATION_SANDBOX_DELAY_MS). */
    sandboxDelayMs: raw.VERIFICATION_SANDBOX_DELAY_MS,
    /** How often each instance applies the results that are due (VERIFICATION_JOB_INTERVAL_MS). */
    jobIntervalMs: raw.VERIFICATION_JOB_INTERVAL_MS,
  },
});
