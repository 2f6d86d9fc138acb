import http from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

/**
 * PostGraphile 5 with its stock preset over the very tables the service uses, served at the same
 * path shape (/{env}/graphql). It is the peer a team would pick to put GraphQL on PostgreSQL, so it
 * runs as shipped: no plugins, no tuning beyond the shared pool size. Needs Node 22+.
 *
 * Environment: DATABASE_URL, PORT, ENVIRONMENT, POOL_SIZE. `--print-schema` prints the SDL and exits.
 */

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const pool = new pg.Pool({
  connectionString: env('DATABASE_URL'),
  max: Number(process.env.POOL_SIZE ?? 10),
  application_name: 'bench-postgraphile',
});

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  // The link table's index for accounts is its primary key (account_id, customer_id), which this
  // plugin does not accept for the (account_id, environment) foreign key, and so it would hide
  // Account -> links. PostgreSQL serves that look-up from the primary key, so the relation is safe.
  disablePlugins: ['PgIndexBehaviorsPlugin'],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { graphqlPath: `/${env('ENVIRONMENT')}/graphql`, graphiql: false, watch: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);

if (process.argv.includes('--print-schema')) {
  const { printSchema } = await import('postgraphile/graphql');
  process.stdout.write(printSchema(await pgl.getSchema()));
  await pgl.release();
  await pool.end();
} else {
  const serv = pgl.createServ(grafserv);
  const server = http.createServer();
  server.keepAliveTimeout = 65_000;
  await serv.addTo(server);
  await pgl.getSchema();
  server.listen(Number(env('PORT')), '127.0.0.1', () => {
    process.stdout.write(`postgraphile listening on ${JSON.stringify(server.address())}\n`);
  });
  const stop = () =>
    server.close(() => {
      void Promise.resolve(pgl.release())
        .then(() => pool.end())
        .then(() => process.exit(0));
    });
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
