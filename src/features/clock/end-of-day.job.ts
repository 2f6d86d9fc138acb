import type { EndOfDayService } from './end-of-day.service.js';
import type { Logger } from '../../logging/logger.js';
import { type IntervalJob, startIntervalJob } from '../../jobs/interval-job.js';

/**
 * The end of day by itself: every `intervalMs` (END_OF_DAY_INTERVAL_MS) each instance looks, for every configured
 * environment, for business dates that have ended by the environment's clock (its midnight in its time zone) and
 * are not closed yet, and closes them in order, so a day missed while the service was down is caught up. Instances
 * running this at once share the work through each day's lease (a day another instance runs is left to it).
 */
export function startEndOfDay(
  endOfDay: Pick<EndOfDayService, 'runDue'>,
  environments: readonly string[],
  intervalMs: number,
  logger: Logger,
): IntervalJob {
  return startIntervalJob(async (stopped) => {
    for (const environment of environments) {
      if (stopped()) return;
      try {
        const pass = await endOfDay.runDue(environment);
        if (pass.ran.length > 0) logger.info({ environment, businessDates: pass.ran }, 'end of day run');
        if (pass.failed !== null)
          logger.warn(
            { environment, businessDate: pass.failed },
            'an end of day failed; it runs again at the next interval (GET /{environment}/end-of-day says which step)',
          );
      } catch (error) {
        logger.warn(
          { environment, err: { message: (error as Error).message } },
          'could not run the end of day; retrying at the next interval',
        );
      }
    }
  }, intervalMs);
}
