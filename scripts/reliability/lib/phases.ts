import { performance } from 'node:perf_hooks';

/**
 * The phases of a fault script (healthy, fault, healed, …): which one is current, for the load loop to tag
 * each request with, and when each began (performance.now()), to measure recovery from it. `describe` adds
 * the state worth logging on entry (free disk, proxy counters).
 */
export function phaseClock<Phase extends string>(first: Phase, log: (line: string) => void, describe: () => string) {
  let current = first;
  const startedAt: Partial<Record<Phase, number>> = {};
  const enter = (next: Phase) => {
    current = next;
    startedAt[next] = performance.now();
    log(`phase ${next} (${describe()})`);
  };
  return {
    enter,
    current: (): Phase => current,
    /** When the phase began; throws for a phase not entered yet (a script's bug, not a result). */
    startOf(phase: Phase): number {
      const at = startedAt[phase];
      if (at === undefined) throw new Error(`phase ${phase} has not begun`);
      return at;
    },
  };
}
