import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatibilityReport, type Contract, lastRelease, readContract, RELEASES_DIR } from '../../scripts/compat/check.js';

/**
 * The compatibility check on deliberate breaking changes to copies of the contract: it fails while the change is
 * undeclared and passes once CHANGELOG.md declares it under a new major version.
 */
const version = lastRelease();
const released = { version, contract: readContract(path.join(RELEASES_DIR, version)) };
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

type OpenApi = { info: { version: string }; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> } };

function broken(): Contract {
  const openapi = JSON.parse(released.contract.openapi) as OpenApi;
  delete openapi.paths['/{environment}/customer/{customerId}']!.delete;
  return {
    // An input field disappears from GraphQL (updateCustomer's preferredName); an operation disappears from REST.
    schema: released.contract.schema.replace(/^\s*"[^"\n]*"\n\s*preferredName: String\n/m, '\n'),
    openapi: JSON.stringify(openapi),
  };
}

const declared = (major: string) => undeclared.replace('## [Unreleased]', `## [Unreleased]\n\n## [${major}] - 2027-06-01\n\n### Breaking\n\n- \`DELETE /{environment}/customer/{customerId}\` and \`Customer.preferredName\` are removed.\n`);
const withVersion = (contract: Contract, apiVersion: string): Contract => {
  const openapi = JSON.parse(contract.openapi) as OpenApi;
  openapi.info.version = apiVersion;
  return { ...contract, openapi: JSON.stringify(openapi) };
};

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
    expect(report.breaking).toEqual(expect.arrayContaining([expect.stringMatching(/^GraphQL: .*preferredName.*removed/), expect.stringMatching(/^OpenAPI: .*DELETE \/\{environment\}\/customer\/\{customerId\}/)]));
    expect(report.problems).toEqual([expect.stringContaining('not declared: add a section "## [2.0.0]"')]);
  });

  it('fails when the declaration is in a minor version, or the document keeps the old major version', async () => {
    expect((await compatibilityReport(released, withVersion(broken(), '1.1.0'), declared('1.1.0'))).problems).toEqual([expect.stringContaining('not declared')]);
    expect((await compatibilityReport(released, withVersion(broken(), '1.1.0'), declared('2.0.0'))).problems).toEqual([expect.stringContaining("info.version is not in that major version")]);
  });

  it('passes once CHANGELOG.md declares the change under a new major version and the document carries it', async () => {
    const report = await compatibilityReport(released, withVersion(broken(), '2.0.0'), declared('2.0.0'));
    expect(report.problems).toEqual([]);
    expect(report.declaredIn).toBe('2.0.0');
  });

  it('lets additions through: a new optional field and a new operation are not breaking', async () => {
    const openapi = JSON.parse(released.contract.openapi) as OpenApi;
    openapi.paths['/{environment}/customer/{customerId}/notes'] = { get: openapi.paths['/{environment}/customer/{customerId}']!.get };
    const schema = released.contract.schema.replace(/^type Query \{\n/m, 'type Query {\n  "A new field."\n  serviceVersion: String\n');
    expect(schema).not.toBe(released.contract.schema);
    const report = await compatibilityReport(released, { schema, openapi: JSON.stringify(openapi) }, undeclared);
    expect(report.breaking).toEqual([]);
    expect(report.problems).toEqual([]);
  });
});
