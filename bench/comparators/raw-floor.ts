import { createCipheriv, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';

/**
 * The raw floor: the least an HTTP service on these tables can do for `GET /{env}/customer/{id}`
 * (and `GET /{env}/account/{id}`, with its 10 newest transactions): node:http, one pooled `pg` connection, one prepared SQL statement,
 * the same JSON with the same envelope, and the checks any real endpoint must keep (bearer token,
 * environment, id shape).
 *
 * For the search scenarios, `GET /{env}/customer?lastName=` (a page of a last-name prefix) and
 * `POST /{env}/customer/search` by SSN (the blind index's look-up and its audit event in one statement): the
 * service's own SQL, one statement each.
 *
 * And the raw write floor, for `POST /{env}/customer` and `PUT /{env}/customer/{id}`: minimal validation,
 * personal data sealed as the service seals it (AES-256-GCM, HMAC-SHA-256 blind index, the layout of
 * src/pii/pii-cipher.ts, the keys the bench gives the service), and the writes in ONE pipelined
 * transaction (pg's `pipeline: true`): BEGIN, [the Idempotency-Key record, already holding its result],
 * the customer INSERT (or UPDATE … RETURNING), the audit event INSERT, the outbox event INSERT (issue 16:
 * every write appends its `customer.created` / `customer.updated` event in its own transaction, so the
 * floor writes it too; the service's sequencer, running beside it in the bench, numbers it) and COMMIT
 * written without waiting for each answer: one round trip. A key already held makes its INSERT fail, PostgreSQL turns the
 * COMMIT into a rollback, and only then is the stored record read to replay (or refuse) the request.
 * Dev-only: never imported by src/.
 *
 * Environment: DATABASE_URL, PORT, API_TOKEN, ENVIRONMENT, POOL_SIZE, PII_KEYS, PII_ACTIVE_KEY, PII_BLIND_INDEX_KEY.
 */

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const pool = new pg.Pool({
  connectionString: env('DATABASE_URL'),
  max: Number(process.env.POOL_SIZE ?? 10),
  application_name: 'bench-raw-floor',
  // A transaction's statements are written without waiting for the previous answer (see the writes).
  pipeline: true,
});
const environment = env('ENVIRONMENT');
const expectedAuthorization = Buffer.from(`Bearer ${env('API_TOKEN')}`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const principalId = 'static:bench';
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_BODY_BYTES = 100_000;

// --- Personal data: the service's format (src/pii/pii-cipher.ts) -----------------------------------------

const piiKeys = new Map(
  env('PII_KEYS')
    .split(',')
    .map(
      (pair) => [pair.slice(0, pair.indexOf(':')), Buffer.from(pair.slice(pair.indexOf(':') + 1), 'base64')] as const,
    ),
);
const activeKeyId = env('PII_ACTIVE_KEY');
const activeKey = piiKeys.get(activeKeyId);
if (!activeKey) throw new Error(`PII_ACTIVE_KEY ${activeKeyId} is not in PII_KEYS`);
const blindIndexKey = Buffer.from(env('PII_BLIND_INDEX_KEY'), 'base64');
const fingerprintKey = Buffer.from(
  hkdfSync('sha256', blindIndexKey, Buffer.alloc(0), 'cas idempotency fingerprint v1', 32),
);

function encrypt(plaintext: string, customerId: string, field: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', activeKey!, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(`${environment}\u0000${customerId}\u0000${field}`, 'utf8'));
  const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), encrypted]);
}

const hmac = (key: Buffer, material: string): Buffer => createHmac('sha256', key).update(material, 'utf8').digest();

const CUSTOMER_BY_ID = {
  name: 'bench_customer_by_id',
  text: `SELECT c.id::text AS id, to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.preferred_name, c.first_name,
                c.middle_name, c.last_name, c.emails, c.phone_numbers, c.addresses,
                ARRAY(SELECT ac.account_id::text FROM account_customers ac
                      WHERE ac.customer_id = c.id AND ac.environment = c.environment
                      ORDER BY ac.created_at, ac.account_id) AS account_ids
         FROM customers c WHERE c.id = $1 AND c.environment = $2`,
};

/** The answer columns of CUSTOMER_BY_ID, for UPDATE … RETURNING. */
const CUSTOMER_RETURNING = CUSTOMER_BY_ID.text.slice(
  'SELECT'.length,
  CUSTOMER_BY_ID.text.indexOf('FROM customers c WHERE'),
);

const INSERT_IDEMPOTENCY_KEY = {
  name: 'bench_idempotency_insert',
  text: `INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, result, expires_at)
         VALUES ($1, $2, $3, 'customer.create', $4, $5::jsonb, $6)`,
};

const EXISTING_IDEMPOTENCY_KEY = {
  name: 'bench_idempotency_existing',
  text: `SELECT operation, fingerprint, result, expires_at <= CURRENT_TIMESTAMP AS expired
         FROM idempotency_keys WHERE principal_id = $1 AND environment = $2 AND key = $3`,
};

const DELETE_EXPIRED_IDEMPOTENCY_KEY = {
  name: 'bench_idempotency_delete_expired',
  text: 'DELETE FROM idempotency_keys WHERE principal_id = $1 AND environment = $2 AND key = $3 AND expires_at <= CURRENT_TIMESTAMP',
};

const INSERT_CUSTOMER = {
  name: 'bench_customer_insert',
  text: `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                              date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
         VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8, $9, $10, $11, $12::text[], $13::jsonb, $14::jsonb)`,
};

const UPDATE_CUSTOMER = {
  name: 'bench_customer_update',
  text: `UPDATE customers c SET preferred_name = coalesce($3, c.preferred_name), emails = coalesce($4::text[], c.emails),
                phone_numbers = coalesce($5::jsonb, c.phone_numbers), addresses = coalesce($6::jsonb, c.addresses),
                updated_at = CURRENT_TIMESTAMP
         WHERE c.id = $1 AND c.environment = $2
         RETURNING ${CUSTOMER_RETURNING}`,
};

const INSERT_AUDIT_EVENT = {
  name: 'bench_audit_insert',
  text: `INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields)
         VALUES ($1, $2, $3, 'customer.create', 'customer', $4, $5, $6, $7::text[])`,
};

/** The creation's outbox event, its payload built here from the request (the customer as the reads present it). */
const INSERT_CREATED_EVENT = {
  name: 'bench_event_created',
  text: `INSERT INTO events (environment, type, resource_type, resource_id, payload) VALUES ($1, 'customer.created', 'customer', $2, $3::jsonb)`,
};

/** The update's outbox event, read from the row the UPDATE before it in the pipeline wrote (none if there is none). */
const INSERT_UPDATED_EVENT = {
  name: 'bench_event_updated',
  text: `INSERT INTO events (environment, type, resource_type, resource_id, payload)
         SELECT c.environment, 'customer.updated', 'customer', c.id,
                jsonb_build_object('id', c.id, 'dateOfBirth', to_char(c.date_of_birth, 'YYYY-MM-DD'), 'preferredName', c.preferred_name,
                  'firstName', c.first_name, 'middleName', c.middle_name, 'lastName', c.last_name, 'emails', c.emails,
                  'phoneNumbers', c.phone_numbers, 'addresses', c.addresses, 'accountIds', '')
         FROM customers c WHERE c.id = $1::uuid AND c.environment = $2::varchar`,
};

/** Sent in the same pipeline as the UPDATE, whose outcome it cannot wait for: no event for a customer that is not there. */
const INSERT_UPDATE_AUDIT_EVENT = {
  name: 'bench_audit_insert_update',
  text: `INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields)
         SELECT $1::uuid, $2::varchar, $3::varchar, 'customer.update', 'customer', $4::uuid, $5::varchar, NULL, $6::text[]
         WHERE EXISTS (SELECT 1 FROM customers WHERE id = $4::uuid AND environment = $3::varchar)`,
};

/**
 * A page of customers whose last name starts with a prefix (case- and accent-insensitive, the service's
 * cas_search_key), in that key's byte order (`USING ~<~`, the order of the prefix's own index), then id: the service's statement for `GET /{env}/customer?lastName=`
 * (src/features/customers/customer-search.sql.ts), with the same columns.
 */
const CUSTOMER_COLUMNS_FOR_LIST = `c.id::text AS id, to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.preferred_name, c.first_name,
                c.middle_name, c.last_name, c.emails, c.phone_numbers, c.addresses,
                ARRAY(SELECT ac.account_id::text FROM account_customers ac
                      WHERE ac.customer_id = c.id AND ac.environment = c.environment
                      ORDER BY ac.created_at, ac.account_id) AS account_ids`;

// Unnamed, as the service sends its searches: planned for the values at hand (a named statement's generic plan
// could not turn a LIKE parameter into an index range).
const CUSTOMERS_BY_LAST_NAME = {
  text: `SELECT ${CUSTOMER_COLUMNS_FOR_LIST} FROM customers c
         WHERE c.environment = $1 AND cas_search_key(c.last_name) ~>=~ cas_search_key($3::text)
           AND cas_search_key(c.last_name) ~<~ cas_prefix_successor(cas_search_key($3::text))
         ORDER BY cas_search_key(c.last_name) USING ~<~, c.id LIMIT $2`,
};

/**
 * A search by SSN: the blind index's unique look-up and the audit event (who, how many matched, never the
 * SSN) in one statement, as the service writes it (src/features/customers/customer.store.ts, auditedSearch).
 */
const CUSTOMERS_BY_SSN_AUDITED = {
  text: `WITH found AS MATERIALIZED (
           SELECT ${CUSTOMER_COLUMNS_FOR_LIST} FROM customers c WHERE c.environment = $1 AND c.ssn_blind_index = $3::bytea ORDER BY c.id LIMIT $2),
         audit AS (
           INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields, matched_count)
           SELECT $4::uuid, $5::varchar, $1::varchar, 'customer.search', 'customer', $6::uuid, $7::varchar, NULL, ARRAY['socialSecurityNumber'], (SELECT count(*)::int FROM found))
         SELECT * FROM found ORDER BY id`,
};

const PAGE_SIZE_DEFAULT = 20;

const isoInstant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The account with its 10 newest transactions (the service's `transactions`), in the same statement: a
 * JSON array built by PostgreSQL, amounts as JSON numbers. An account with no entries skips the look-up,
 * as the service does.
 */
const ACCOUNT_BY_ID = {
  name: 'bench_account_by_id',
  text: `SELECT a.id::text AS id, a.type, a.name, a.amount::text AS amount, a.currency, a.flags,
                ARRAY(SELECT ac.customer_id::text FROM account_customers ac
                      WHERE ac.account_id = a.id AND ac.environment = a.environment
                      ORDER BY ac.position) AS customer_ids,
                CASE WHEN a.entry_count = 0 THEN '[]'::json ELSE (
                  SELECT coalesce(json_agg(json_build_object(
                    'transactionId', e.id, 'accountId', e.account_id, 'type', e.type, 'amount', coalesce(e.posted_amount, e.amount),
                    'authorizedAmount', e.amount, 'currency', e.currency, 'description', e.description, 'status', e.status,
                    'balanceAfter', e.balance_after, 'createdAt', ${isoInstant('e.created_at')}, 'postedAt', ${isoInstant('e.posted_at')},
                    'voidedAt', ${isoInstant('e.voided_at')}, 'expiresAt', ${isoInstant('e.expires_at')}, 'transferId', e.transfer_id,
                    'reversesTransactionId', e.reverses_entry_id) ORDER BY e.seq DESC), '[]'::json)
                  FROM (SELECT * FROM ledger_entries e WHERE e.account_id = a.id AND NOT e.is_settlement ORDER BY e.seq DESC LIMIT 10) e) END AS transactions
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
  transactions: unknown[];
}

function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'x-request-id': requestId,
  });
  res.end(json);
}

function envelope(
  logRefName: 'log_ref_id' | 'logRefId',
  requestId: string,
  data: unknown,
  error: { code: string; message: string } | null,
) {
  return { data, success: error === null, error, requestId, [logRefName]: requestId };
}

function authorized(header: string | undefined): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expectedAuthorization.length && timingSafeEqual(given, expectedAuthorization);
}

/** An answer other than 2xx; no parameter properties (Node's type stripping cannot run them). */
class HttpError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const validationFailed = (message: string) => new HttpError(400, 'VALIDATION_FAILED', message);

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', 'The body is too large.'));
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        reject(validationFailed('The body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
}

// --- Minimal validation (present, not exhaustive) ----------------------------------------------------------

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, max = 200): value is string => typeof value === 'string' && value.length <= max;
const isList = (value: unknown, item: (v: unknown) => boolean): value is unknown[] =>
  Array.isArray(value) && value.length <= 10 && value.every(item);
const isEmail = (value: unknown) => isText(value, 254) && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value);
const isPhone = (value: unknown) =>
  isObject(value) && isText(value.type, 32) && isText(value.number, 32) && /\d/.test(value.number);
const isAddress = (value: unknown) =>
  isObject(value) && ['type', 'street', 'city', 'state', 'zip'].every((key) => isText(value[key]));

function normaliseSsn(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(value);
  if (!match || value.length === 10) return undefined;
  const [, area, group, serial] = match as unknown as [string, string, string, string];
  if (area === '000' || area === '666' || area >= '900' || group === '00' || serial === '0000') return undefined;
  return `${area}${group}${serial}`;
}

interface NewCustomer {
  ssn: string;
  documentLocatorNumber: number;
  dateOfBirth: string;
  preferredName: string;
  firstName: string;
  middleName: string;
  lastName: string;
  emails: string[];
  phoneNumbers: unknown[];
  addresses: unknown[];
}

function parseNewCustomer(body: unknown): NewCustomer {
  if (!isObject(body)) throw validationFailed('The body must be a JSON object.');
  const ssn = normaliseSsn(body.socialSecurityNumber);
  if (ssn === undefined) throw validationFailed('socialSecurityNumber is not a valid SSN.');
  const dln = body.documentLocatorNumber;
  if (typeof dln !== 'number' || !Number.isSafeInteger(dln) || dln < 0)
    throw validationFailed('documentLocatorNumber must be a whole number.');
  if (
    typeof body.dateOfBirth !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}$/.test(body.dateOfBirth) ||
    Number.isNaN(Date.parse(body.dateOfBirth))
  ) {
    throw validationFailed('dateOfBirth must be a date YYYY-MM-DD.');
  }
  for (const field of ['preferredName', 'firstName', 'middleName', 'lastName']) {
    if (!isText(body[field], 100)) throw validationFailed(`${field} must be a string.`);
  }
  if (!isList(body.emails, isEmail)) throw validationFailed('emails must be a list of email addresses.');
  if (!isList(body.phoneNumbers, isPhone)) throw validationFailed('phoneNumbers must be a list of phone numbers.');
  if (!isList(body.addresses, isAddress)) throw validationFailed('addresses must be a list of addresses.');
  return {
    ssn,
    documentLocatorNumber: dln,
    dateOfBirth: body.dateOfBirth,
    preferredName: body.preferredName as string,
    firstName: body.firstName as string,
    middleName: body.middleName as string,
    lastName: body.lastName as string,
    emails: body.emails as string[],
    phoneNumbers: body.phoneNumbers,
    addresses: body.addresses,
  };
}

interface CustomerChanges {
  preferredName?: string;
  emails?: string[];
  phoneNumbers?: unknown[];
  addresses?: unknown[];
}

const UPDATABLE = new Set(['preferredName', 'emails', 'phoneNumbers', 'addresses']);

function parseChanges(body: unknown): CustomerChanges {
  if (!isObject(body)) throw validationFailed('The body must be a JSON object.');
  const unknown = Object.keys(body).filter((key) => !UPDATABLE.has(key));
  if (unknown.length > 0) throw validationFailed(`Not updatable: ${unknown.join(', ')}.`);
  if (body.preferredName !== undefined && !isText(body.preferredName, 100))
    throw validationFailed('preferredName must be a string.');
  if (body.emails !== undefined && !isList(body.emails, isEmail))
    throw validationFailed('emails must be a list of email addresses.');
  if (body.phoneNumbers !== undefined && !isList(body.phoneNumbers, isPhone))
    throw validationFailed('phoneNumbers must be a list of phone numbers.');
  if (body.addresses !== undefined && !isList(body.addresses, isAddress))
    throw validationFailed('addresses must be a list of addresses.');
  return body as CustomerChanges;
}

// --- One pipelined transaction -----------------------------------------------------------------------------

const ignore = () => undefined;

/**
 * BEGIN, the statements and COMMIT written at once on one connection; answers are read in order. A failed
 * statement aborts the transaction: the ones after it fail too, PostgreSQL answers the COMMIT with a
 * rollback, and the first failure is thrown once every answer is in (the connection is then idle again).
 */
async function pipelinedTransaction(statements: pg.QueryConfig[]): Promise<pg.QueryResult[]> {
  const client = await pool.connect();
  const sent = [
    client.query('BEGIN'),
    ...statements.map((statement) => client.query(statement)),
    client.query('COMMIT'),
  ];
  for (const answer of sent) answer.catch(ignore);
  let broken: Error | undefined;
  try {
    const results: pg.QueryResult[] = [];
    for (const answer of sent) results.push(await answer);
    return results.slice(1, -1);
  } catch (error) {
    await Promise.allSettled(sent);
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError as Error;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

const uniqueViolationOn = (error: unknown, table: string): boolean => {
  const { code, table: errorTable } = error as { code?: unknown; table?: unknown };
  return code === '23505' && errorTable === table;
};

function presentCustomer(row: CustomerRow) {
  return {
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
}

/** The stored answer of an earlier request with this key; 'retry' once an expired record is gone. */
async function replay(key: string, fingerprint: Buffer): Promise<{ customerId: string } | 'retry'> {
  const values = [principalId, environment, key];
  const { rows } = await pool.query<{
    operation: string;
    fingerprint: Buffer;
    result: { customerId: string } | null;
    expired: boolean;
  }>({
    ...EXISTING_IDEMPOTENCY_KEY,
    values,
  });
  const existing = rows[0];
  if (!existing) return 'retry';
  if (existing.expired) {
    await pool.query({ ...DELETE_EXPIRED_IDEMPOTENCY_KEY, values });
    return 'retry';
  }
  const sameRequest =
    existing.fingerprint.length === fingerprint.length && timingSafeEqual(existing.fingerprint, fingerprint);
  if (existing.operation !== 'customer.create' || !sameRequest) {
    throw new HttpError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used for a different request.',
    );
  }
  // Written in the same transaction as the key, so a committed key always holds its result.
  if (existing.result === null)
    throw new HttpError(
      409,
      'IDEMPOTENCY_KEY_IN_PROGRESS',
      'A request with this Idempotency-Key is still being processed.',
    );
  return existing.result;
}

async function createCustomer(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> {
  const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
  if (idempotencyKey !== undefined && !/^[\x20-\x7e]{1,255}$/.test(idempotencyKey))
    throw validationFailed('Idempotency-Key must be 1-255 printable ASCII characters.');
  const body = await readJson(req);
  const input = parseNewCustomer(body);
  const fingerprint = hmac(fingerprintKey, JSON.stringify({ operation: 'customer.create', request: body }));
  const changedFields = Object.keys(body as object);

  for (let attempt = 1; ; attempt++) {
    const customerId = uuidv7();
    const data = { customerId };
    const statements: pg.QueryConfig[] = [];
    if (idempotencyKey !== undefined) {
      statements.push({
        ...INSERT_IDEMPOTENCY_KEY,
        values: [
          principalId,
          environment,
          idempotencyKey,
          fingerprint,
          JSON.stringify(data),
          new Date(Date.now() + IDEMPOTENCY_TTL_MS),
        ],
      });
    }
    statements.push({
      ...INSERT_CUSTOMER,
      values: [
        customerId,
        environment,
        hmac(blindIndexKey, `${environment}\u0000${input.ssn}`),
        encrypt(input.ssn, customerId, 'ssn'),
        encrypt(String(input.documentLocatorNumber), customerId, 'document_locator_number'),
        activeKeyId,
        input.dateOfBirth,
        input.preferredName,
        input.firstName,
        input.middleName,
        input.lastName,
        input.emails,
        JSON.stringify(input.phoneNumbers),
        JSON.stringify(input.addresses),
      ],
    });
    statements.push({
      ...INSERT_AUDIT_EVENT,
      values: [uuidv7(), principalId, environment, customerId, requestId, idempotencyKey ?? null, changedFields],
    });
    const presented = {
      id: customerId,
      dateOfBirth: input.dateOfBirth,
      preferredName: input.preferredName,
      firstName: input.firstName,
      middleName: input.middleName,
      lastName: input.lastName,
      emails: input.emails,
      phoneNumbers: input.phoneNumbers,
      addresses: input.addresses,
      accountIds: '',
    };
    statements.push({ ...INSERT_CREATED_EVENT, values: [environment, customerId, JSON.stringify(presented)] });

    let replayed: { customerId: string } | undefined;
    try {
      await pipelinedTransaction(statements);
    } catch (error) {
      if (uniqueViolationOn(error, 'customers')) {
        throw new HttpError(
          409,
          'CUSTOMER_ALREADY_EXISTS',
          'A customer with this social security number already exists in this environment.',
        );
      }
      if (idempotencyKey === undefined || !uniqueViolationOn(error, 'idempotency_keys') || attempt > 2) throw error;
      const earlier = await replay(idempotencyKey, fingerprint);
      if (earlier === 'retry') continue;
      replayed = earlier;
    }
    const answer = replayed ?? data;
    const headers: Record<string, string> = { location: `/${environment}/customer/${answer.customerId}` };
    if (replayed) headers['idempotent-replayed'] = 'true';
    return send(res, 201, envelope('log_ref_id', requestId, answer, null), requestId, headers);
  }
}

async function updateCustomer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  requestId: string,
  id: string,
): Promise<void> {
  const changes = parseChanges(await readJson(req));
  if (!UUID.test(id)) throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
  const changedFields = Object.keys(changes).filter((key) => changes[key as keyof CustomerChanges] !== undefined);
  const [updated] = await pipelinedTransaction([
    {
      ...UPDATE_CUSTOMER,
      values: [
        id,
        environment,
        changes.preferredName ?? null,
        changes.emails ?? null,
        changes.phoneNumbers === undefined ? null : JSON.stringify(changes.phoneNumbers),
        changes.addresses === undefined ? null : JSON.stringify(changes.addresses),
      ],
    },
    { ...INSERT_UPDATE_AUDIT_EVENT, values: [uuidv7(), principalId, environment, id, requestId, changedFields] },
    { ...INSERT_UPDATED_EVENT, values: [id, environment] },
  ]);
  const row = updated!.rows[0] as CustomerRow | undefined;
  if (!row) throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
  return send(res, 200, envelope('log_ref_id', requestId, presentCustomer(row), null), requestId);
}

function sendCustomerPage(res: http.ServerResponse, requestId: string, rows: CustomerRow[], limit: number): void {
  const page = rows.slice(0, limit);
  const data = { customers: page.map(presentCustomer), nextAfter: rows.length > limit ? page.at(-1)!.id : null };
  send(res, 200, envelope('log_ref_id', requestId, data, null), requestId);
}

const pageSize = (value: unknown): number => {
  if (value === undefined || value === null) return PAGE_SIZE_DEFAULT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw validationFailed('limit must be a whole number from 1 to 100.');
  return limit;
};

/** `GET /{env}/customer?lastName=&limit=`: the first page of a last-name prefix (the bench's only list query). */
async function listCustomers(res: http.ServerResponse, requestId: string, query: URLSearchParams): Promise<void> {
  const unknown = [...query.keys()].filter((key) => key !== 'lastName' && key !== 'limit');
  if (unknown.length > 0) throw validationFailed(`Unknown parameters: ${unknown.join(', ')}.`);
  const lastName = query.get('lastName');
  if (lastName === null || !isText(lastName, 100)) throw validationFailed('lastName is required here.');
  const limit = pageSize(query.get('limit') ?? undefined);
  const { rows } = await pool.query<CustomerRow>({
    ...CUSTOMERS_BY_LAST_NAME,
    values: [environment, limit + 1, lastName],
  });
  sendCustomerPage(res, requestId, rows, limit);
}

/** `POST /{env}/customer/search {socialSecurityNumber}`: exact, through the blind index, audited. */
async function searchBySsn(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> {
  const body = await readJson(req);
  if (!isObject(body) || Object.keys(body).some((key) => key !== 'socialSecurityNumber' && key !== 'limit'))
    throw validationFailed('Only socialSecurityNumber and limit.');
  const ssn = normaliseSsn(body.socialSecurityNumber);
  if (ssn === undefined) throw validationFailed('socialSecurityNumber is not a valid SSN.');
  const limit = pageSize(body.limit);
  const { rows } = await pool.query<CustomerRow>({
    ...CUSTOMERS_BY_SSN_AUDITED,
    values: [
      environment,
      limit + 1,
      hmac(blindIndexKey, `${environment}\u0000${ssn}`),
      uuidv7(),
      principalId,
      uuidv7(),
      requestId,
    ],
  });
  sendCustomerPage(res, requestId, rows, limit);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> {
  const [, pathEnvironment, resource, id, extra] = (req.url ?? '/').split('?')[0]!.split('/');
  if (req.url === '/healthz') return send(res, 200, { status: 'ok' }, requestId);
  const logRefName = resource === 'account' ? 'logRefId' : 'log_ref_id';
  const notFound = (code: string) =>
    send(res, 404, envelope(logRefName, requestId, null, { code, message: 'Not found.' }), requestId);
  const route =
    req.method === 'GET' && resource === 'customer' && id === undefined
      ? 'list'
      : req.method === 'POST' && resource === 'customer' && id === 'search'
        ? 'search'
        : req.method === 'GET' && id !== undefined && (resource === 'customer' || resource === 'account')
          ? 'read'
          : req.method === 'POST' && resource === 'customer' && (id === undefined || id === '')
            ? 'create'
            : req.method === 'PUT' && resource === 'customer' && id !== undefined
              ? 'update'
              : undefined;
  if (route === undefined || extra !== undefined) return notFound('ROUTE_NOT_FOUND');
  if (!authorized(req.headers.authorization)) {
    return send(
      res,
      401,
      envelope(logRefName, requestId, null, { code: 'UNAUTHENTICATED', message: 'A valid bearer token is required.' }),
      requestId,
    );
  }
  if (pathEnvironment !== environment) return notFound('ENVIRONMENT_NOT_FOUND');
  if (route === 'list') return listCustomers(res, requestId, new URL(req.url ?? '/', 'http://floor').searchParams);
  if (route === 'search') return searchBySsn(req, res, requestId);
  if (route === 'create') return createCustomer(req, res, requestId);
  if (route === 'update') return updateCustomer(req, res, requestId, id!);

  if (resource === 'customer') {
    if (!UUID.test(id!)) return notFound('CUSTOMER_NOT_FOUND');
    const { rows } = await pool.query<CustomerRow>({ ...CUSTOMER_BY_ID, values: [id, environment] });
    const row = rows[0];
    if (!row) return notFound('CUSTOMER_NOT_FOUND');
    return send(res, 200, envelope('log_ref_id', requestId, presentCustomer(row), null), requestId);
  }

  if (!UUID.test(id!)) return notFound('ACCOUNT_NOT_FOUND');
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
    transactions: row.transactions,
    flags: row.flags ?? [],
  };
  return send(res, 200, envelope('logRefId', requestId, data, null), requestId);
}

const server = http.createServer((req, res) => {
  const requestId = randomUUID();
  handle(req, res, requestId).catch((error: unknown) => {
    if (res.headersSent) return;
    const logRefName = (req.url ?? '/').split('/')[2] === 'account' ? 'logRefId' : 'log_ref_id';
    if (error instanceof HttpError) {
      send(
        res,
        error.status,
        envelope(logRefName, requestId, null, { code: error.code, message: error.message }),
        requestId,
      );
      return;
    }
    process.stderr.write(`internal error: ${(error as Error).message?.split('\n')[0]}\n`);
    send(
      res,
      500,
      envelope(logRefName, requestId, null, { code: 'INTERNAL_ERROR', message: 'Internal error.' }),
      requestId,
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(env('PORT')), '127.0.0.1', () => {
  process.stdout.write(`raw floor listening on ${JSON.stringify(server.address())}\n`);
});
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
