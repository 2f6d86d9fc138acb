import { USAGE, UsageError } from './options.js';
import { killAllChildren } from './processes.js';

/**
 * Runs a bench entry point: on SIGINT/SIGTERM its children are killed and its `cleanups` (a cluster to stop, …) get
 * 10 s before exit 130; a usage error exits 64 with the usage text, any other failure 1.
 */
export function runBenchEntry(
  name: string,
  main: () => Promise<void>,
  cleanups: readonly (() => Promise<void>)[],
): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllChildren();
      const deadline = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
      void Promise.race([Promise.allSettled(cleanups.map((cleanup) => cleanup())), deadline]).then(() =>
        process.exit(130),
      );
    });
  }
  main().catch((error: unknown) => {
    killAllChildren();
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      process.exit(64);
    }
    process.stderr.write(
      `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
