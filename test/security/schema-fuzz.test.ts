import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  builderSchemas,
  CANDIDATE_CHARACTERS,
  exportedDomainSchemas,
  patternAtoms,
  reachableSchemas,
} from './zod-walk.js';

/**
 * A fuzz pass over every input schema of the domain for time per input: values shaped like the schema (its
 * objects' keys, arrays, unions), whose strings are adversarial: up to 64 KiB (the body limit) of characters the
 * schema's patterns accept, repeated, with a rejecting character or none at the end, or short strings of control
 * characters, unpaired surrogates and other Unicode. Each safeParse must return (never throw) within 50 ms: a
 * bound about a linear parse of 64 KiB, far from its real cost (well under a millisecond) and far below a
 * superlinear one (seconds). Fixed seed and modest numRuns: deterministic, a few seconds in all.
 */

const SEED = 20_261_201;
const NUM_RUNS = 30;
const BOUND_MS = 50;
const MAX_LENGTH = 64 * 1024;

const schemas = [...(await exportedDomainSchemas()), ...(await builderSchemas())];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Def = Record<string, any>;
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

const ODD_CHARACTERS = [
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u200b',
  '\ufeff',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  ' ',
  '\t',
  '\n',
];

/** The characters a string schema's patterns accept (every pattern reachable from it), plus the odd ones. */
function alphabetOf(schema: z.ZodType): string[] {
  const patterns: RegExp[] = [];
  for (const reached of reachableSchemas(schema)) {
    const def = defOf(reached);
    if (def.pattern instanceof RegExp) patterns.push(def.pattern);
    for (const check of (def.checks ?? []) as unknown[])
      if (defOf(check).pattern instanceof RegExp) patterns.push(defOf(check).pattern as RegExp);
  }
  const atoms = patterns.flatMap(patternAtoms);
  const accepted = CANDIDATE_CHARACTERS.filter((char) => atoms.some((atom) => atom.test(char)));
  return [...new Set([...accepted, ...ODD_CHARACTERS, '0', 'a', 'A', '-', ':', '.', '@', '+'])];
}

/**
 * Any UTF-16 code units, lone surrogates included, and astral code points. (fast-check's `unit: 'binary'` builds
 * its tables on first use, which takes seconds; this is the same set, cheaply.)
 */
const anyUnits = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
    fc.integer({ min: 0x10000, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  ),
  maxLength: 64,
});

/** Strings against one alphabet: long repetitions of a short unit (with a tail), or short mixtures. */
function adversarialString(alphabet: readonly string[]): fc.Arbitrary<string> {
  const char = fc.constantFrom(...alphabet);
  const long = fc
    .tuple(
      fc.array(char, { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 1, max: MAX_LENGTH }),
      fc.option(char, { nil: '' }),
    )
    .map(([unit, length, tail]) => {
      const text = unit.join('');
      return text.repeat(Math.ceil(length / text.length)).slice(0, length) + tail;
    });
  const short = fc.string({ unit: char, maxLength: 64 });
  return fc.oneof({ arbitrary: long, weight: 3 }, { arbitrary: short, weight: 2 }, { arbitrary: anyUnits, weight: 1 });
}

/** A value shaped like `schema`: what a client could send, with adversarial strings wherever a string goes. */
function shapedLike(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (child: unknown) => shapedLike(child as z.ZodType, depth + 1);
  if (depth > 6) return fc.constant(undefined);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return fc.record(Object.fromEntries(Object.entries(shape).map(([key, child]) => [key, inner(child)])), {
        requiredKeys: [],
      });
    }
    case 'array':
      return fc.array(inner(def.element), { maxLength: 3 });
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(inner));
    case 'pipe':
      return inner(def.in);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return fc.oneof(fc.constantFrom(undefined, null), inner(def.innerType));
    case 'record':
      return fc.dictionary(
        adversarialString(ODD_CHARACTERS.concat(['k', 'e', 'y'])),
        fc.oneof(adversarialString(alphabetOf(schema)), fc.constant(null)),
        { maxKeys: 4 },
      );
    case 'enum':
      return fc.oneof(
        fc.constantFrom(...Object.values(def.entries as Record<string, string>)),
        adversarialString(alphabetOf(schema)),
      );
    case 'number':
      return fc.oneof(fc.integer(), fc.double(), adversarialString(['0', '1', '9', '.', '-', 'e']));
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 0, 1));
    case 'string':
    default:
      return adversarialString(alphabetOf(schema));
  }
}

/**
 * The CPU time (user and system, in ms) that this test's process spent on one call. Not the wall clock: on a busy
 * machine the process waits for a core, and that wait is not the parser's. Each test file runs in its own process
 * (vitest's forks pool), so the time is this call's and V8's own work for it.
 */
function elapsedMs(schema: z.ZodType, input: unknown): number {
  const started = process.cpuUsage();
  schema.safeParse(input, { reportInput: true });
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

/** One parse's time; a slow reading that may be noise (a GC pause) is read twice more and the fastest kept. */
function measuredMs(schema: z.ZodType, input: unknown): number {
  const first = elapsedMs(schema, input);
  // Over the bound, read twice more: a pattern that backtracks is slow every time, a GC pause once.
  if (first <= BOUND_MS) return first;
  return Math.min(first, elapsedMs(schema, input), elapsedMs(schema, input));
}

describe('every exported input schema of the domain, fuzzed with adversarial strings', () => {
  it('finds the schemas', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(30);
  });

  it.each(schemas.map((entry) => [entry.name, entry.schema] as const))(
    '%s parses each input within 50 ms, never throwing',
    (_name, schema) => {
      // zod compiles an object's parser on its first use (a few milliseconds): not what is measured.
      for (const warmUp of [undefined, {}, '', 'x']) schema.safeParse(warmUp);
      const input = fc.oneof(
        { arbitrary: shapedLike(schema), weight: 9 },
        { arbitrary: fc.anything({ maxDepth: 2 }), weight: 1 },
      );
      fc.assert(
        fc.property(input, (value) => {
          const ms = measuredMs(schema, value);
          expect(ms, `safeParse took ${ms.toFixed(1)} ms`).toBeLessThan(BOUND_MS);
        }),
        { seed: SEED, numRuns: NUM_RUNS },
      );
    },
  );
});
