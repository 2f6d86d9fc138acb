import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { createStores } from '../features/stores.js';
import { createDomainServices } from '../features/services.js';
import { resolvePiiKeyring } from '../pii/dev-keys.js';
import { PiiCipher } from '../pii/pii-cipher.js';
import { exitWithError, UsageError, withCliDatabase } from './cli-database.js';
import { type SeedReport, seedCaller, seedDemoData } from './demo-data.js';

const USAGE = `Usage: npm run seed [-- --env <environment>]

Creates a demo data set (6 people, a business with two owners, 8 accounts, three of them shared, one with a signer) through the domain services and
writes its ids to DATA_DIR/seed.json, where examples/curl.sh finds them. Each run adds a new set.
With the embedded database (no DATABASE_URL), stop the service first: only one process can run it.`;

const out = (text: string) => process.stdout.write(`${text}\n`);

/** `npm run seed`: the newcomer's demo data (see examples/README.md). */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { env: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) throw new UsageError(USAGE);
  const config = loadConfig(process.env);
  const environment = values.env ?? config.environments[0]!;
  if (!config.environments.includes(environment))
    throw new UsageError(`--env: unknown environment ${environment}; configured: ${config.environments.join(', ')}`);
  const protector = new PiiCipher(
    resolvePiiKeyring(config.pii, config.dataDir, (message) => process.stderr.write(`WARNING: ${message}\n`)),
  );

  // A fresh clone may seed before the first start: migrate as the service would.
  const report = await withCliDatabase(
    config,
    async (prisma) => {
      const services = createDomainServices({
        stores: createStores(prisma),
        protector,
        idempotencyTtlHours: config.idempotencyTtlHours,
      });
      return seedDemoData(services, seedCaller(environment));
    },
    { migrateFirst: true },
  );

  const file = path.join(config.dataDir, 'seed.json');
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  printReport(report, file);
}

function printReport(report: SeedReport, file: string): void {
  out(`Demo data created in environment "${report.environment}" (ids also in ${file}):\n`);
  out('Customers');
  for (const customer of report.customers) out(`  ${customer.customerId}  ${customer.name}`);
  out('\nAccounts');
  const names = new Map(report.customers.map((customer) => [customer.customerId, customer.name]));
  for (const account of report.accounts) {
    out(
      `  ${account.accountId}  ${account.name.padEnd(26)} ${account.customerIds.map((id) => names.get(id)).join(' & ')}`,
    );
  }
  out('\nNext: npm start, then bash examples/curl.sh (see examples/README.md).');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  exitWithError(error, 'seed');
});
