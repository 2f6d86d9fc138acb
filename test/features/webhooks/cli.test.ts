import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/cli-database.js';
import { parseInvocation, runCommand } from '../../../src/cli/webhook-commands.js';
import { loadConfig } from '../../../src/config/config.js';
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from '../../../src/db/postgres/embedded-postgres.js';
import { createPool } from '../../../src/db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../../../src/db/connection/prisma-client.js';
import { createStores } from '../../../src/features/stores.js';
import { isDomainError } from '../../../src/domain/errors.js';
import { createDomainServices, type DomainServices } from '../../../src/features/services.js';
import { webhookServiceOptions } from '../../../src/features/webhooks/webhook-http.js';
import { PiiCipher } from '../../../src/pii/pii-cipher.js';
import { createCustomer, expectSuccess } from '../../rest/helpers.js';
import { eventually } from '../../support/eventually.js';
import { type ProcessResult, runProcess } from '../../support/processes.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../../support/service.js';
import { type Receiver, startReceiver } from './receiver.js';
import { TEST_STATIC_TOKEN } from '../../support/static-token.js';

/**
 * `npm run webhook`: as a process (exit codes, JSON on stdout, coded errors on stderr) and through its
 * own parse/run functions against the same database as a running service, whose dispatcher delivers.
 */
const TSX = path.resolve('node_modules/.bin/tsx');

let service: TestService;
let receiver: Receiver;
let prisma: PrismaClient;
let closePool: () => Promise<void>;
let services: DomainServices;
let cliEnv: Record<string, string>;
const config = () => loadConfig(cliEnv);

beforeAll(async () => {
  receiver = await startReceiver();
  service = await startTestService({
    EVENT_SEQUENCER_INTERVAL_MS: '20',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_POLL_INTERVAL_MS: '50',
    WEBHOOKS_SECRET_OVERLAP_S: '3600',
  });
  cliEnv = {
    NODE_ENV: 'test',
    DATABASE_URL: service.database.url,
    API_TOKENS: TEST_STATIC_TOKEN,
    ENVIRONMENTS: 'sandbox,production-like',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_SECRET_OVERLAP_S: '3600',
    ...TEST_PII_ENV,
  };
  // The CLI's own parse and run, in this process, on the service's database (what its main() does).
  const pool = createPool({
    connectionString: service.database.url,
    max: 2,
    connectTimeoutMs: 60_000,
    statementTimeoutMs: 60_000,
  });
  closePool = () => pool.end();
  prisma = createPrismaClient(pool);
  const cfg = config();
  services = createDomainServices({
    stores: createStores(prisma),
    protector: new PiiCipher({
      keys: cfg.pii.keys!,
      activeKeyId: cfg.pii.activeKeyId!,
      blindIndexKey: cfg.pii.blindIndexKey!,
    }),
    webhooks: webhookServiceOptions(cfg.webhooks),
  });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await closePool?.();
  await service?.stop();
  await receiver?.close();
});

/** The CLI as `npm run webhook` runs it (minus the build): exit code, stdout, stderr. */
function cli(args: string[], env: Record<string, string> = cliEnv): Promise<ProcessResult> {
  return runProcess(TSX, ['src/cli/webhook.ts', ...args], { PATH: process.env.PATH ?? '', ...env });
}

/** One command through the CLI's parser and runner; a refusal comes back as its code. */
async function run(...argv: string[]): Promise<unknown> {
  return runCommand(services.webhooks, parseInvocation(argv, config()));
}
async function refusal(...argv: string[]): Promise<string> {
  try {
    await run(...argv);
  } catch (error) {
    if (isDomainError(error)) return error.code;
    throw error;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
}

const endpointCount = async () =>
  Number((await service.database.pool.query('SELECT count(*) FROM webhook_endpoints')).rows[0].count);
const verify = (secret: string, request: { body: string; headers: Record<string, string> }) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  new Webhook(secret).verify(request.body, request.headers) as any;

describe('npm run webhook, as a process', () => {
  it('create prints the endpoint and its secret once, as JSON; the running service then delivers a change signed with it', async () => {
    const created = await cli([
      'create',
      '--env',
      'sandbox',
      '--url',
      receiver.url('/cli-created'),
      '--types',
      'customer.created',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const endpoint = JSON.parse(created.stdout);
    expect(endpoint).toMatchObject({
      url: receiver.url('/cli-created'),
      eventTypes: ['customer.created'],
      enabled: true,
      disabledReason: null,
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const { customerId } = await createCustomer(service);
    const [request] = await receiver.waitFor('/cli-created', 1);
    expect(verify(endpoint.secret, request!)).toMatchObject({
      type: 'customer.created',
      data: { resourceId: customerId },
    });

    // REST sees what the CLI registered; neither answers the secret again.
    const rest = await service.call('GET', `/sandbox/webhook-endpoint/${endpoint.endpointId}`);
    expectSuccess(rest, 'customer', 200);
    const { secret, ...withoutSecret } = endpoint;
    expect(rest.json.data).toEqual(withoutSecret);
    const shown = await cli(['show', endpoint.endpointId, '--env', 'sandbox']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(rest.json.data);
    expect(shown.stdout).not.toContain(secret.slice('whsec_'.length));
  });

  it('refuses a rule violation with the coded error on stderr and exit code 1, a wrong invocation with usage text and exit code 64; nothing changes', async () => {
    const before = await endpointCount();
    const [privateUrl, badType, unknownCommand, noEnv, unknownOption] = await Promise.all([
      cli(['create', '--env', 'sandbox', '--url', 'http://10.0.0.7/hook'], {
        ...cliEnv,
        WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'false',
      }),
      cli([
        'create',
        '--env',
        'sandbox',
        '--url',
        'https://hooks.example.com/x',
        '--types',
        'customer.created,customer.exploded',
      ]),
      cli(['frobnicate', '--env', 'sandbox']),
      cli(['list']),
      cli(['list', '--env', 'sandbox', '--verbose']),
    ]);
    expect(privateUrl.code).toBe(1);
    expect(JSON.parse(privateUrl.stderr)).toEqual({
      error: {
        code: 'WEBHOOK_URL_NOT_ALLOWED',
        message: 'Webhooks cannot be sent to this URL: the address is private.',
        details: [
          {
            field: 'url',
            code: 'WEBHOOK_URL_NOT_ALLOWED',
            message: 'Must be a public http(s) URL: the address is private.',
          },
        ],
      },
    });
    expect(privateUrl.stdout).toBe('');
    expect(badType.code).toBe(1);
    expect(JSON.parse(badType.stderr).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'eventTypes.1', code: 'INVALID_VALUE' }],
    });
    expect(unknownCommand.code).toBe(64);
    expect(unknownCommand.stderr).toMatch(/^Unknown command "frobnicate"\.\n\nUsage: npm run webhook -- <command>/);
    expect(noEnv.code).toBe(64);
    expect(noEnv.stderr).toBe('--env is required: one of sandbox, production-like\n');
    expect(unknownOption.code).toBe(64);
    expect(unknownOption.stderr).toMatch(/Unknown option '--verbose'/);
    expect(await endpointCount()).toBe(before);
  });
});

describe('npm run webhook, every command through the same WebhookService as REST', () => {
  it('list, update, disable and enable, rotate-secret, attempts, redeliver, delete', async () => {
    const created = (await run('create', '--env', 'sandbox', '--url', receiver.url('/cli-managed'))) as {
      endpointId: string;
      secret: string;
    };
    const id = created.endpointId;
    expect(
      ((await run('list', '--env', 'sandbox')) as { endpoints: { endpointId: string }[] }).endpoints.map(
        (endpoint) => endpoint.endpointId,
      ),
    ).toContain(id);
    expect(await run('list', '--env', 'production-like')).toEqual({ endpoints: [] });

    // --types '' is every type again; the update is REST's.
    expect(await run('update', id, '--env', 'sandbox', '--types', 'account.created,customer.updated')).toMatchObject({
      eventTypes: ['account.created', 'customer.updated'],
    });
    expect(await run('update', id, '--env', 'sandbox', '--types', '')).toMatchObject({ eventTypes: [] });
    expect((await service.call('GET', `/sandbox/webhook-endpoint/${id}`)).json.data.eventTypes).toEqual([]);

    expect(await run('disable', id, '--env', 'sandbox')).toMatchObject({
      enabled: false,
      disabledReason: 'Disabled by a client.',
    });
    expect(await run('enable', id, '--env', 'sandbox')).toMatchObject({ enabled: true, disabledReason: null });

    const rotated = (await run('rotate-secret', id, '--env', 'sandbox')) as {
      secret: string;
      previousSecretExpiresAt: string;
    };
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(3500 * 1000);

    const { customerId } = await createCustomer(service);
    const [request] = await receiver.waitFor('/cli-managed', 1);
    // During the overlap both secrets sign the delivery.
    const payload = verify(rotated.secret, request!);
    expect(verify(created.secret, request!)).toEqual(payload);
    expect(payload.data.resourceId).toBe(customerId);

    const attempts = await eventually(
      async () =>
        (await run('attempts', id, '--env', 'sandbox', '--limit', '5')) as {
          attempts: { eventId: string; statusCode: number }[];
        },
      (page) => page.attempts.length === 1,
    );
    expect(attempts.attempts).toEqual([
      expect.objectContaining({ eventId: payload.data.eventId, statusCode: 200, succeeded: true }),
    ]);
    expect(await refusal('attempts', id, '--env', 'sandbox', '--limit', '0')).toBe('VALIDATION_FAILED');

    expect(await run('redeliver', id, payload.data.eventId.toUpperCase(), '--env', 'sandbox')).toEqual({
      endpointId: id,
      eventId: payload.data.eventId,
      scheduled: true,
    });
    const [, again] = await receiver.waitFor('/cli-managed', 2);
    expect(again!.headers['webhook-id']).toBe(payload.data.eventId);
    verify(rotated.secret, again!);

    expect(await refusal('redeliver', id, '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10', '--env', 'sandbox')).toBe(
      'EVENT_NOT_FOUND',
    );
    await run('disable', id, '--env', 'sandbox');
    expect(await refusal('redeliver', id, payload.data.eventId, '--env', 'sandbox')).toBe('WEBHOOK_ENDPOINT_DISABLED');

    expect(await run('delete', id, '--env', 'sandbox')).toEqual({ endpointId: id, deleted: true });
    expect(await refusal('show', id, '--env', 'sandbox')).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect(await refusal('delete', id, '--env', 'sandbox')).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect((await service.call('GET', `/sandbox/webhook-endpoint/${id}`)).status).toBe(404);

    // Every change is in the audit trail under the operator's principal, refusals are not; never a secret.
    const trail = await service.call('GET', `/sandbox/audit-events?resourceId=${id}&first=100`);
    expectSuccess(trail, 'customer', 200);
    expect(trail.json.data.events.map((event: { operation: string }) => event.operation)).toEqual([
      'webhook_endpoint.create',
      'webhook_endpoint.update',
      'webhook_endpoint.update',
      'webhook_endpoint.disable',
      'webhook_endpoint.enable',
      'webhook_endpoint.rotate_secret',
      'webhook_endpoint.redeliver',
      'webhook_endpoint.disable',
      'webhook_endpoint.delete',
    ]);
    for (const event of trail.json.data.events) expect(event.principalId).toBe('cli:webhook');
    expect(trail.text).not.toContain('whsec_');
  });

  it('says what is wrong with an invocation before touching the database', () => {
    const usage = (...argv: string[]) => {
      try {
        parseInvocation(argv, { environments: ['sandbox'] });
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message.split('\n')[0];
      }
      throw new Error(`expected ${argv.join(' ')} to be refused`);
    };
    expect(usage()).toBe('Usage: npm run webhook -- <command> --env <environment> …');
    expect(usage('--help')).toBe('Usage: npm run webhook -- <command> --env <environment> …');
    expect(usage('create', '--env', 'sandbox')).toBe(
      'create needs --url <url>, e.g. --url https://hooks.example.com/cas',
    );
    expect(usage('create', '--env', 'staging', '--url', 'https://x.example')).toBe(
      '--env: unknown environment "staging"; configured: sandbox',
    );
    expect(usage('show', '--env', 'sandbox')).toBe(
      'show takes <endpointId>: npm run webhook -- show <endpointId> --env <env>',
    );
    expect(usage('redeliver', 'a', '--env', 'sandbox')).toBe(
      'redeliver takes <endpointId> <eventId>: npm run webhook -- redeliver <endpointId> <eventId> --env <env>',
    );
    expect(usage('list', 'extra', '--env', 'sandbox')).toBe(
      'list takes no arguments: npm run webhook -- list --env <env>',
    );
    expect(usage('list', '--env', 'sandbox', '--limit', '5')).toBe(
      'list does not take --limit; see npm run webhook -- --help',
    );
    expect(usage('delete', 'x', '--env', 'sandbox', '--url', 'https://x.example')).toBe(
      'delete does not take --url; see npm run webhook -- --help',
    );
    expect(
      parseInvocation(['attempts', 'x', '--env', 'sandbox', '--limit', '5'], { environments: ['sandbox'] }),
    ).toMatchObject({ command: 'attempts', args: { endpointId: 'x' }, values: { limit: '5' } });
  });
});

describe('npm run webhook with the embedded database a running service started', () => {
  it('shares that server (from DATA_DIR) instead of failing to start a second one', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-webhook-cli-'));
    const embedded = await startEmbeddedPostgres({ dataDir, settings: { fsync: 'off', synchronous_commit: 'off' } });
    try {
      expect(runningEmbeddedPostgresUrl(dataDir)).toBe(embedded.url);
      const env = {
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        API_TOKENS: TEST_STATIC_TOKEN,
        ENVIRONMENTS: 'sandbox',
        ...TEST_PII_ENV,
      };
      const created = await cli(['create', '--env', 'sandbox', '--url', 'https://hooks.example.com/embedded'], env);
      expect(created.code, created.stderr).toBe(0);
      const listed = await cli(['list', '--env', 'sandbox'], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).endpoints).toEqual([
        expect.objectContaining({ endpointId: JSON.parse(created.stdout).endpointId }),
      ]);
      // The server is still the one this test started: the CLI neither stopped nor replaced it.
      expect(runningEmbeddedPostgresUrl(dataDir)).toBe(embedded.url);
    } finally {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(runningEmbeddedPostgresUrl(dataDir)).toBeUndefined();
  }, 120_000);
});
