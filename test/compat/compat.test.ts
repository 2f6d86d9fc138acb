import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compatibilityReport,
  type Contract,
  lastRelease,
  readContract,
  readLastRelease,
  readReleasedContract,
  ReleaseBaselineError,
  releaseCommits,
} from '../../scripts/compat/check.js';

/**
 * The compatibility check on deliberate breaking changes to copies of the contract: it fails while the change is
 * undeclared and passes once CHANGELOG.md declares it under a new major version. The last release's contract is
 * read from its git tag (v1.0.0), which must name the commit pinned in scripts/compat/release-commits.json; a clone
 * without the tag reads the pinned commit.
 */
const released = readLastRelease();
const { version } = released;
const changelog = readFileSync('CHANGELOG.md', 'utf8');
/**
 * CHANGELOG.md without the sections of a major version above the last release's: the deliberate changes below are
 * undeclared there, whatever the current contract declares (2.0.0: the shaped answers of the writes).
 */
const releasedMajor = Number(version.split('.')[0]);
const undeclared = changelog
  .split(/(?=^## \[)/m)
  .filter((section) => {
    const heading = /^## \[(\d+)\.\d+\.\d+\]/.exec(section);
    return heading === null || Number(heading[1]) <= releasedMajor;
  })
  .join('');

type OpenApi = {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> };
};

function broken(): Contract {
  const openapi = JSON.parse(released.contract.openapi) as OpenApi;
  delete openapi.paths['/{environment}/customer/{customerId}']!.delete;
  return {
    // An input field disappears from GraphQL (updateCustomer's preferredName); an operation disappears from REST.
    schema: released.contract.schema.replace(/^\s*"[^"\n]*"\n\s*preferredName: String\n/m, '\n'),
    openapi: JSON.stringify(openapi),
  };
}

const declared = (major: string) =>
  undeclared.replace(
    '## [Unreleased]',
    `## [Unreleased]\n\n## [${major}] - 2027-06-01\n\n### Breaking\n\n- \`DELETE /{environment}/customer/{customerId}\` and \`Customer.preferredName\` are removed.\n`,
  );
const withVersion = (contract: Contract, apiVersion: string): Contract => {
  const openapi = JSON.parse(contract.openapi) as OpenApi;
  openapi.info.version = apiVersion;
  return { ...contract, openapi: JSON.stringify(openapi) };
};

describe("the last release's contract, read from its git tag", () => {
  it("is CHANGELOG.md's newest dated version, 1.0.0, at the tag v1.0.0: the commit that declared it", () => {
    expect(lastRelease(changelog)).toBe('1.0.0');
    expect(
      lastRelease('## [Unreleased]\n\n## [2.0.0] - Unreleased\n\n## [1.1.0] - 2026-12-01\n\n## [1.0.0] - 2026-11-26\n'),
    ).toBe('1.1.0');
    expect(() => lastRelease('## [Unreleased]\n')).toThrow(/^COMPAT_NO_RELEASE: /);
    const pinned = releaseCommits['1.0.0']!;
    expect(execFileSync('git', ['show', `${pinned}:CHANGELOG.md`], { encoding: 'utf8' })).toMatch(
      /^## \[1\.0\.0\] - 2026-11-26$/m,
    );
    // A clone with the tags has v1.0.0 on that very commit (readLastRelease above would have refused a moved tag).
    const tagged = spawnSync('git', ['rev-parse', '--verify', '--quiet', 'refs/tags/v1.0.0^{commit}'], {
      encoding: 'utf8',
    });
    if (tagged.status === 0) expect(tagged.stdout.trim()).toBe(pinned);
    expect(JSON.parse(released.contract.openapi).info.version).toBe('1.0.0');
  });

  it('reads the pinned commit in a clone without tags, and refuses a tag that moved', () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), 'cas-compat-repo-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
    try {
      git('init', '-q');
      git('config', 'user.email', 'release@example.test');
      git('config', 'user.name', 'Release');
      writeFileSync(path.join(repo, 'schema.graphql'), 'type Query { released: Int }\n');
      writeFileSync(path.join(repo, 'openapi.json'), '{"info":{"version":"1.0.0"}}\n');
      git('add', '.');
      git('commit', '-qm', 'release 1.0.0');
      const release = git('rev-parse', 'HEAD');
      writeFileSync(path.join(repo, 'schema.graphql'), 'type Query { later: Int }\n');
      git('commit', '-qam', 'later');
      const later = git('rev-parse', 'HEAD');

      // No tag (a --no-tags clone): the pinned commit's contract, not the working tree's.
      expect(readReleasedContract('1.0.0', repo, { '1.0.0': release }).schema).toBe('type Query { released: Int }\n');
      // The tag on the pinned commit: the same contract.
      git('tag', 'v1.0.0', release);
      expect(readReleasedContract('1.0.0', repo, { '1.0.0': release }).schema).toBe('type Query { released: Int }\n');
      // The tag moved to a later commit: refused, whatever the later commit holds.
      git('tag', '-f', 'v1.0.0', later);
      expect(() => readReleasedContract('1.0.0', repo, { '1.0.0': release })).toThrow(
        /^COMPAT_RELEASE_TAG_MOVED: the tag v1\.0\.0 names [0-9a-f]{40}, but 1\.0\.0 was released at /,
      );
      // Neither a tag nor a commit this clone has.
      git('tag', '-d', 'v1.0.0');
      expect(() => readReleasedContract('1.0.0', repo, { '1.0.0': 'f'.repeat(40) })).toThrow(
        /^COMPAT_RELEASE_TAG_MISSING: .*nor its commit f{40}\. Fetch the tags/,
      );
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('fails with a coded error naming the command to fetch the tags when the tag is missing, or outside a clone', () => {
    let error: unknown;
    try {
      readReleasedContract('9.9.9');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReleaseBaselineError);
    expect((error as ReleaseBaselineError).code).toBe('COMPAT_RELEASE_TAG_MISSING');
    expect((error as Error).message).toMatch(
      /no tag v9\.9\.9 in this clone and no commit in scripts\/compat\/release-commits\.json\. Fetch the tags: `git fetch --tags origin`/,
    );

    const outside = mkdtempSync(path.join(os.tmpdir(), 'cas-compat-'));
    try {
      writeFileSync(path.join(outside, 'CHANGELOG.md'), '## [1.0.0] - 2026-11-26\n');
      // GIT_CEILING_DIRECTORIES: git must not find a repository above the temporary directory either.
      const ceiling = process.env.GIT_CEILING_DIRECTORIES;
      process.env.GIT_CEILING_DIRECTORIES = path.dirname(outside);
      try {
        expect(() => readLastRelease(outside)).toThrow(/^COMPAT_NOT_A_GIT_CLONE: /);
      } finally {
        if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
        else process.env.GIT_CEILING_DIRECTORIES = ceiling;
      }
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('the compatibility check (npm run compat)', () => {
  it('passes for the current contract against the last release: compatible, or its breaking changes declared', async () => {
    const report = await compatibilityReport(released, readContract('.'), changelog);
    expect(report.problems).toEqual([]);
    // 2.0.0 declares that a write's answer shows no more than its token could read (CHANGELOG.md).
    if (report.breaking.length > 0) expect(report.declaredIn).toBe('2.0.0');
  });

  it('fails on an undeclared breaking change in the GraphQL schema and in the OpenAPI document, naming both', async () => {
    const contract = broken();
    expect(contract.schema).not.toBe(released.contract.schema);
    const report = await compatibilityReport(released, contract, undeclared);
    expect(report.breaking).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GraphQL: .*preferredName.*removed/),
        expect.stringMatching(/^OpenAPI: .*DELETE \/\{environment\}\/customer\/\{customerId\}/),
      ]),
    );
    expect(report.problems).toEqual([expect.stringContaining('not declared: add a section "## [2.0.0]"')]);
  });

  it('fails when the declaration is in a minor version, or the document keeps the old major version', async () => {
    expect((await compatibilityReport(released, withVersion(broken(), '1.1.0'), declared('1.1.0'))).problems).toEqual([
      expect.stringContaining('not declared'),
    ]);
    expect((await compatibilityReport(released, withVersion(broken(), '1.1.0'), declared('2.0.0'))).problems).toEqual([
      expect.stringContaining('info.version is not in that major version'),
    ]);
  });

  it('passes once CHANGELOG.md declares the change under a new major version and the document carries it', async () => {
    const report = await compatibilityReport(released, withVersion(broken(), '2.0.0'), declared('2.0.0'));
    expect(report.problems).toEqual([]);
    expect(report.declaredIn).toBe('2.0.0');
  });

  it('lets additions through: a new optional field and a new operation are not breaking', async () => {
    const openapi = JSON.parse(released.contract.openapi) as OpenApi;
    openapi.paths['/{environment}/customer/{customerId}/notes'] = {
      get: openapi.paths['/{environment}/customer/{customerId}']!.get,
    };
    const schema = released.contract.schema.replace(
      /^type Query \{\n/m,
      'type Query {\n  "A new field."\n  serviceVersion: String\n',
    );
    expect(schema).not.toBe(released.contract.schema);
    const report = await compatibilityReport(released, { schema, openapi: JSON.stringify(openapi) }, undeclared);
    expect(report.breaking).toEqual([]);
    expect(report.problems).toEqual([]);
  });
});
