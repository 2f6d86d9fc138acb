/**
 * Starts `clients` asynchronous clients together: each waits on one barrier, so their first requests
 * leave at the same moment instead of trickling out as the loop creates them.
 */
export async function runClients<T>(clients: number, client: (index: number) => Promise<T>): Promise<T[]> {
  let release!: () => void;
  const barrier = new Promise<void>((resolve) => (release = resolve));
  const running = Array.from({ length: clients }, async (_, index) => {
    await barrier;
    return client(index);
  });
  release();
  return Promise.all(running);
}

/** Wall-clock interval of one request, on the process's monotonic clock. */
export interface Timed<T> {
  startedAt: number;
  endedAt: number;
  value: T;
}

export async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const startedAt = performance.now();
  const value = await work();
  return { startedAt, endedAt: performance.now(), value };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A small deterministic PRNG (mulberry32), so that a failing random schedule can be replayed by its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
