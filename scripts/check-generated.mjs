// Fails when committed generated files are stale: re-generates them and compares.
// - GraphQL resolver types (src/graphql/generated), the TypeScript client's typed GraphQL documents
//   (packages/client/src/generated/graphql.ts) and the console's typed documents (console/src/gql), by
//   `npm run codegen`, when they exist;
// - the OpenAPI document (openapi.json) and the TypeScript client's REST types and operation facts
//   (packages/client/src/generated/, also the types of test/openapi/typed-client.test.ts), by `npm run openapi`;
// - the reliability tables of docs/results/reliability.md, from docs/reliability-results.json, by
//   `npm run reliability:tables`;
// - the benchmark's tables (bench/results/latest.md, which docs/performance.md links), from the stored
//   full run's JSON in bench/results, by `npm run bench:tables` (it renders; it never measures);
// - the configuration reference and the error catalogue (docs/reference/), from the code, by
//   `npm run docs:reference`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const generators = [
  { script: 'codegen', files: ['src/graphql/generated/resolvers-types.ts', 'packages/client/src/generated/graphql.ts', 'console/src/gql/gql.ts', 'console/src/gql/graphql.ts', 'console/src/gql/index.ts'].filter((file) => existsSync(file)) },
  {
    script: 'openapi',
    files: ['openapi.json', 'packages/client/src/generated/rest.ts', 'packages/client/src/generated/operations.ts'],
  },
  { script: 'reliability:tables', files: ['docs/results/reliability.md'] },
  { script: 'bench:tables', files: ['bench/results/latest.md'] },
  { script: 'docs:reference', files: ['docs/reference/configuration.md', 'docs/reference/errors.md'] },
].filter((generator) => generator.files.length > 0);

const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
const targets = [...new Set(generators.flatMap((generator) => generator.files))];
const before = new Map(targets.map((file) => [file, read(file)]));
for (const { script } of generators) {
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const stale = targets.filter((file) => read(file) !== before.get(file));
if (stale.length > 0) {
  process.stderr.write(`Generated files were stale and have been regenerated: ${stale.join(', ')}. Commit them.\n`);
  process.exit(1);
}
process.stdout.write(`Generated files up to date (${targets.length} checked).\n`);
