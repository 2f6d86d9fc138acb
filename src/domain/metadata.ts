import { z } from 'zod';
import { isWellFormedText, maxLength, NO_CONTROL_CHARACTERS, WELL_FORMED_MESSAGE } from './validation.js';

/**
 * A client's own id and key-value pairs on customers and accounts (docs/adr/0055-external-ids-and-metadata.md).
 * Stripe's limits: at most 50 keys of at most 40 characters, each value a string of at most 500. Metadata is
 * for the client's references, never personal data (the docs say so, as Stripe's do); still, no error message
 * ever repeats a submitted key or value: a problem with a key names its position, a problem with a value
 * names its key only once the key itself is valid.
 */
export const METADATA_LIMITS = {
  /** Also the CHECK of migration 20261204000000_external_ids_and_metadata, which counts what an update leaves. */
  keys: 50,
  keyLength: 40,
  valueLength: 500,
} as const;

export const EXTERNAL_ID_LENGTH = 128;

/** Set key-value pairs; a record without any has none (absent, never `{}`). */
export type Metadata = Readonly<Record<string, string>>;

/** What an update does to the stored metadata: a string sets the key, null removes it; keys not named stay. */
export type MetadataChanges = Readonly<Record<string, string | null>>;

/** An external id: 1 to 128 characters, kept exactly as sent (no trimming: it is the client's key). */
export const externalIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be a string.') })
  .min(1, { message: 'Must not be empty.', abort: true })
  .max(EXTERNAL_ID_LENGTH, maxLength(EXTERNAL_ID_LENGTH))
  .regex(NO_CONTROL_CHARACTERS, 'Must not contain control characters.')
  .refine(isWellFormedText, WELL_FORMED_MESSAGE)
  .describe(
    `The client's own id for the record, 1 to ${EXTERNAL_ID_LENGTH} characters, unique per environment and kind.`,
  );

// jsonb cannot hold U+0000; values may hold any other text (line breaks too).
const hasNoNul = (value: string): boolean => !value.includes(String.fromCharCode(0));

/** How a metadata object is read: on creation and in filters every value is a string; an update may also remove. */
type Mode = 'create' | 'update' | 'filter';

function checkMetadata(mode: Mode) {
  return (metadata: Record<string, unknown>, ctx: z.core.$RefinementCtx<Record<string, unknown>>) => {
    const entries = Object.entries(metadata);
    if (entries.length > METADATA_LIMITS.keys) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'object',
        maximum: METADATA_LIMITS.keys,
        inclusive: true,
        input: metadata,
        message: `Must have at most ${METADATA_LIMITS.keys} keys.`,
      });
    }
    entries.forEach(([key, value], index) => {
      const position = `Key ${index + 1} (in the order sent)`;
      if (key.length === 0) {
        ctx.addIssue({
          code: 'too_small',
          origin: 'string',
          minimum: 1,
          inclusive: true,
          input: key,
          message: `${position} must not be empty.`,
        });
        return;
      }
      if (key.length > METADATA_LIMITS.keyLength) {
        ctx.addIssue({
          code: 'too_big',
          origin: 'string',
          maximum: METADATA_LIMITS.keyLength,
          inclusive: true,
          input: key,
          message: `${position} must be at most ${METADATA_LIMITS.keyLength} characters.`,
        });
        return;
      }
      if (!NO_CONTROL_CHARACTERS.test(key) || !isWellFormedText(key)) {
        ctx.addIssue({ code: 'custom', input: key, message: `${position} must be text without control characters.` });
        return;
      }
      const removes = value === null || value === '';
      if (removes && mode !== 'filter') return;
      if (typeof value !== 'string') {
        const rule =
          mode === 'filter' ? 'Must be a string.' : 'Must be a string (an empty string or null removes the key).';
        ctx.addIssue({ code: 'invalid_type', expected: 'string', input: value, path: [key], message: rule });
      } else if (value.length === 0) {
        ctx.addIssue({
          code: 'too_small',
          origin: 'string',
          minimum: 1,
          inclusive: true,
          input: value,
          path: [key],
          message: 'Must not be empty: stored values never are.',
        });
      } else if (value.length > METADATA_LIMITS.valueLength) {
        ctx.addIssue({
          code: 'too_big',
          origin: 'string',
          maximum: METADATA_LIMITS.valueLength,
          inclusive: true,
          input: value,
          path: [key],
          message: `Must be at most ${METADATA_LIMITS.valueLength} characters.`,
        });
      } else if (!hasNoNul(value) || !isWellFormedText(value)) {
        ctx.addIssue({
          code: 'custom',
          input: value,
          path: [key],
          message: 'Must be valid Unicode text without U+0000.',
        });
      }
    });
  };
}

/** What the published schemas say (zod cannot express the per-key rules above in JSON Schema by itself). */
const published = (nullableValues: boolean) => ({
  propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyLength },
  additionalProperties: nullableValues
    ? { anyOf: [{ type: 'string', maxLength: METADATA_LIMITS.valueLength }, { type: 'null' }] }
    : { type: 'string', maxLength: METADATA_LIMITS.valueLength },
  maxProperties: METADATA_LIMITS.keys,
});

const metadataObject = (mode: Mode) =>
  z
    .record(z.string(), z.unknown(), { error: 'Must be an object of string keys and string values.' })
    .superRefine(checkMetadata(mode));

/** On creation: an empty string or null (nothing to remove yet) sets nothing; no pairs at all is no metadata. */
export const metadataSchema = metadataObject('create')
  .transform((metadata): Metadata | undefined => {
    const set = Object.entries(metadata).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    );
    return set.length === 0 ? undefined : Object.fromEntries(set);
  })
  .meta({
    ...published(true),
    description: `The client's key-value pairs: at most ${METADATA_LIMITS.keys} keys of at most ${METADATA_LIMITS.keyLength} characters, each value a string of at most ${METADATA_LIMITS.valueLength}. Never personal data.`,
  });

/** On an update: merged into the stored pairs; an empty string or null removes its key. */
export const metadataChangesSchema = metadataObject('update')
  .transform((metadata): MetadataChanges =>
    Object.fromEntries(
      Object.entries(metadata).map(([key, value]) => [key, value === '' ? null : (value as string | null)]),
    ),
  )
  .meta({
    ...published(true),
    description: `Merged into the stored pairs: a string sets its key, an empty string or null removes it, keys not sent stay; \`"metadata": null\` removes them all. At most ${METADATA_LIMITS.keys} keys remain.`,
  });

/** As a filter: every given key must have exactly the given value. */
export const metadataFilterSchema = metadataObject('filter')
  .transform((metadata) => metadata as Metadata)
  .meta({
    ...published(false),
    description: 'Records whose metadata has each given key with exactly the given value.',
  });

/** The query string's `metadata[key]=value` parameters (Express's simple parser leaves the brackets in the name), gathered into one object. */
export function withMetadataFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const key = /^metadata\[([^[\]]*)\]$/.exec(name)?.[1];
    if (key === undefined) rest[name] = value;
    else metadata[key] = value;
  }
  return Object.keys(metadata).length === 0 ? rest : { ...rest, metadata };
}

/** The problem a store reports when an update's merge would leave more keys than allowed (the database's CHECK). */
export const TOO_MANY_METADATA_KEYS = {
  field: 'metadata',
  code: 'TOO_LONG',
  message: `The record would have more than ${METADATA_LIMITS.keys} metadata keys; remove some (an empty string or null removes a key).`,
} as const;
