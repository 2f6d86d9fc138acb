import { z } from 'zod';
import { type ErrorDetail, validationFailed } from './errors.js';

/**
 * Shared building blocks for input schemas and the translation of zod issues into error details.
 * Messages name the field and the rule, never the submitted value (it may be personal data).
 */

export const NO_CONTROL_CHARACTERS = /^[^\p{Cc}]*$/u;
// With the u flag a paired surrogate is one code point, so this only finds unpaired ones.
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * JSON can carry unpaired UTF-16 surrogates ("\ud800"), which are not text: PostgreSQL refuses them
 * in jsonb and UTF-8 cannot encode them. Refused here, with a message, instead of failing in storage.
 */
export const isWellFormedText = (value: string): boolean => !UNPAIRED_SURROGATE.test(value);
export const WELL_FORMED_MESSAGE = 'Must be valid Unicode text (no unpaired surrogate code units).';

/**
 * Rules for every input schema of the domain, against regular-expression denial of service (docs/security.md):
 * - a length bound comes first and aborts (`maxLength`): a value too long gets that one problem, and no
 *   pattern, refinement or transform (libphonenumber, URL parsing) ever runs on it. What may run before it
 *   (`.trim()`) is linear;
 * - a pattern has no overlapping quantifiers: no `[a]*[a]`, `(a+)+` or `(a|a)*`, so that a failing match is
 *   linear in the value's length whatever the value. test/security/validation-patterns.test.ts walks every
 *   exported schema and times each reachable pattern on 64 KiB adversarial inputs.
 */
export const maxLength = (max: number, message = `Must be at most ${max} characters.`) =>
  ({ message, abort: true }) as const;

/** A required, trimmed, single-line string of 1..max characters. */
export const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
    .trim()
    // abort: an empty value is one problem; rules that follow would only repeat it.
    .min(1, { message: 'Must not be empty.', abort: true })
    .max(max, maxLength(max))
    .regex(NO_CONTROL_CHARACTERS, 'Must not contain control characters.')
    .refine(isWellFormedText, WELL_FORMED_MESSAGE);

/**
 * No control character (Unicode category Cc) but the tab and the line feed: what multi-line text may hold. The two
 * alternatives share no character, so a failing match stays linear.
 */
export const NO_CONTROL_CHARACTERS_BUT_LINES = /^(?:[^\p{Cc}]|[\t\n])*$/u;

/**
 * A required, trimmed, multi-line string of 1..max characters (a case note, docs/adr/0105): line feeds and tabs
 * are kept, every other control character (a carriage return included) is refused.
 */
export const multilineText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
    .trim()
    .min(1, { message: 'Must not be empty.', abort: true })
    .max(max, maxLength(max))
    .regex(NO_CONTROL_CHARACTERS_BUT_LINES, 'Must not contain control characters other than line feeds and tabs.')
    .refine(isWellFormedText, WELL_FORMED_MESSAGE);

/** Upper-case words joined by underscores: CHECKING, MONEY_MARKET, HOME. */
export const upperSnakeCase = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
    .max(max, maxLength(max))
    // Each word after the first starts at its underscore: no two quantifiers can take the same character.
    .regex(
      /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/,
      'Must be upper-case words joined by underscores, e.g. CHECKING or MONEY_MARKET.',
    );

export const list = <T extends z.ZodType>(item: T, max: number, min = 0) =>
  z
    .array(item, { error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be an array.') })
    .min(min, min === 1 ? 'Must contain at least one item.' : `Must contain at least ${min} items.`)
    .max(max, maxLength(max, `Must contain at most ${max} items.`));

/**
 * The instants the service accepts: from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, in UTC once
 * the offset is applied. PostgreSQL has no year 0 ("0000-01-01" is 22008, datetime field overflow), and past
 * year 9999 neither RFC 3339 nor JavaScript's toISOString writes a four-digit year.
 */
export const INSTANT_RANGE = { earliest: '0001-01-01T00:00:00Z', latest: '9999-12-31T23:59:59.999Z' } as const;
const EARLIEST_INSTANT_MS = Date.parse(INSTANT_RANGE.earliest);
const LATEST_INSTANT_MS = Date.parse(INSTANT_RANGE.latest);
export const INSTANT_RANGE_MESSAGE = 'Must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.';
export const INSTANT_FORMAT_MESSAGE = 'Must be an RFC 3339 instant with a time zone, e.g. 2026-12-01T00:00:00Z.';

/** True when `value` (an RFC 3339 instant) is within INSTANT_RANGE. */
export const isInstantInRange = (value: string): boolean => {
  const ms = Date.parse(value);
  return !Number.isNaN(ms) && ms >= EARLIEST_INSTANT_MS && ms <= LATEST_INSTANT_MS;
};

/**
 * The one instant of every input (query strings, bodies, GraphQL filters): RFC 3339 with a time zone (`Z` or an
 * offset), within INSTANT_RANGE (OUT_OF_RANGE otherwise). zod's date-time pattern is anchored and has no
 * overlapping quantifiers; the format aborts, so the range is only read from a well-formed instant.
 */
export const instantSchema = z.iso
  .datetime({ offset: true, error: INSTANT_FORMAT_MESSAGE, abort: true })
  .refine(isInstantInRange, { message: INSTANT_RANGE_MESSAGE, params: { code: 'OUT_OF_RANGE' } });

function detailCode(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'REQUIRED' : 'INVALID_TYPE';
    case 'too_big':
      return issue.origin === 'number' ? 'TOO_LARGE' : 'TOO_LONG';
    case 'too_small':
      return issue.origin === 'number' ? 'TOO_SMALL' : 'TOO_SHORT';
    case 'invalid_format':
      return 'INVALID_FORMAT';
    case 'custom':
      // A refinement may name its code (e.g. OUT_OF_RANGE) in its params.
      return typeof issue.params?.code === 'string' ? issue.params.code : 'INVALID_VALUE';
    default:
      return 'INVALID_VALUE';
  }
}

const fieldName = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** Six digits in a row or more: what an unknown key is not echoed with (docs/adr/0107). */
const LONG_DIGIT_RUN = /\d{6}/;

/** Turns zod issues into error details: one per problem, unknown keys one per key. */
export function toErrorDetails(error: z.ZodError): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  // zod still runs a schema's checks on a value of the wrong type (a string's length against an array's
  // maximum); once a field has the wrong type, that is the only thing worth saying about it.
  const wrongType = new Set(
    error.issues.filter((issue) => issue.code === 'invalid_type').map((issue) => fieldName(issue.path)),
  );
  for (const issue of error.issues) {
    if (issue.code !== 'invalid_type' && wrongType.has(fieldName(issue.path))) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        // A key holding a long run of digits may be a number sent in the wrong place (an account number, an SSN):
        // it is not repeated in the answer, which names the object it is in instead.
        if (LONG_DIGIT_RUN.test(key)) {
          const parent = fieldName(issue.path);
          details.push({
            ...(parent && { field: parent }),
            code: 'UNKNOWN_FIELD',
            message: 'Unknown field, its name (a long run of digits) not repeated here; remove it.',
          });
          continue;
        }
        details.push({
          field: fieldName([...issue.path, key]),
          code: 'UNKNOWN_FIELD',
          message: 'Unknown field; remove it.',
        });
      }
      continue;
    }
    const detail: ErrorDetail = { code: detailCode(issue), message: issue.message };
    const field = fieldName(issue.path);
    if (field) detail.field = field;
    details.push(detail);
  }
  return details;
}

/** Parses `input` with `schema` or throws VALIDATION_FAILED with a detail per problem. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw validationFailed([{ code: 'INVALID_TYPE', message: 'The request body must be a JSON object.' }]);
  }
  // Issues must carry their input: it is how a missing field (REQUIRED) is told from a wrong type.
  // They never leave this function; only code, field and message go into the details.
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw validationFailed(toErrorDetails(result.error));
  return result.data;
}

/** Names of `input`'s own keys that are in `forbidden`, in the order given. */
export const presentKeys = (input: unknown, forbidden: readonly string[]): string[] =>
  typeof input === 'object' && input !== null ? forbidden.filter((key) => Object.hasOwn(input, key)) : [];
