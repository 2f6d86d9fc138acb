import type { Logger } from '../../logging/logger.js';
import { type IntervalJob, startIntervalJob } from '../../jobs/interval-job.js';
import type { VerificationService } from './verification.service.js';

type CheckCompleter = Pick<VerificationService, 'completeDueChecks'>;

/**
 * Applies the results of due verification checks every `intervalMs` (VERIFICATION_JOB_INTERVAL_MS), on every
 * instance: each check is taken FOR UPDATE SKIP LOCKED and completed in its own transaction with its status
 * change, audit event and event, so instances running this at once never apply one twice. A failure (the
 * database away) waits for the next tick.
 */
export function startVerificationChecks(verification: CheckCompleter, intervalMs: number, logger: Logger): IntervalJob {
  return startIntervalJob(async (stopped) => {
    try {
      const completed = await verification.completeDueChecks(stopped);
      if (completed > 0) logger.info({ completed }, 'verification check results applied');
    } catch (error) {
      logger.warn(
        { err: { message: (error as Error).message } },
        'could not apply verification check results; retrying at the next interval',
      );
    }
  }, intervalMs);
}
