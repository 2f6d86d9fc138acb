import { ConfigError, loadConfig } from '../config/config.js';
import { createStores } from '../features/stores.js';
import { isDomainError } from '../domain/errors.js';
import { createDomainServices } from '../features/services.js';
import { webhookServiceOptions } from '../features/webhooks/index.js';
import { resolvePiiKeyring } from '../pii/dev-keys.js';
import { PiiCipher } from '../pii/pii-cipher.js';
import { exitWithError, withCliDatabase } from './cli-database.js';
import { parseInvocation, runCommand } from './webhook-commands.js';

/** `npm run webhook -- <command>` (usage: src/cli/webhook-commands.ts, docs/events.md). */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const invocation = parseInvocation(process.argv.slice(2), config);
  const protector = new PiiCipher(
    resolvePiiKeyring(config.pii, config.dataDir, (message) => process.stderr.write(`WARNING: ${message}\n`)),
  );
  const result = await withCliDatabase(
    config,
    async (prisma) => {
      const services = createDomainServices({
        stores: createStores(prisma),
        protector,
        webhooks: webhookServiceOptions(config.webhooks),
      });
      try {
        return { ok: true as const, value: await runCommand(services.webhooks, invocation) };
      } catch (error) {
        if (!isDomainError(error)) throw error;
        return {
          ok: false as const,
          error: { code: error.code, message: error.message, ...(error.details && { details: error.details }) },
        };
      }
    },
    { migrateFirst: true, shareRunningEmbedded: true },
  );
  if (!result.ok) {
    process.stderr.write(`${JSON.stringify({ error: result.error }, null, 2)}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify(result.value, null, 2)}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  exitWithError(error, 'webhook');
});
