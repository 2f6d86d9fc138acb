import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CriticalityLevel, diff as graphqlDiff } from '@graphql-inspector/core';
import { apiDiff } from 'api-smart-diff';
import { buildSchema } from 'graphql';

/**
 * The compatibility check (`npm run compat`, in CI after lint and typecheck; docs/adr/0063-versions-changelog-deprecation.md):
 * schema.graphql against the last release's with @graphql-inspector/core, openapi.json against its with
 * api-smart-diff. A breaking change passes only when CHANGELOG.md declares it: a version section of a new
 * major version (above the last release's) with a non-empty `### Breaking` list, and openapi.json's
 * info.version in that major version.
 *
 * The last release is CHANGELOG.md's newest dated version section (`## [1.0.0] - 2026-11-26`); its contract is read
 * from the git tag the release created, `v<version>` (`git show v1.0.0:openapi.json`; docs/how-to/release.md), not
 * from a copy in the tree. Each release's commit is also pinned in scripts/compat/release-commits.json: a tag that
 * names another commit fails (COMPAT_RELEASE_TAG_MOVED), and a clone that lacks the tags (`--no-tags`, a fetch of
 * one branch) reads the pinned commit, which every full clone has. Only a release with neither fails, with
 * COMPAT_RELEASE_TAG_MISSING, naming the command that fetches the tags.
 */
export const RELEASE_TAG_PREFIX = 'v';
export const releaseTag = (version: string) => `${RELEASE_TAG_PREFIX}${version}`;

/** Why the last release's contract cannot be read: the check cannot run (exit code 2), which is not a breaking change. */
export class ReleaseBaselineError extends Error {
  constructor(
    readonly code:
      | 'COMPAT_NO_RELEASE'
      | 'COMPAT_NOT_A_GIT_CLONE'
      | 'COMPAT_RELEASE_TAG_MISSING'
      | 'COMPAT_RELEASE_TAG_MOVED'
      | 'COMPAT_RELEASE_UNREADABLE',
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'ReleaseBaselineError';
  }
}

export interface Contract {
  /** schema.graphql's text. */
  schema: string;
  /** openapi.json's text. */
  openapi: string;
}

export interface CompatibilityReport {
  released: string;
  breaking: string[];
  /** What the diff tool could not classify: printed for review, never failing. */
  unclassified: string[];
  /** The new major version that declares the breaking changes, if any does. */
  declaredIn: string | undefined;
  problems: string[];
}

type Version = [number, number, number];
const parseVersion = (text: string): Version | undefined => {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
};
const compareVersions = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The newest released version of a Keep a Changelog file: a `## [x.y.z] - YYYY-MM-DD` section (not `- Unreleased`). */
export function lastRelease(changelog: string): string {
  const versions = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}\s*$/gm)].map(
    (match) => match[1]!,
  );
  versions.sort((a, b) => compareVersions(parseVersion(a)!, parseVersion(b)!));
  const newest = versions.at(-1);
  if (newest === undefined)
    throw new ReleaseBaselineError(
      'COMPAT_NO_RELEASE',
      'CHANGELOG.md has no released version (a section "## [x.y.z] - YYYY-MM-DD").',
    );
  return newest;
}

/** The contract in the working tree `root`. */
export function readContract(root: string): Contract {
  return {
    schema: readFileSync(path.join(root, 'schema.graphql'), 'utf8'),
    openapi: readFileSync(path.join(root, 'openapi.json'), 'utf8'),
  };
}

const FETCH_TAGS = 'git fetch --tags origin';

function git(root: string, args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The commit of each release (version → commit), written when the release is tagged (docs/how-to/release.md). */
export const releaseCommits: Readonly<Record<string, string>> = JSON.parse(
  readFileSync(fileURLToPath(new URL('./release-commits.json', import.meta.url)), 'utf8'),
) as Record<string, string>;

function hasCommit(root: string, commit: string): boolean {
  try {
    git(root, ['cat-file', '-e', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** The contract a release shipped, read from its tag in the repository of `root` (`git show v1.0.0:openapi.json`). */
export function readReleasedContract(
  version: string,
  root = '.',
  pins: Readonly<Record<string, string>> = releaseCommits,
): Contract {
  const tag = releaseTag(version);
  try {
    git(root, ['rev-parse', '--git-dir']);
  } catch {
    throw new ReleaseBaselineError(
      'COMPAT_NOT_A_GIT_CLONE',
      `${path.resolve(root)} is not in a git clone: the contract of ${version} is read from its tag ${tag}.`,
    );
  }
  let tagged: string | undefined;
  try {
    tagged = git(root, ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`]).trim();
  } catch {
    tagged = undefined;
  }
  const pinned = pins[version];
  if (tagged !== undefined && pinned !== undefined && tagged !== pinned) {
    throw new ReleaseBaselineError(
      'COMPAT_RELEASE_TAG_MOVED',
      `the tag ${tag} names ${tagged}, but ${version} was released at ${pinned} (scripts/compat/release-commits.json): a release's tag never moves.`,
    );
  }
  const commit = tagged ?? (pinned !== undefined && hasCommit(root, pinned) ? pinned : undefined);
  if (commit === undefined) {
    throw new ReleaseBaselineError(
      'COMPAT_RELEASE_TAG_MISSING',
      `the last release, ${version} (CHANGELOG.md), has no tag ${tag} in this clone` +
        (pinned === undefined
          ? ' and no commit in scripts/compat/release-commits.json'
          : `, nor its commit ${pinned}`) +
        `. Fetch the tags: \`${FETCH_TAGS}\` ` +
        '(a clone made with --no-tags, or a fetch of one branch, lacks them). Each release creates its tag (docs/how-to/release.md).',
    );
  }
  const show = (file: string) => {
    try {
      return git(root, ['show', `${commit}:${file}`]);
    } catch {
      throw new ReleaseBaselineError(
        'COMPAT_RELEASE_UNREADABLE',
        `${file} cannot be read at ${tag} (${commit}): in a shallow clone, \`git fetch --unshallow --tags origin\`.`,
      );
    }
  };
  return { schema: show('schema.graphql'), openapi: show('openapi.json') };
}

/** The last release (CHANGELOG.md) and its contract (its tag). */
export function readLastRelease(root = '.'): { version: string; contract: Contract } {
  const version = lastRelease(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'));
  return { version, contract: readReleasedContract(version, root) };
}

/** Each `## [x.y.z]` section of a Keep a Changelog file, with its `### Breaking` items. */
export function changelogSections(changelog: string): { version: string; breaking: string[] }[] {
  const sections: { version: string; breaking: string[] }[] = [];
  let current: { version: string; breaking: string[] } | undefined;
  let inBreaking = false;
  for (const line of changelog.split('\n')) {
    const heading = /^## \[([^\]]+)\]/.exec(line);
    if (heading) {
      current = { version: heading[1]!, breaking: [] };
      sections.push(current);
      inBreaking = false;
    } else if (/^### /.test(line)) {
      inBreaking = /^### Breaking\b/i.test(line);
    } else if (inBreaking && current && /^\s*[-*] \S/.test(line)) {
      current.breaking.push(line.trim().slice(2));
    }
  }
  return sections;
}

/**
 * A value added to an enum the service answers (an error code, an audit operation): not breaking here, as at
 * Stripe. Clients must accept codes and values they do not know (docs/adr/0063-versions-changelog-deprecation.md);
 * the diff tool counts it as breaking for clients that switch exhaustively. A value removed, or one added to
 * what a request may send, stays breaking.
 */
function isNewValueOfAnsweredEnum(change: { action: string; path: readonly (string | number)[] }): boolean {
  const at = change.path.lastIndexOf('enum');
  return change.action === 'add' && change.path.includes('responses') && at >= 0 && at === change.path.length - 2;
}

export async function compatibilityReport(
  released: { version: string; contract: Contract },
  current: Contract,
  changelog: string,
): Promise<CompatibilityReport> {
  const breaking: string[] = [];
  const unclassified: string[] = [];
  const schemaChanges = await graphqlDiff(buildSchema(released.contract.schema), buildSchema(current.schema));
  for (const change of schemaChanges) {
    if (change.criticality.level === CriticalityLevel.Breaking) breaking.push(`GraphQL: ${change.message}`);
  }
  for (const change of apiDiff(JSON.parse(released.contract.openapi), JSON.parse(current.openapi))) {
    const where = change.path.join(' ');
    if (change.type === 'breaking' && isNewValueOfAnsweredEnum(change)) continue;
    if (change.type === 'breaking') breaking.push(`OpenAPI: ${change.description ?? `${change.action} ${where}`}`);
    else if (change.type === 'unclassified') unclassified.push(`OpenAPI: ${change.action} ${where}`);
  }

  const problems: string[] = [];
  const releasedVersion = parseVersion(released.version)!;
  const declaring = changelogSections(changelog).find((section) => {
    const version = parseVersion(section.version);
    return version !== undefined && version[0] > releasedVersion[0] && section.breaking.length > 0;
  });
  if (breaking.length > 0) {
    if (declaring === undefined) {
      problems.push(
        `${breaking.length} breaking change(s) since ${released.version}, not declared: add a section "## [${releasedVersion[0] + 1}.0.0]" ` +
          'to CHANGELOG.md with a "### Breaking" list naming them (or make the change compatible).',
      );
    } else {
      const documentVersion = parseVersion(
        String((JSON.parse(current.openapi) as { info: { version: string } }).info.version),
      );
      if (documentVersion === undefined || documentVersion[0] !== parseVersion(declaring.version)![0]) {
        problems.push(
          `the breaking changes are declared under ${declaring.version}, but openapi.json's info.version is not in that major version (API_VERSION in src/openapi/document.ts)`,
        );
      }
    }
  }
  return {
    released: released.version,
    breaking,
    unclassified,
    declaredIn: breaking.length > 0 ? declaring?.version : undefined,
    problems,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let released: { version: string; contract: Contract };
  try {
    released = readLastRelease();
  } catch (error) {
    if (!(error instanceof ReleaseBaselineError)) throw error;
    process.stderr.write(`compat: ${error.message}\n`);
    process.exit(2);
  }
  const { version } = released;
  const report = await compatibilityReport(released, readContract('.'), readFileSync('CHANGELOG.md', 'utf8'));
  for (const change of report.breaking) process.stdout.write(`breaking: ${change}\n`);
  for (const change of report.unclassified) process.stdout.write(`to review (unclassified): ${change}\n`);
  if (report.problems.length > 0) {
    for (const problem of report.problems) process.stderr.write(`compat: ${problem}\n`);
    process.exit(1);
  }
  process.stdout.write(
    report.breaking.length === 0
      ? `Compatible with ${version}: no breaking change in schema.graphql or openapi.json.\n`
      : `${report.breaking.length} breaking change(s) since ${version}, declared under ${report.declaredIn} in CHANGELOG.md.\n`,
  );
}
