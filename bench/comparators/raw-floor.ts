import { randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

/**
 * The raw floor: the least an HTTP service on these tables can do for `GET /{env}/customer/{id}`
 * (and `GET /{env}/account/{id}`): node:http, one pooled `pg` connection, one prepared SQL statement,
 * the same JSON with the same envelope, and the checks any real endpoint must keep (bearer token,
 * environment, id shape). Dev-only: never imported by src/.
 *
 * Environment: DATABASE_URL, PORT, API_TOKEN, ENVIRONMENT, POOL_SIZE.
 */

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: Number(process.env.POOL_SIZE ?? 10), application_name: 'bench-raw-floor' });
const environment = env('ENVIRONMENT');
const expectedAuthorization = Buffer.from(`Bearer ${env('API_TOKEN')}`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CUSTOMER_BY_ID = {
  name: 'bench_customer_by_id',
  text: `SELECT c.id::text AS id, to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.preferred_name, c.first_name,
                c.middle_name, c.last_name, c.emails, c.phone_numbers, c.addresses,
                ARRAY(SELECT ac.account_id::text FROM account_customers ac
                      WHERE ac.customer_id = c.id AND ac.environment = c.environment
                      ORDER BY ac.created_at, ac.account_id) AS account_ids
         FROM customers c WHERE c.id = $1 AND c.environment = $2`,
};

const ACCOUNT_BY_ID = {
  name: 'bench_account_by_id',
  text: `SELECT a.id::text AS id, a.type, a.name, a.amount::text AS amount, a.currency, a.flags,
                ARRAY(SELECT ac.customer_id::text FROM account_customers ac
                      WHERE ac.account_id = a.id AND ac.environment = a.environment
                      ORDER BY ac.position) AS customer_ids
         FROM accounts a WHERE a.id = $1 AND a.environment = $2`,
};

interface CustomerRow {
  id: string;
  date_of_birth: string;
  preferred_name: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  emails: string[];
  phone_numbers: unknown;
  addresses: unknown;
  account_ids: string[];
}

interface AccountRow {
  id: string;
  type: string;
  name: string;
  amount: string;
  currency: string;
  flags: string[] | null;
  customer_ids: string[];
}

function send(res: http.ServerResponse, status: number, body: unknown, requestId: string): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json), 'x-request-id': requestId });
  res.end(json);
}

function envelope(logRefName: 'log_ref_id' | 'logRefId', requestId: string, data: unknown, error: { code: string; message: string } | null) {
  return { data, success: error === null, error, requestId, [logRefName]: requestId };
}

function authorized(header: string | undefined): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expectedAuthorization.length && timingSafeEqual(given, expectedAuthorization);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const requestId = randomUUID();
  const [, pathEnvironment, resource, id, extra] = (req.url ?? '/').split('?')[0]!.split('/');
  if (req.url === '/healthz') return send(res, 200, { status: 'ok' }, requestId);
  const logRefName = resource === 'account' ? 'logRefId' : 'log_ref_id';
  const notFound = (code: string) => send(res, 404, envelope(logRefName, requestId, null, { code, message: 'Not found.' }), requestId);
  if (req.method !== 'GET' || extra !== undefined || id === undefined || (resource !== 'customer' && resource !== 'account')) return notFound('ROUTE_NOT_FOUND');
  if (!authorized(req.headers.authorization)) {
    return send(res, 401, envelope(logRefName, requestId, null, { code: 'UNAUTHENTICATED', message: 'A valid bearer token is required.' }), requestId);
  }
  if (pathEnvironment !== environment) return notFound('ENVIRONMENT_NOT_FOUND');

  if (resource === 'customer') {
    if (!UUID.test(id)) return notFound('CUSTOMER_NOT_FOUND');
    const { rows } = await pool.query<CustomerRow>({ ...CUSTOMER_BY_ID, values: [id, environment] });
    const row = rows[0];
    if (!row) return notFound('CUSTOMER_NOT_FOUND');
    const data = {
      customerId: row.id,
      accountIds: row.account_ids,
      addresses: row.addresses,
      dateOfBirth: row.date_of_birth,
      emails: row.emails,
      firstName: row.first_name,
      lastName: row.last_name,
      middleName: row.middle_name,
      phoneNumbers: row.phone_numbers,
      preferredName: row.preferred_name,
    };
    return send(res, 200, envelope('log_ref_id', requestId, data, null), requestId);
  }

  if (!UUID.test(id)) return notFound('ACCOUNT_NOT_FOUND');
  const { rows } = await pool.query<AccountRow>({ ...ACCOUNT_BY_ID, values: [id, environment] });
  const row = rows[0];
  if (!row) return notFound('ACCOUNT_NOT_FOUND');
  const data = {
    accountId: row.id,
    type: row.type,
    name: row.name,
    amount: Number(row.amount),
    currency: row.currency,
    customers: row.customer_ids,
    transactions: [],
    flags: row.flags ?? [],
  };
  return send(res, 200, envelope('logRefId', requestId, data, null), requestId);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) send(res, 500, envelope('log_ref_id', 'error', null, { code: 'INTERNAL_ERROR', message: 'Internal error.' }), 'error');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(env('PORT')), '127.0.0.1', () => {
  process.stdout.write(`raw floor listening on ${JSON.stringify(server.address())}\n`);
});
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
