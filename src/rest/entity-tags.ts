import { validationFailed } from '../domain/errors.js';
import type { VersionCondition } from '../domain/versions.js';

/**
 * Entity tags and the conditional requests of RFC 9110 §13 for customers and accounts
 * (docs/adr/0057-row-versions-and-etags.md). A tag is strong and names the record and its version,
 * `"<id>.<version>"`: nothing else (no field of the record, nothing personal), and a tag of one record can
 * never match another's.
 */

export const entityTag = (id: string, version: number): string => `"${id.toLowerCase()}.${version}"`;

interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** `*`, or the list's tags; undefined when the field is absent, 'malformed' when it is not RFC 9110 syntax. */
type EntityTagField = '*' | EntityTag[] | 'malformed' | undefined;

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** Parses If-Match / If-None-Match: `*` or a comma-separated list of entity tags (empty elements allowed, §5.6.1). */
export function parseEntityTags(field: string | undefined): EntityTagField {
  if (field === undefined) return undefined;
  const trimmed = field.trim();
  if (trimmed === '*') return '*';
  const tags: EntityTag[] = [];
  for (const element of trimmed.split(',')) {
    const candidate = element.trim();
    if (candidate === '') continue;
    const match = ENTITY_TAG.exec(candidate);
    if (!match) return 'malformed';
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
  }
  return tags.length === 0 ? 'malformed' : tags;
}

/**
 * If-Match on a PUT or DELETE of the record `id`, as the condition the write compares in its own statement:
 * undefined (unconditional) without the field or with `*` (the record must exist, which the write checks anyway:
 * 404 otherwise); else the versions of the strong tags naming this record (strong comparison, §8.8.3.2: a weak
 * tag never matches), possibly none, so the write answers 412. A malformed field is refused (400): ignoring
 * it would turn a conditional write into an unconditional one.
 */
export function ifMatchCondition(field: string | undefined, id: string): VersionCondition | undefined {
  const parsed = parseEntityTags(field);
  if (parsed === undefined || parsed === '*') return undefined;
  if (parsed === 'malformed') {
    throw validationFailed([
      {
        field: 'If-Match',
        code: 'INVALID_FORMAT',
        message: 'If-Match must be * or a list of entity tags, each in double quotes, as the ETag header gives them.',
      },
    ]);
  }
  const prefix = `${id.toLowerCase()}.`;
  const versions = parsed
    .filter((tag) => !tag.weak && tag.opaque.startsWith(prefix) && /^\d{1,10}$/.test(tag.opaque.slice(prefix.length)))
    .map((tag) => Number(tag.opaque.slice(prefix.length)));
  return { versions };
}

/**
 * If-None-Match on a GET: true when the record's current tag is listed (weak comparison, §13.1.2) or the field is
 * `*`, so the answer is 304. A malformed field is ignored (the full answer is as safe as without it).
 */
export function notModified(field: string | undefined, currentTag: string): boolean {
  const parsed = parseEntityTags(field);
  if (parsed === undefined || parsed === 'malformed') return false;
  if (parsed === '*') return true;
  return parsed.some((tag) => `"${tag.opaque}"` === currentTag);
}
