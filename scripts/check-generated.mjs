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
//   `npm run docs:reference`;
// - the final SQL text of the hand-written statements, one `<module>.sql` beside each src module declaring them,
//   by `npm run sql:generate`: found, not listed (every .sql file under src, before and after), so a missing file and one
//   left without its module (which the generator removes) count as stale too.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const generators = [
  {
    script: 'codegen',
    files: [
      'src/graphql/generated/resolvers-types.ts',
      'packages/client/src/generated/graphql.ts',
      'console/src/gql/gql.ts',
      'console/src/gql/graphql.ts',
      'console/src/gql/index.ts',
    ].filter((file) => existsSync(file)),
  },
  {
    script: 'openapi',
    files: ['openapi.json', 'packages/client/src/generated/rest.ts', 'packages/client/src/generated/operations.ts'],
  },
  { script: 'reliability:tables', files: ['docs/results/reliability.md'] },
  { script: 'bench:tables', files: ['bench/results/latest.md'] },
  {
    script: 'docs:reference',
    files: [
      'docs/reference/configuration.md',
      'docs/reference/configuration-features.md',
      'docs/reference/errors.md',
      'docs/reference/errors-request.md',
    ],
  },
  // Runs even when no file exists yet: its files are found, not listed.
  { script: 'sql:generate', files: sqlFiles(), found: true },
].filter((generator) => generator.found || generator.files.length > 0);

// Every .sql file under src: the generated SQL files (scripts/sql-generate.ts), wherever their modules live.
function sqlFiles() {
  return readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.sql'))
    .map((file) => `src/${file.replaceAll('\\', '/')}`);
}

const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
const targets = [...new Set(generators.flatMap((generator) => generator.files))];
const before = new Map(targets.map((file) => [file, read(file)]));
for (const { script } of generators) {
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
for (const file of sqlFiles()) if (!before.has(file)) targets.push(file);
const stale = targets.filter((file) => read(file) !== before.get(file));
if (stale.length > 0) {
  process.stderr.write(`Generated files were stale and have been regenerated: ${stale.join(', ')}. Commit them.\n`);
  process.exit(1);
}
process.stdout.write(`Generated files up to date (${targets.length} checked).\n`);
