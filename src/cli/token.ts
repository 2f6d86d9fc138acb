import { parseArgs } from 'node:util';
import { type ApiTokenSummary, generateApiToken, isAccessScope } from '../auth/api-tokens.js';
import { type Config, ConfigError, loadConfig } from '../config/config.js';
import { PrismaApiTokenStore } from '../db/api-token.store.js';
import { ACCESS_SCOPES } from '../domain/caller.js';
import { exitWithError, UsageError, withCliDatabase } from './cli-database.js';

const USAGE = `Usage:
  npm run token -- create --name <name> --env <env[,env…]|*> --scopes <scope[,scope…]> [--json]
  npm run token -- list [--json]
  npm run token -- revoke <id>

Scopes: ${ACCESS_SCOPES.join(', ')}.
The secret of a new token is printed once and cannot be shown again; only its SHA-256 digest is stored.`;

const out = (text: string) => process.stdout.write(`${text}\n`);
const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

interface CreateRequest {
  name: string;
  environments: string[];
  scopes: string[];
}

function parseCreate(values: Record<string, string | boolean | undefined>, config: Config): CreateRequest {
  const name = typeof values.name === 'string' ? values.name.trim() : '';
  if (name.length === 0 || name.length > 200 || /\p{Cc}/u.test(name)) throw new UsageError('--name is required: 1–200 characters, e.g. --name "mobile app"');
  const environments = list(values.env as string | undefined);
  if (environments.length === 0) throw new UsageError(`--env is required: one or more of ${config.environments.join(', ')}, or * for all`);
  if (environments.includes('*') && environments.length > 1) throw new UsageError('--env * already means every environment; do not list others with it');
  const unknownEnvironments = environments.filter((env) => env !== '*' && !config.environments.includes(env));
  if (unknownEnvironments.length > 0) throw new UsageError(`--env: unknown environment(s) ${unknownEnvironments.join(', ')}; configured: ${config.environments.join(', ')}`);
  const scopes = [...new Set(list(values.scopes as string | undefined))];
  if (scopes.length === 0) throw new UsageError(`--scopes is required: one or more of ${ACCESS_SCOPES.join(', ')}`);
  const unknownScopes = scopes.filter((scope) => !isAccessScope(scope));
  if (unknownScopes.length > 0) throw new UsageError(`--scopes: unknown scope(s) ${unknownScopes.join(', ')}; known: ${ACCESS_SCOPES.join(', ')}`);
  return { name, environments, scopes };
}

const describe = (token: ApiTokenSummary) => ({
  id: token.id,
  name: token.name,
  environments: token.environments,
  scopes: token.scopes,
  createdAt: token.createdAt.toISOString(),
  lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  revokedAt: token.revokedAt?.toISOString() ?? null,
});

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, env: { type: 'string' }, scopes: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || !['create', 'list', 'revoke'].includes(command)) throw new UsageError(USAGE);
  const config = loadConfig(process.env);
  const request = command === 'create' ? parseCreate(values, config) : undefined;
  if (command === 'revoke' && rest.length !== 1) throw new UsageError('Usage: npm run token -- revoke <id>   (ids are shown by: npm run token -- list)');

  await withCliDatabase(config, async (prisma) => {
    const store = new PrismaApiTokenStore(prisma);
    try {
      if (request) {
        const { id, token, secretHash } = generateApiToken();
        const created = await store.insert({ id, name: request.name, secretHash, environments: request.environments, scopes: request.scopes });
        if (values.json) return out(JSON.stringify({ ...describe(created), token }));
        out(`Created token ${created.id} "${created.name}" for environments ${created.environments.join(', ')} with scopes ${created.scopes.join(', ')}.`);
        out('Copy the token now: it is shown this once and cannot be recovered.\n');
        out(`    ${token}\n`);
        return;
      }
      if (command === 'list') {
        const tokens = (await store.list()).map(describe);
        if (values.json) return out(JSON.stringify(tokens));
        if (tokens.length === 0) return out('No managed tokens. Create one with: npm run token -- create --name … --env … --scopes …');
        for (const token of tokens) {
          const state = token.revokedAt ? `revoked ${token.revokedAt}` : `active, last used ${token.lastUsedAt ?? 'never'}`;
          out(`${token.id}  ${JSON.stringify(token.name)}  env=${token.environments.join(',')}  scopes=${token.scopes.join(',')}  created ${token.createdAt}  ${state}`);
        }
        return;
      }
      const id = rest[0]!;
      const outcome = /^[0-9a-f]{16}$/.test(id) ? await store.revoke(id, new Date()) : 'not-found';
      if (outcome === 'not-found') throw new UsageError(`No token with id ${JSON.stringify(id)}; see npm run token -- list`);
      out(outcome === 'revoked' ? `Revoked token ${id}; it is refused from now on.` : `Token ${id} was already revoked.`);
    } finally {
      await prisma.$disconnect();
    }
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  exitWithError(error, 'token');
});
