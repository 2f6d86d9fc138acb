/**
 * The clock port (docs/adr/0102-environment-clocks-and-end-of-day.md): every rule that turns on time (a hold's
 * expiry, a flag's `until`, a balance's default moment, a period's end) reads its environment's time here,
 * once per operation, never the machine's. Its database half is the SQL function env_now(environment), which
 * the statements that decide on time in the database use instead of now(). The clock feature
 * (src/features/clock) implements it; a sandbox's time may be ahead of the real time, never behind.
 *
 * Not read through it: the real time's own business (token expiry, rate limit windows, leases, timings):
 * src/clock.ts.
 */
export interface EnvironmentTime {
  /** The environment's current time. */
  now(environment: string): Promise<Date>;
}

/** Every environment at the real time: for services built without the clock feature (a unit under test). */
export const realTime: EnvironmentTime = { now: () => Promise.resolve(new Date()) };
