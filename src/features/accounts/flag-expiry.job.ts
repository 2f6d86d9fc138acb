import type { AccountService } from './account.service.js';
import type { EndOfDayStep } from '../clock/index.js';
import type { Logger } from '../../logging/logger.js';
import { type IntervalJob, startIntervalJob } from '../../jobs/interval-job.js';

type FlagLifter = Pick<AccountService, 'liftExpiredFlags'>;

/**
 * One run of the flag expiry: lifts the flags whose `until` has passed, a batch after another while batches
 * come back full of work, and answers how many it lifted. Each flag is lifted by its own statement, which
 * re-checks `until` on the locked rows, so instances running this at once never lift one twice.
 */
export async function liftExpiredFlagsOnce(
  accounts: FlagLifter,
  logger: Logger,
  stopped: () => boolean = () => false,
): Promise<number> {
  let total = 0;
  for (
    let lifted = await accounts.liftExpiredFlags();
    lifted > 0;
    lifted = stopped() ? 0 : await accounts.liftExpiredFlags()
  ) {
    total += lifted;
    logger.info({ lifted }, 'expired account flags lifted');
  }
  return total;
}

/**
 * Lifts expired account flags every `intervalMs` (FLAG_EXPIRY_INTERVAL_MS), on every instance, audited as
 * `system:flag-expiry` with the `account.updated` event a manual clear writes. A failure (the database away)
 * waits for the next tick.
 */
export function startFlagExpiry(accounts: FlagLifter, intervalMs: number, logger: Logger): IntervalJob {
  return startIntervalJob(async (stopped) => {
    try {
      await liftExpiredFlagsOnce(accounts, logger, stopped);
    } catch (error) {
      logger.warn(
        { err: { message: (error as Error).message } },
        'could not lift expired account flags; retrying at the next interval',
      );
    }
  }, intervalMs);
}

/**
 * The end of day's flag lifting (docs/adr/0102): lifts the environment's flags whose `until` falls by the end of the
 * business date, each once (the lift re-checks `until` on the locked rows; its audit event carries the day's request id).
 */
export const flagExpiryStep = (accounts: FlagLifter): EndOfDayStep => ({
  name: 'flag-expiry',
  runBatch: (day) =>
    accounts.liftExpiredFlags({ environment: day.environment, by: day.cutoff, requestId: day.requestId }),
});
