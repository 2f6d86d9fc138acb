// Runs `prisma generate` offline. The CLI insists on a schema-engine binary being present even though
// `generate` never runs it, and downloading one is impossible here (see docs/how-to/develop.md, "Prisma offline").
// Pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file satisfies the check.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const cli = fileURLToPath(new URL('../node_modules/prisma/build/index.js', import.meta.url));
const result = spawnSync(process.execPath, [cli, 'generate', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
