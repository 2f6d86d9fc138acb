/**
 * Optimistic concurrency (docs/adr/0057-row-versions-and-etags.md). Every customer and account carries a
 * version that the database moves with every change of what its endpoints answer; a write may be made
 * conditional on it. REST builds its ETag from the version (If-Match), GraphQL takes it as `expectedVersion`.
 */

/** A write applies only while the record's version is one of `versions` (none: it never applies). */
export interface VersionCondition {
  versions: readonly number[];
}

/** The versions a store compares in the write's own statement; null for an unconditional write. */
export const expectedVersions = (condition: VersionCondition | undefined): number[] | null =>
  condition === undefined ? null : [...condition.versions];
