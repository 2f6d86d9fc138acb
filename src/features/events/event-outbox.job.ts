import type { EventStore } from './ports.js';
import type { Logger } from '../../logging/logger.js';
import { type IntervalJob, startIntervalJob } from '../../jobs/interval-job.js';

const SEQUENCE_BATCH = 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Rounds per environment and statement: a round is one sequencer batch at most (SEQUENCE_BATCH events). */
const PRUNE_ROUNDS = 20;

/**
 * The outbox's housekeeping on every instance: number newly committed events every `sequencerIntervalMs`
 * (one instance at a time does it: its transaction takes an advisory lock, the others skip), and prune
 * events older than the retention hourly. A failure (the database away) waits for the next tick.
 */
export function startEventOutbox(
  events: Pick<EventStore, 'sequence' | 'prune'>,
  options: {
    sequencerIntervalMs: number;
    retentionDays: number;
    /** Events were numbered; `forWebhooks`: in an environment with webhook endpoints (SequencerRound). */
    onSequenced?: (numbered: { forWebhooks: boolean }) => void;
  },
  logger: Logger,
): IntervalJob {
  let lastPrune = 0;
  let failing = false;
  return startIntervalJob(async (stopped) => {
    try {
      let sequenced = 0;
      let forWebhooks = false;
      for (;;) {
        const round = await events.sequence(SEQUENCE_BATCH);
        sequenced += round.numbered;
        forWebhooks ||= round.forWebhooks;
        // A full batch: more are waiting.
        if (round.numbered < SEQUENCE_BATCH || stopped()) break;
      }
      // Newly numbered events: the event feed and the webhook fan-out need not wait for their own poll.
      if (sequenced > 0) options.onSequenced?.({ forWebhooks });
      if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        const before = new Date(Date.now() - options.retentionDays * 24 * 60 * 60 * 1000);
        while (!stopped() && (await events.prune(before, PRUNE_ROUNDS)).rounds > 0) {
          // Keep going while batches come back full.
        }
      }
      failing = false;
    } catch (error) {
      // Logged once per outage, not ten times a second.
      if (!failing)
        logger.warn({ err: { message: (error as Error).message } }, 'could not number or prune events; retrying');
      failing = true;
    }
  }, options.sequencerIntervalMs);
}
