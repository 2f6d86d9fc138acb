import type { LedgerService } from './ledger.service.js';
import type { EndOfDayStep } from '../clock/index.js';
import type { Logger } from '../../logging/logger.js';
import { type IntervalJob, startIntervalJob } from '../../jobs/interval-job.js';

/**
 * Voids the holds past their expiry, every `intervalMs`, on every instance: each hold is voided by its
 * own statement, which finds it still pending or leaves it, so instances never void one twice. A run
 * that finds a full batch starts the next at once; a failure (the database away) waits for the next tick.
 * `runOnce` is one such run on demand (RunningService.jobs).
 */
export function startHoldExpiry(
  ledger: Pick<LedgerService, 'voidExpiredHolds'>,
  intervalMs: number,
  logger: Logger,
): IntervalJob {
  return startIntervalJob(async (stopped) => {
    try {
      for (
        let voided = await ledger.voidExpiredHolds();
        voided > 0 && !stopped();
        voided = await ledger.voidExpiredHolds()
      ) {
        logger.info({ voided }, 'expired holds voided');
      }
    } catch (error) {
      logger.warn(
        { err: { message: (error as Error).message } },
        'could not void expired holds; retrying at the next interval',
      );
    }
  }, intervalMs);
}

/**
 * The end of day's hold expiry (docs/adr/0102): voids the environment's holds that expire by the end of the business
 * date, each once (its void finds it still pending, or leaves it; its audit event carries the day's request id).
 */
export const holdExpiryStep = (ledger: Pick<LedgerService, 'voidExpiredHolds'>): EndOfDayStep => ({
  name: 'hold-expiry',
  runBatch: (day) =>
    ledger.voidExpiredHolds({ environment: day.environment, by: day.cutoff, requestId: day.requestId }),
});
