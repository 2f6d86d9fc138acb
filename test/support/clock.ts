import type { Clock } from '../../src/clock.js';

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
