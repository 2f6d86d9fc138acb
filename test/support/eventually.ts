/**
 * How long `eventually` and the test receivers wait at most: only to stop a test that hangs (an event that
 * never comes), never to decide an outcome, so it is minutes, however slow the machine. A test waits for
 * the event itself (a row, a request, a job's completion) and fails on what it reads, not on the time.
 */
export const HUNG_TEST_DEADLINE_MS = 120_000;

/**
 * Reads until `accept` takes the value, and answers it; after `timeoutMs` (a hung test: minutes by default)
 * answers the last value read, so that the test's assertion on it says what was missing.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = HUNG_TEST_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
