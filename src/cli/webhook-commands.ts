import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Config } from '../config/config.js';
import { EVENT_READ_SCOPES, EVENT_TYPES } from '../features/events/index.js';
import type { Caller } from '../domain/caller.js';
import {
  listWebhookAttemptsQuery,
  presentWebhookAttempts,
  presentWebhookEndpoint,
  type WebhookService,
} from '../features/webhooks/index.js';
import { UsageError } from './cli-database.js';

/**
 * `npm run webhook`: webhook endpoints managed by an operator, through the same WebhookService as REST
 * (src/cli/webhook.ts runs it). Parsing and running are separate so the tests can drive both.
 */

export const USAGE = `Usage: npm run webhook -- <command> --env <environment> …

  create --env <env> --url <url> [--types <type,…>]   register an endpoint; prints its secret, this once
  list --env <env>                                     every endpoint of the environment
  show <endpointId> --env <env>
  update <endpointId> --env <env> [--url <url>] [--types <type,…>]   --types '' takes every type
  delete <endpointId> --env <env>
  enable <endpointId> --env <env>                      resumes deliveries (and retries that were waiting)
  disable <endpointId> --env <env>
  rotate-secret <endpointId> --env <env>               a new secret; the old one also signs for WEBHOOKS_SECRET_OVERLAP_S
  attempts <endpointId> --env <env> [--limit <1-100>]  the newest delivery attempts
  redeliver <endpointId> <eventId> --env <env>         sends the event (again) as soon as a dispatcher is free

Event types (--types; none: every type): ${EVENT_TYPES.join(', ')}.
Output is JSON on stdout. A refusal prints {"error":{"code","message","details"}} on stderr and exits 1;
a wrong invocation exits 64. The same rules as REST /{environment}/webhook-endpoint apply (the same service).
Uses DATABASE_URL, or the embedded database in DATA_DIR (shared with a running npm start).
A local receiver that verifies deliveries: npx tsx examples/webhook-receiver.ts --port 4000 --secret whsec_…`;

/** Each command, and the positional arguments it takes after its name. */
const COMMANDS = {
  create: [],
  list: [],
  show: ['endpointId'],
  update: ['endpointId'],
  delete: ['endpointId'],
  enable: ['endpointId'],
  disable: ['endpointId'],
  'rotate-secret': ['endpointId'],
  attempts: ['endpointId'],
  redeliver: ['endpointId', 'eventId'],
} as const satisfies Record<string, readonly string[]>;
type Command = keyof typeof COMMANDS;

const OPTIONS = {
  env: { type: 'string' },
  url: { type: 'string' },
  types: { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

/** Which options each command accepts besides --env: anything else is a usage error, not silently ignored. */
const ACCEPTS: Partial<Record<Command, readonly (keyof Values)[]>> = {
  create: ['url', 'types'],
  update: ['url', 'types'],
  attempts: ['limit'],
};

export interface Invocation {
  command: Command;
  environment: string;
  args: Record<string, string>;
  values: Values;
}

const isCommand = (name: string | undefined): name is Command => name !== undefined && Object.hasOwn(COMMANDS, name);

/** A comma-separated list; '' is the empty list (update: every type). */
const typeList = (text: string): string[] =>
  text
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);

/** Reads the command line; every mistake is a UsageError saying what to write instead. */
export function parseInvocation(argv: string[], config: Pick<Config, 'environments'>): Invocation {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  if (values.help || name === undefined) throw new UsageError(USAGE);
  if (!isCommand(name)) throw new UsageError(`Unknown command ${JSON.stringify(name)}.\n\n${USAGE}`);
  const expected = COMMANDS[name];
  if (rest.length !== expected.length) {
    const shape = [name, ...expected.map((arg) => `<${arg}>`)].join(' ');
    throw new UsageError(
      `${name} takes ${expected.length === 0 ? 'no arguments' : expected.map((arg) => `<${arg}>`).join(' ')}: npm run webhook -- ${shape} --env <env>`,
    );
  }
  if (values.env === undefined || values.env === '')
    throw new UsageError(`--env is required: one of ${config.environments.join(', ')}`);
  if (!config.environments.includes(values.env))
    throw new UsageError(
      `--env: unknown environment ${JSON.stringify(values.env)}; configured: ${config.environments.join(', ')}`,
    );
  const accepted = new Set<keyof Values>(['env', 'help', ...(ACCEPTS[name] ?? [])]);
  const stray = (Object.keys(values) as (keyof Values)[]).filter((option) => !accepted.has(option));
  if (stray.length > 0)
    throw new UsageError(
      `${name} does not take ${stray.map((option) => `--${option}`).join(', ')}; see npm run webhook -- --help`,
    );
  if (name === 'create' && values.url === undefined)
    throw new UsageError('create needs --url <url>, e.g. --url https://hooks.example.com/cas');
  return {
    command: name,
    environment: values.env,
    args: Object.fromEntries(expected.map((arg, i) => [arg, rest[i]!])),
    values,
  };
}

/**
 * The operator's principal: webhooks in this one environment. It holds the events' read scopes too, so an
 * endpoint the operator registers receives the records (ADR 2): whoever runs this command holds the
 * database and its keys already. It reads no record itself.
 */
const cliCaller = (environment: string): Caller => ({
  environment,
  principal: {
    id: 'cli:webhook',
    kind: 'static-token',
    scopes: ['webhooks:read', 'webhooks:write', ...EVENT_READ_SCOPES],
    environments: [environment],
  },
  requestId: randomUUID(),
});

/** Runs one command through the WebhookService (the rules REST applies); answers the JSON to print. */
export async function runCommand(
  webhooks: WebhookService,
  { command, environment, args, values }: Invocation,
): Promise<unknown> {
  const caller = cliCaller(environment);
  const endpointId = args.endpointId ?? '';
  switch (command) {
    case 'create': {
      const { endpoint, secret } = await webhooks.create(caller, {
        url: values.url,
        ...(values.types !== undefined && { eventTypes: typeList(values.types) }),
      });
      return { ...presentWebhookEndpoint(endpoint), secret };
    }
    case 'list':
      return { endpoints: (await webhooks.list(caller)).map(presentWebhookEndpoint) };
    case 'show':
      return presentWebhookEndpoint(await webhooks.get(caller, endpointId));
    case 'update': {
      const changes = {
        ...(values.url !== undefined && { url: values.url }),
        ...(values.types !== undefined && { eventTypes: typeList(values.types) }),
      };
      return presentWebhookEndpoint(await webhooks.update(caller, endpointId, changes));
    }
    case 'delete':
      await webhooks.delete(caller, endpointId);
      return { endpointId: endpointId.toLowerCase(), deleted: true };
    case 'enable':
    case 'disable':
      return presentWebhookEndpoint(await webhooks.setEnabled(caller, endpointId, command === 'enable'));
    case 'rotate-secret': {
      const { endpoint, secret } = await webhooks.rotateSecret(caller, endpointId);
      return { endpointId: endpoint.endpointId, secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt };
    }
    case 'attempts':
      return presentWebhookAttempts(
        await webhooks.listAttempts(
          caller,
          endpointId,
          listWebhookAttemptsQuery(caller, values.limit === undefined ? {} : { limit: values.limit }),
        ),
      );
    case 'redeliver':
      await webhooks.redeliver(caller, endpointId, args.eventId!);
      return { endpointId: endpointId.toLowerCase(), eventId: args.eventId!.toLowerCase(), scheduled: true };
  }
}
