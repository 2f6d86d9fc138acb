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

/** A required, trimmed, single-line string of 1..max characters. */
export const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
    .trim()
    // abort: an empty value is one problem; rules that follow would only repeat it.
    .min(1, { message: 'Must not be empty.', abort: true })
    .max(max, `Must be at most ${max} characters.`)
    .regex(NO_CONTROL_CHARACTERS, 'Must not contain control characters.')
    .refine(isWellFormedText, WELL_FORMED_MESSAGE);

/** Upper-case words joined by underscores: CHECKING, MONEY_MARKET, HOME. */
export const upperSnakeCase = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
    .max(max, `Must be at most ${max} characters.`)
    .regex(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/, 'Must be upper-case words joined by underscores, e.g. CHECKING or MONEY_MARKET.');

export const list = <T extends z.ZodType>(item: T, max: number, min = 0) =>
  z
    .array(item, { error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be an array.') })
    .min(min, min === 1 ? 'Must contain at least one item.' : `Must contain at least ${min} items.`)
    .max(max, `Must contain at most ${max} items.`);

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
    default:
      return 'INVALID_VALUE';
  }
}

const fieldName = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** Turns zod issues into error details: one per problem, unknown keys one per key. */
export function toErrorDetails(error: z.ZodError): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  // zod still runs a schema's checks on a value of the wrong type (a string's length against an array's
  // maximum); once a field has the wrong type, that is the only thing worth saying about it.
  const wrongType = new Set(error.issues.filter((issue) => issue.code === 'invalid_type').map((issue) => fieldName(issue.path)));
  for (const issue of error.issues) {
    if (issue.code !== 'invalid_type' && wrongType.has(fieldName(issue.path))) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({ field: fieldName([...issue.path, key]), code: 'UNKNOWN_FIELD', message: 'Unknown field; remove it.' });
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
