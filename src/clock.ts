/**
 * Time as an input: the parts of the service whose outcome turns on elapsed time, the rate limit
 * windows (src/http/rate-limit.ts) and GraphQL's execution deadline (src/graphql/execution-budget.ts), read
 * it from a Clock instead of the machine's, so a test can advance it (test/support/clock.ts) rather than
 * wait for it. Production uses systemClock.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Calls `fire` once, `ms` from now on this clock; never keeps the process alive. Answers the timer's cancellation. */
  timer(ms: number, fire: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  timer(ms, fire) {
    const timeout = setTimeout(fire, ms);
    timeout.unref();
    return () => clearTimeout(timeout);
  },
};
