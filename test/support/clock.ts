import { expect } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { auditEventFor } from '../../src/domain/audit-event.js';
import { newId } from '../../src/domain/ids.js';
import { businessDateOf, type EndOfDayService } from '../../src/features/clock/index.js';
import type { Stores } from '../../src/features/ports.js';
import type { DomainHarness } from './domain.js';

/**
 * A Clock that moves only when the test says (StartOptions.clock): `advance` fires, in order, the timers that
 * fall due. What a test proves with it holds however slowly the machine ran, since no wall-clock time decides it.
 */
export class ManualClock implements Clock {
  private current: number;
  private readonly timers = new Set<{ at: number; fire: () => void }>();

  constructor(start = Date.UTC(2030, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  timer(ms: number, fire: () => void): () => void {
    const timer = { at: this.current + ms, fire };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** The timers set and not yet fired or cancelled, as milliseconds until each is due. */
  pending(): number[] {
    return [...this.timers].map((timer) => timer.at - this.current).sort((a, b) => a - b);
  }

  /** Moves the clock `ms` forward, firing each timer due by then, earliest first. */
  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      const due = [...this.timers].filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due);
      this.current = Math.max(this.current, due.at);
      due.fire();
    }
    this.current = until;
  }
}

const DAY_MS = 86_400_000;
/** The time zone of the domain harness's environments (ENVIRONMENT_TIME_ZONES' default). */
const HARNESS_ZONE = 'America/New_York';

const dayAfter = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * Moves the environment's clock `ms` on from `from` (default: its now) without running its end of day (what a
 * service that was down leaves), through the clock store as a sandbox's advance writes it; answers the new now. A
 * caller that computed `ms` from a now it read passes that now: read again, it could fall past a midnight.
 */
export async function moveClock(
  h: DomainHarness,
  clockStore: Stores['clock'],
  environment: string,
  ms: number,
  from?: Date,
): Promise<Date> {
  const now = from ?? (await h.services.clock.now(environment));
  const audit = auditEventFor(h.caller(environment), {
    operation: 'clock.advance',
    resourceType: 'environment_clock',
    resourceId: newId(),
    changedFields: ['now'],
  });
  const to = new Date(now.getTime() + ms);
  expect((await clockStore.advance(environment, to, audit)).outcome).toBe('advanced');
  return to;
}

/**
 * Moves the environment's clock to the day after `date` (its time of day kept) and runs its due end of day since
 * `since`, waiting for any other run: how the end-of-day step tests (interest, fees) close a date on the domain harness.
 */
export async function passThrough(
  h: DomainHarness,
  clockStore: Stores['clock'],
  environment: string,
  date: string,
  since: string,
  endOfDay: EndOfDayService = h.services.endOfDay,
) {
  const now = await h.services.clock.now(environment);
  const today = businessDateOf(now, HARNESS_ZONE);
  const days = Math.round((Date.parse(`${dayAfter(date)}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
  await moveClock(h, clockStore, environment, days * DAY_MS, now);
  return endOfDay.runDue(environment, { since, waitForOthers: true });
}
