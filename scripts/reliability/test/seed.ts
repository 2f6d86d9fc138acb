/**
 * The seed of the suite's randomised tests: fixed, so every `npm test` sends the same inputs and a failure replays
 * as it happened. Explore other inputs with FUZZ_SEED / RELIABILITY_SEED; `npm run fuzz` and the fault scripts
 * take a fresh seed on every run and print it.
 */
export const DEFAULT_SEED = 20_261_126;
