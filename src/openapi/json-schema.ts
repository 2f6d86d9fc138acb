import { z } from 'zod';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** Formats whose own validators are exact; zod's accompanying regexes only clutter the reference. */
const SELF_VALIDATING_FORMATS = new Set(['uuid', 'date-time', 'email']);

type Override = NonNullable<z.core.ToJSONSchemaParams['override']>;

/**
 * zod converts a pipe's input side only; when the output side is a string format (`.pipe(z.email())`),
 * that format is what a client must send, so it is published too.
 */
const publishFormats: Override = ({ zodSchema, jsonSchema }) => {
  const def = zodSchema._zod.def;
  if (def.type === 'pipe' && jsonSchema.format === undefined) {
    const format = (def as z.core.$ZodPipeDef).out._zod.def as { format?: unknown };
    if (typeof format.format === 'string') jsonSchema.format = format.format;
  }
  if (typeof jsonSchema.format === 'string' && SELF_VALIDATING_FORMATS.has(jsonSchema.format))
    delete jsonSchema.pattern;
  if (typeof jsonSchema.pattern === 'string') jsonSchema.pattern = withoutUnicodeClasses(jsonSchema.pattern);
};

/**
 * Many JSON Schema tools compile `pattern` without the regex `u` flag, where `\p{Cc}` is a syntax error or
 * means something else. Control characters (Unicode category Cc) are exactly these two ranges.
 */
function withoutUnicodeClasses(pattern: string): string {
  const rewritten = pattern.replaceAll('\\p{Cc}', '\\u0000-\\u001f\\u007f-\\u009f');
  if (/\\[pP]\{/.test(rewritten))
    throw new Error(`Pattern ${pattern} uses a Unicode property class that has no portable equivalent here`);
  return rewritten;
}

const OPTIONS = { target: 'draft-2020-12', io: 'input', override: publishFormats } as const;

function withoutDocumentKeywords(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** One schema, inlined (for parameters and headers). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  return withoutDocumentKeywords(z.toJSONSchema(schema, OPTIONS) as JsonSchema);
}

/**
 * Named schemas as OpenAPI components: a schema nested in another named one becomes a `$ref`, so
 * `Customer.addresses` points at `Address` instead of repeating it.
 */
export function toComponentSchemas(named: ReadonlyMap<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { ...OPTIONS, uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, JsonSchema>;
  };
  const unnamed = Object.keys(schemas).filter((id) => !named.has(id));
  // zod parks schemas that carry a global `id` in a "__shared" document; components must all be named here.
  if (unnamed.length > 0) throw new Error(`Schemas converted without a component name: ${unnamed.join(', ')}`);
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutDocumentKeywords(schema)]));
}
