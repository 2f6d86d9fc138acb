import DataLoader from 'dataloader';

/**
 * Look-ups by id from concurrent requests, sent as one batched statement. Every request that asks for a
 * record while the event loop handles the same round of socket reads joins one `findByIds` call (flushed
 * with setImmediate, i.e. right after that round), so Prisma Client's per-call work (request set-up, the
 * interpreter, result mapping: most of a read's CPU, docs/performance.md) is paid once per batch instead
 * of once per request, and PostgreSQL runs one statement. A lone request waits for nothing: its batch
 * leaves in the same event-loop iteration.
 *
 * No cache: each look-up reads the database afresh (a write acknowledged before a read began is always
 * seen). Keys are (environment, id); a batch is split by environment, so no record crosses environments.
 * Authorization stays in the domain, before the look-up.
 */
export class CoalescedReads<T> {
  private readonly loader: DataLoader<string, T | null>;

  constructor(findByIds: (environment: string, ids: readonly string[]) => Promise<T[]>, idOf: (record: T) => string) {
    this.loader = new DataLoader<string, T | null>(
      async (keys) => {
        const idsByEnvironment = new Map<string, string[]>();
        for (const key of keys) {
          const [environment, id] = splitKey(key);
          const ids = idsByEnvironment.get(environment) ?? [];
          ids.push(id);
          idsByEnvironment.set(environment, ids);
        }
        const found = new Map<string, T>();
        await Promise.all(
          [...idsByEnvironment].map(async ([environment, ids]) => {
            for (const record of await findByIds(environment, [...new Set(ids)]))
              found.set(joinKey(environment, idOf(record)), record);
          }),
        );
        return keys.map((key) => found.get(key) ?? null);
      },
      { cache: false, batchScheduleFn: (callback) => setImmediate(callback), maxBatchSize: 100 },
    );
  }

  /** The record with this (lower-case) id in the environment, or null. */
  load(environment: string, id: string): Promise<T | null> {
    return this.loader.load(joinKey(environment, id));
  }
}

// Environment names never contain a NUL character (config.ts allows [a-z0-9-] only).
const joinKey = (environment: string, id: string) => `${environment}\u0000${id}`;
const splitKey = (key: string): [string, string] => {
  const at = key.indexOf('\u0000');
  return [key.slice(0, at), key.slice(at + 1)];
};
