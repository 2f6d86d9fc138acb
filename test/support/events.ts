import type pg from 'pg';
import { notNumbered } from '../../src/features/events/event-round-fragments.js';
import type { EventStore } from '../../src/features/events/ports.js';
import { HUNG_TEST_DEADLINE_MS } from './eventually.js';

/** Events after their environment's newest round (src/features/events/event-round-fragments.ts): not numbered yet. */
export const UNNUMBERED = `SELECT count(*)::int AS n FROM events e WHERE ${notNumbered('e')}`;

/**
 * Numbers every event committed so far, as the sequencer job would over a few ticks. One call is not
 * enough in the suite: the sequencer numbers only events older than every transaction still running in the
 * whole cluster, and other test files (other databases, same server) may have one open at that moment.
 * Answers how many events the calls numbered.
 */
export async function sequenceAll(
  events: Pick<EventStore, 'sequence'>,
  pool: pg.Pool,
  timeoutMs = HUNG_TEST_DEADLINE_MS,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let numbered = 0;
  for (;;) {
    numbered += (await events.sequence(1000)).numbered;
    const { rows } = await pool.query<{ n: number }>(UNNUMBERED);
    if (rows[0]!.n === 0) return numbered;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.n} events still unnumbered after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
