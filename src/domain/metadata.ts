import { z } from 'zod';
import { isWellFormedText, WELL_FORMED_MESSAGE } from './validation.js';

/**
 * A client's own reference and annotations on a record (Stripe's `metadata` limits): an `externalId` of
 * 1..128 characters, unique per environment and kind of record (409 EXTERNAL_ID_ALREADY_EXISTS), and
 * `metadata` of at most 50 string keys of at most 40 characters, each value at most 500 characters. Both are
 * answered only when set. Messages name the rule, never the submitted key or value.
 */
export const METADATA_LIMITS = { externalIdLength: 128, keys: 50, keyLength: 40, valueLength: 500 } as const;

const NO_CONTROL_CHARACTERS = /^[^\p{Cc}]*$/u;

export const externalIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
  .min(1, { message: 'Must not be empty.', abort: true })
  .max(METADATA_LIMITS.externalIdLength, `Must be at most ${METADATA_LIMITS.externalIdLength} characters.`)
  .regex(NO_CONTROL_CHARACTERS, 'Must not contain control characters.')
  .refine(isWellFormedText, WELL_FORMED_MESSAGE)
  .describe(`Your own reference for the record, 1 to ${METADATA_LIMITS.externalIdLength} characters, unique per environment and kind of record. Answered only when set.`);

/** A problem with metadata, or null. Keys are the client's text too: no message or field path names one. */
function metadataProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'Must be an object of string keys and string values.';
  const entries = Object.entries(value);
  if (entries.length > METADATA_LIMITS.keys) return `Must have at most ${METADATA_LIMITS.keys} keys.`;
  for (const [key, item] of entries) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) return `Every key must have 1 to ${METADATA_LIMITS.keyLength} characters.`;
    if (!NO_CONTROL_CHARACTERS.test(key) || !isWellFormedText(key)) return 'Keys must be valid text without control characters.';
    if (typeof item !== 'string') return 'Every value must be a string.';
    if (item.length > METADATA_LIMITS.valueLength) return `Every value must be at most ${METADATA_LIMITS.valueLength} characters.`;
    if (!isWellFormedText(item)) return WELL_FORMED_MESSAGE;
  }
  return null;
}

export const metadataSchema = z
  .unknown()
  .superRefine((value, context) => {
    const problem = metadataProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((value): Metadata => ({ ...(value as Metadata) }))
  // What the OpenAPI document shows (the checks above are one function, which JSON Schema cannot see into).
  .meta({
    type: 'object',
    maxProperties: METADATA_LIMITS.keys,
    propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyLength },
    additionalProperties: { type: 'string', maxLength: METADATA_LIMITS.valueLength },
    description: `Your own key-value pairs: at most ${METADATA_LIMITS.keys} keys of at most ${METADATA_LIMITS.keyLength} characters, string values of at most ${METADATA_LIMITS.valueLength}. Answered only when set.`,
  });

export type Metadata = Record<string, string>;
