// Fails when committed generated files are stale: re-generates them into memory and compares.
// Today: the GraphQL resolver types (src/graphql/generated). Run `npm run codegen` to refresh.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const targets = ['src/graphql/generated/resolvers-types.ts'].filter((file) => existsSync(file));
const before = new Map(targets.map((file) => [file, readFileSync(file, 'utf8')]));
if (targets.length > 0) {
  const result = spawnSync('npm', ['run', '--silent', 'codegen'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const stale = targets.filter((file) => readFileSync(file, 'utf8') !== before.get(file));
if (stale.length > 0) {
  process.stderr.write(`Generated files were stale and have been regenerated: ${stale.join(', ')}. Commit them.\n`);
  process.exit(1);
}
process.stdout.write(`Generated files up to date (${targets.length} checked).\n`);
