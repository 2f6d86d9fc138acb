import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  apiTokenAuditEvents,
  type ApiTokenSummary,
  generateApiToken,
  isAccessScope,
  PrismaApiTokenStore,
} from '../features/tokens/index.js';
import { type Config, ConfigError, loadConfig } from '../config/config.js';
import { ACCESS_SCOPES, type PostingLimits, type Principal } from '../domain/caller.js';
import { exitWithError, UsageError, withCliDatabase } from './cli-database.js';
import { expiryFrom, limitsFrom } from './token-options.js';

const USAGE = `Usage:
  npm run token -- create --name <name> --env <env[,env…]|*> --scopes <scope[,scope…]>
                          [--expires-in <n>d|<n>h|<n>m] [--max-amount <decimal>] [--daily-limit <currency>:<decimal>]… [--json]
  npm run token -- list [--json]
  npm run token -- revoke <id>

Scopes: ${ACCESS_SCOPES.join(', ')}.
--expires-in: the token is refused from then on (e.g. 90d). --max-amount: the largest amount of one posting;
--daily-limit (repeatable): the most the token may post per UTC day in that currency. Both apply to deposits,
withdrawals, transfers and posting a hold; reversals and voids are not limited.
The secret of a new token is printed once and cannot be shown again; only its SHA-256 digest is stored.
Creating and revoking a token are recorded in the audit trail (principal cli:token), once per environment it grants.`;

/** Who the audit trail names for what this command does: the operator at the command line. */
const CLI_PRINCIPAL: Principal = { id: 'cli:token', kind: 'static-token', scopes: [], environments: '*' };

const out = (text: string) => process.stdout.write(`${text}\n`);
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

interface CreateRequest {
  name: string;
  environments: string[];
  scopes: string[];
  expiresAt: Date | null;
  limits: PostingLimits | undefined;
}

function parseCreate(values: Record<string, string | string[] | boolean | undefined>, config: Config): CreateRequest {
  const name = typeof values.name === 'string' ? values.name.trim() : '';
  if (name.length === 0 || name.length > 200 || /\p{Cc}/u.test(name))
    throw new UsageError('--name is required: 1–200 characters, e.g. --name "mobile app"');
  const environments = list(values.env as string | undefined);
  if (environments.length === 0)
    throw new UsageError(`--env is required: one or more of ${config.environments.join(', ')}, or * for all`);
  if (environments.includes('*') && environments.length > 1)
    throw new UsageError('--env * already means every environment; do not list others with it');
  const unknownEnvironments = environments.filter((env) => env !== '*' && !config.environments.includes(env));
  if (unknownEnvironments.length > 0)
    throw new UsageError(
      `--env: unknown environment(s) ${unknownEnvironments.join(', ')}; configured: ${config.environments.join(', ')}`,
    );
  const scopes = [...new Set(list(values.scopes as string | undefined))];
  if (scopes.length === 0) throw new UsageError(`--scopes is required: one or more of ${ACCESS_SCOPES.join(', ')}`);
  const unknownScopes = scopes.filter((scope) => !isAccessScope(scope));
  if (unknownScopes.length > 0)
    throw new UsageError(`--scopes: unknown scope(s) ${unknownScopes.join(', ')}; known: ${ACCESS_SCOPES.join(', ')}`);
  const dailyLimits = (values['daily-limit'] as string[] | undefined) ?? [];
  return {
    name,
    environments,
    scopes,
    expiresAt: expiryFrom(values['expires-in'] as string | undefined, new Date()),
    limits: limitsFrom(values['max-amount'] as string | undefined, dailyLimits),
  };
}

const describe = (token: ApiTokenSummary) => ({
  id: token.id,
  name: token.name,
  environments: token.environments,
  scopes: token.scopes,
  createdAt: token.createdAt.toISOString(),
  expiresAt: token.expiresAt?.toISOString() ?? null,
  lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  revokedAt: token.revokedAt?.toISOString() ?? null,
  limits: token.limits,
});

/** One line of `list`: whether it works, until when, and when it was last used (to the minute). */
function stateOf(token: ReturnType<typeof describe>, now: Date): string {
  if (token.revokedAt) return `revoked ${token.revokedAt}`;
  const expired = token.expiresAt !== null && new Date(token.expiresAt) <= now;
  const expiry = token.expiresAt === null ? 'never expires' : `${expired ? 'expired' : 'expires'} ${token.expiresAt}`;
  return `${expired ? 'expired' : 'active'}, ${expiry}, last used ${token.lastUsedAt ?? 'never'}`;
}

const limitsText = (limits: PostingLimits | null): string =>
  limits === null
    ? ''
    : `  limits=${[...(limits.maxAmount === undefined ? [] : [`max ${limits.maxAmount}`]), ...Object.entries(limits.daily ?? {}).map(([currency, amount]) => `${currency} ${amount}/day`)].join(',')}`;

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      env: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in': { type: 'string' },
      'max-amount': { type: 'string' },
      'daily-limit': { type: 'string', multiple: true },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || !['create', 'list', 'revoke'].includes(command))
    throw new UsageError(USAGE);
  const config = loadConfig(process.env);
  const request = command === 'create' ? parseCreate(values, config) : undefined;
  if (command === 'revoke' && rest.length !== 1)
    throw new UsageError('Usage: npm run token -- revoke <id>   (ids are shown by: npm run token -- list)');

  await withCliDatabase(
    config,
    async (prisma) => {
      const store = new PrismaApiTokenStore(prisma);
      // One request id for everything this invocation records.
      const actor = { actor: CLI_PRINCIPAL, requestId: randomUUID() };
      try {
        if (request) {
          const { id, token, secretHash } = generateApiToken();
          const changedFields = [
            'name',
            'environments',
            'scopes',
            ...(request.expiresAt ? ['expiresAt'] : []),
            ...(request.limits ? ['limits'] : []),
          ];
          const audit = apiTokenAuditEvents({
            ...actor,
            operation: 'api_token.create',
            tokenId: id,
            tokenEnvironments: request.environments,
            configuredEnvironments: config.environments,
            changedFields,
          });
          const created = await store.insert(
            {
              id,
              name: request.name,
              secretHash,
              environments: request.environments,
              scopes: request.scopes,
              expiresAt: request.expiresAt,
              limits: request.limits ?? null,
            },
            audit,
          );
          if (values.json) return out(JSON.stringify({ ...describe(created), token }));
          out(
            `Created token ${created.id} "${created.name}" for environments ${created.environments.join(', ')} with scopes ${created.scopes.join(', ')}${created.expiresAt ? `, expiring ${created.expiresAt.toISOString()}` : ''}${limitsText(created.limits)}.`,
          );
          out('Copy the token now: it is shown this once and cannot be recovered.\n');
          out(`    ${token}\n`);
          return;
        }
        if (command === 'list') {
          const tokens = (await store.list()).map(describe);
          if (values.json) return out(JSON.stringify(tokens));
          if (tokens.length === 0)
            return out('No managed tokens. Create one with: npm run token -- create --name … --env … --scopes …');
          const now = new Date();
          for (const token of tokens) {
            out(
              `${token.id}  ${JSON.stringify(token.name)}  env=${token.environments.join(',')}  scopes=${token.scopes.join(',')}${limitsText(token.limits)}  created ${token.createdAt}  ${stateOf(token, now)}`,
            );
          }
          return;
        }
        const id = rest[0]!;
        const auditFor = (tokenEnvironments: string[]) =>
          apiTokenAuditEvents({
            ...actor,
            operation: 'api_token.revoke',
            tokenId: id,
            tokenEnvironments,
            configuredEnvironments: config.environments,
            changedFields: ['revokedAt'],
          });
        const outcome = /^[0-9a-f]{16}$/.test(id) ? await store.revoke(id, new Date(), auditFor) : 'not-found';
        if (outcome === 'not-found')
          throw new UsageError(`No token with id ${JSON.stringify(id)}; see npm run token -- list`);
        out(
          outcome === 'revoked'
            ? `Revoked token ${id}; every instance refuses it within about a second.`
            : `Token ${id} was already revoked.`,
        );
      } finally {
        await prisma.$disconnect();
      }
      // With the embedded database, a running service's server is shared rather than refused (one per DATA_DIR).
    },
    { shareRunningEmbedded: true },
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  exitWithError(error, 'token');
});
