import { describe, expect, it } from 'vitest';
import {
  builderSchemas,
  CANDIDATE_CHARACTERS,
  exportedDomainSchemas,
  patternAtoms,
  reachablePatterns,
} from './zod-walk.js';

/**
 * Regular-expression denial of service: every pattern an input schema of the domain can run, found by walking the
 * exported schemas, must fail (or match) a 64 KiB value in linear time. The bound is about the regex engine alone:
 * a linear pass over 64 KiB takes well under a millisecond, a quadratic one seconds (the phone pattern
 * `^\+?[0-9 ().-]*[0-9][0-9 ().-]*$` took about 8 s on 65,536 digits and an "x"), so 50 ms is far from both.
 * The HTTP side of the finding is test/security/phone-redos.test.ts.
 */

const INPUT_LENGTH = 64 * 1024;
const BOUND_MS = 50;

const schemas = [...(await exportedDomainSchemas()), ...(await builderSchemas())];
const patterns = reachablePatterns(schemas);

/** `unit` repeated up to 64 KiB (UTF-16 code units), then `tail`. */
const long = (unit: string, tail: string): string => unit.repeat(Math.floor(INPUT_LENGTH / unit.length)) + tail;

/**
 * The adversarial inputs of a pattern: for every character one of its atoms accepts, many of it and then a
 * character none accepts ("many matching chars + one bad char"); for pairs of characters of different atoms,
 * the pair alternating and then a bad character. The classic forms that make overlapping quantifiers backtrack.
 */
function adversarialInputs(pattern: RegExp): string[] {
  const atoms = patternAtoms(pattern);
  const accepts = (char: string) => atoms.some((atom) => atom.test(char));
  const accepted = CANDIDATE_CHARACTERS.filter(accepts);
  const rejected = CANDIDATE_CHARACTERS.filter((char) => !accepts(char));
  const bad = rejected.length > 0 ? [rejected[0]!, ...(rejected.includes('x') ? ['x'] : []), rejected.at(-1)!] : [''];
  const representatives = [
    ...new Set(atoms.flatMap((atom) => accepted.filter((char) => atom.test(char)).slice(0, 2))),
  ].slice(0, 16);
  const inputs: string[] = [];
  for (const char of accepted) for (const tail of new Set(bad)) inputs.push(long(char, tail));
  for (const first of representatives) {
    for (const second of representatives) if (first !== second) inputs.push(long(first + second, bad[0]!));
  }
  return inputs;
}

/**
 * The CPU time (user and system, in ms) that this test's process spent on one call. Not the wall clock: on a busy
 * machine the process waits for a core, and that wait is not the parser's. Each test file runs in its own process
 * (vitest's forks pool), so the time is this call's and V8's own work for it.
 */
function elapsedMs(pattern: RegExp, input: string): number {
  const started = process.cpuUsage();
  pattern.test(input);
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

/** The time of one test; a slow reading that may be noise (a GC pause) is read twice more and the fastest kept. */
function measuredMs(pattern: RegExp, input: string): number {
  const first = elapsedMs(pattern, input);
  // Over the bound, read twice more: a pattern that backtracks is slow every time, a GC pause once.
  if (first <= BOUND_MS) return first;
  return Math.min(first, elapsedMs(pattern, input), elapsedMs(pattern, input));
}

const printable = (input: string): string => {
  const shown = JSON.stringify(input.length > 24 ? `${input.slice(0, 8)}…${input.slice(-4)}` : input);
  return `${shown} (${input.length} code units)`;
};

describe('every regex pattern reachable from the domain schemas', () => {
  it('is found by the walker: a sensible number of patterns, those of the shared builders and the phone number among them', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(30);
    expect(patterns.length).toBeGreaterThanOrEqual(10);
    const sources = patterns.map(({ pattern }) => pattern.source);
    expect(sources).toEqual(
      expect.arrayContaining([
        '^[^\\p{Cc}]*$', // text(): no control characters
        '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$', // upperSnakeCase()
        '^[A-Z]{3}$', // currency
        '^\\d{4}-\\d{2}-\\d{2}$', // date of birth
      ]),
    );
    // The phone number's own patterns, the email format's and the date-time format's.
    const phone = patterns.filter(({ where }) => where.has('customers/customer.schemas.ts › phoneSchema'));
    expect(phone.length).toBeGreaterThanOrEqual(3);
    expect(patterns.some(({ pattern }) => pattern.source.includes('@'))).toBe(true);
    expect(patterns.some(({ pattern }) => pattern.source.includes('T(?:'))).toBe(true);
  });

  it.each(patterns.map((found) => [`/${found.pattern.source}/${found.pattern.flags}`, found] as const))(
    '%s answers each 64 KiB adversarial input within 50 ms',
    (_name, { pattern, where }) => {
      const regex = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
      const inputs = adversarialInputs(regex);
      expect(inputs.length).toBeGreaterThan(0);
      let worst = { ms: 0, input: '' };
      for (const input of inputs) {
        const ms = measuredMs(regex, input);
        if (ms > worst.ms) worst = { ms, input };
        // One slow input is the finding; the others would only take as long again.
        if (ms > BOUND_MS) break;
      }
      expect(
        worst.ms,
        `${printable(worst.input)} took ${worst.ms.toFixed(1)} ms (reached from ${[...where].slice(0, 3).join(', ')})`,
      ).toBeLessThan(BOUND_MS);
    },
  );
});
