import { randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import type { PrismaClient } from '../../src/db/generated/prisma/client.js';
import type { Transaction } from '../../src/features/ledger/transaction.js';

/**
 * The floors that do the service's own database work and nothing else: `node:http` + `pg`, the service's SQL
 * sent as the service sends it, and no Express, Prisma Client, logging, metrics or validation library.
 *
 * - **Batching floor** (`GET /{env}/customer/{id}`, `GET /{env}/account/{id}`): concurrent reads merged exactly as
 *   the service merges them. The reads go through the service's own stores (PrismaCustomerStore,
 *   PrismaAccountStore) and so through its CoalescedReads (src/db/sql/coalesced-reads.ts: one `id = ANY($2)`
 *   statement per event-loop round, at most 100 ids, split by environment) with the service's statement text and
 *   prepared-statement name; the rows are mapped and presented by the service's own functions.
 * - **Transfer floor** (`POST /{env}/transfer` with an Idempotency-Key): the service's one posting statement
 *   (PrismaLedgerStore.post: the balances, the entries, the audit event, the outbox events and the key's claim in
 *   one statement), with the values the service gives it; a key already held is replayed from its record.
 * - As the batching floor, also `POST /{env}/customer` with an Idempotency-Key (there is nothing to merge in a
 *   write): the service's one creation statement (PrismaCustomerStore.insert: the customer, its audit event, its
 *   outbox event and the key's claim), personal data sealed by the service's PiiCipher, the phone numbers' search
 *   keys as the service computes them; minimal validation.
 *
 * - As the batching floor, also `PUT /{env}/customer/{id}` (the mixed workload's update: preferredName and emails): the
 *   service's one update statement (PrismaCustomerStore.update: the changes, the audit event and the outbox event).
 * - As the batching floor, also the customer searches (`GET /{env}/customer?lastName=&limit=`, `POST /{env}/customer/search
 *   {socialSecurityNumber}`): the service's one search statement (PrismaCustomerStore.search and auditedSearch: the page
 *   as one JSON text, the SSN search's audit event in the same statement), a page read as the service reads it (one row
 *   more than asked, for the cursor), presented by the service's own presenter: a floor that runs the same SQL.
 *
 * The stores run on a stand-in for Prisma Client that passes each statement straight to `pg` under the name the
 * service's client gives it (src/db/sql/sql.ts, statementName), on a pool made by the service's own factory
 * (src/db/connection/pool.ts: its statement and idle-in-transaction time-outs, plan_cache_mode, TimeZone,
 * application_name) with the service's default time-outs (src/config/database.ts). What remains is the HTTP
 * server, the bearer-token check and the envelope.
 *
 * The service's modules are loaded from dist/ (`npm run build`, which the bench runs first). Dev-only: never
 * imported by src/.
 *
 * Environment: DATABASE_URL, PORT, API_TOKEN, ENVIRONMENT, POOL_SIZE, PII_KEYS, PII_ACTIVE_KEY, PII_BLIND_INDEX_KEY.
 */

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const dist = (module: string) => pathToFileURL(path.resolve(import.meta.dirname, '../../dist', module)).href;
const { createPool } = (await import(
  dist('db/connection/pool.js')
)) as typeof import('../../src/db/connection/pool.js');
const { statementName } = (await import(dist('db/sql/sql.js'))) as typeof import('../../src/db/sql/sql.js');
const { PrismaCustomerStore } = (await import(
  dist('features/customers/customer.store.js')
)) as typeof import('../../src/features/customers/customer.store.js');
const { PrismaAccountStore } = (await import(
  dist('features/accounts/account.store.js')
)) as typeof import('../../src/features/accounts/account.store.js');
const { PrismaLedgerStore } = (await import(
  dist('features/ledger/ledger.store.js')
)) as typeof import('../../src/features/ledger/ledger.store.js');
const { PiiCipher } = (await import(dist('pii/pii-cipher.js'))) as typeof import('../../src/pii/pii-cipher.js');
const { phoneSearchKeys } = (await import(
  dist('features/customers/phone-numbers.js')
)) as typeof import('../../src/features/customers/phone-numbers.js');
const { exactAmount } = (await import(
  dist('features/ledger/money.js')
)) as typeof import('../../src/features/ledger/money.js');
const { presentCustomer, presentCustomerPage } = (await import(
  dist('features/customers/customer.presenter.js')
)) as typeof import('../../src/features/customers/customer.presenter.js');
const { presentAccount } = (await import(
  dist('features/accounts/account.presenter.js')
)) as typeof import('../../src/features/accounts/account.presenter.js');
const { presentTransfer } = (await import(
  dist('features/ledger/transaction.presenter.js')
)) as typeof import('../../src/features/ledger/transaction.presenter.js');

// The service's defaults: DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_CONNECT_TIMEOUT_MS (src/config/database.ts).
const pool = createPool({
  connectionString: env('DATABASE_URL'),
  max: Number(process.env.POOL_SIZE ?? 10),
  connectTimeoutMs: 2000,
  statementTimeoutMs: 5000,
});

/**
 * What the stores call of Prisma Client, on `pg`: the statement under the name the service's client gives it
 * (a declared statement is prepared once per connection; any other text goes unnamed).
 */
const sql = {
  async $queryRawUnsafe<R>(text: string, ...values: unknown[]): Promise<R> {
    const name = statementName(text);
    const result = await pool.query(name === undefined ? { text, values } : { name, text, values });
    return result.rows as R;
  },
  async $executeRawUnsafe(text: string, ...values: unknown[]): Promise<number> {
    const name = statementName(text);
    const result = await pool.query(name === undefined ? { text, values } : { name, text, values });
    return result.rowCount ?? 0;
  },
} as unknown as PrismaClient;

const customers = new PrismaCustomerStore(sql);
const accounts = new PrismaAccountStore(sql);
const ledger = new PrismaLedgerStore(sql);

const environment = env('ENVIRONMENT');
const expectedAuthorization = Buffer.from(`Bearer ${env('API_TOKEN')}`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const principalId = 'static:bench';
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_BODY_BYTES = 100_000;
// The service's sealing, blind index and idempotency fingerprint, with the keys the bench gives the service.
const cipher = new PiiCipher({
  keys: new Map(
    env('PII_KEYS')
      .split(',')
      .map(
        (pair) => [pair.slice(0, pair.indexOf(':')), Buffer.from(pair.slice(pair.indexOf(':') + 1), 'base64')] as const,
      ),
  ),
  activeKeyId: env('PII_ACTIVE_KEY'),
  blindIndexKey: Buffer.from(env('PII_BLIND_INDEX_KEY'), 'base64'),
});

type LogRefName = 'log_ref_id' | 'logRefId';

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

const envelope = (
  logRefName: LogRefName,
  requestId: string,
  data: unknown,
  error: { code: string; message: string } | null,
) => ({
  data,
  success: error === null,
  error,
  requestId,
  [logRefName]: requestId,
});

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
        reject(new HttpError(400, 'VALIDATION_FAILED', 'The body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
}

/** Both sides of a transfer, as the service's ledger presents them (src/features/ledger/ledger.service.ts, transferOf). */
function transferOf(debit: Transaction, credit: Transaction, transferId: string) {
  return {
    transferId: debit.transferId ?? transferId,
    amount: debit.amount,
    currency: debit.currency,
    description: debit.description,
    debit,
    credit,
    ...(debit.externalId !== undefined && { externalId: debit.externalId }),
    ...(debit.metadata !== undefined && { metadata: debit.metadata }),
  };
}

const REFUSAL_STATUS: Record<string, number> = {
  ACCOUNT_NOT_FOUND: 404,
  INSUFFICIENT_FUNDS: 422,
  CURRENCY_MISMATCH: 422,
};

/** `POST /{env}/transfer {fromAccountId, toAccountId, amount, description?}` with an Idempotency-Key. */
async function createTransfer(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> {
  const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
  if (idempotencyKey === undefined || !/^[\x20-\x7e]{1,255}$/.test(idempotencyKey))
    throw new HttpError(400, 'VALIDATION_FAILED', 'Idempotency-Key is required here.');
  const body = (await readJson(req)) as {
    fromAccountId?: unknown;
    toAccountId?: unknown;
    amount?: unknown;
    description?: unknown;
  } | null;
  if (typeof body?.fromAccountId !== 'string' || !UUID.test(body.fromAccountId))
    throw new HttpError(404, 'ACCOUNT_NOT_FOUND', 'fromAccountId names no account.');
  if (typeof body.toAccountId !== 'string' || !UUID.test(body.toAccountId))
    throw new HttpError(404, 'ACCOUNT_NOT_FOUND', 'toAccountId names no account.');
  if (body.description !== undefined && typeof body.description !== 'string')
    throw new HttpError(400, 'VALIDATION_FAILED', 'description must be a string.');
  const exact =
    typeof body.amount === 'number' || typeof body.amount === 'string'
      ? exactAmount(body.amount, null)
      : { problem: 'not-a-number' as const };
  if ('problem' in exact) throw new HttpError(400, 'VALIDATION_FAILED', 'amount is not a valid amount.');
  const fromAccountId = body.fromAccountId.toLowerCase();
  const toAccountId = body.toAccountId.toLowerCase();
  const request = { ...body, fromAccountId, toAccountId, amount: exact.amount };
  const fingerprint = cipher.fingerprint(JSON.stringify({ operation: 'transfer.create', request }));
  const transferId = uuidv7();
  const debitId = uuidv7();
  const creditId = uuidv7();
  const written = await ledger.post(
    {
      environment,
      postingId: transferId,
      transferId,
      legs: [
        { entryId: debitId, accountId: fromAccountId, type: 'DEBIT' },
        { entryId: creditId, accountId: toAccountId, type: 'CREDIT' },
      ],
      amount: exact.amount,
      currency: null,
      description: body.description ?? '',
      hold: false,
      expiresAt: null,
      limits: null,
      externalId: null,
      metadata: null,
    },
    {
      audit: {
        eventId: uuidv7(),
        principalId,
        environment,
        operation: 'transfer.create',
        resourceType: 'transfer',
        resourceId: transferId,
        requestId,
        idempotencyKey,
        changedFields: Object.keys(body),
      },
      idempotency: {
        claim: {
          principalId,
          environment,
          key: idempotencyKey,
          operation: 'transfer.create',
          fingerprint,
          expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
        },
        result: { transactionIds: [debitId, creditId] },
      },
    },
  );
  if (written.outcome === 'refused')
    throw new HttpError(REFUSAL_STATUS[written.refusal] ?? 422, written.refusal, 'The transfer was refused.');
  let transactions: Transaction[] = written.outcome === 'written' ? written.transactions : [];
  let replayed = false;
  if (written.outcome === 'key-taken') {
    // An earlier request holds the key: its answer again, as it is now (the service's IdempotentCreation).
    const existing = (await existingKey(idempotencyKey)) as
      { operation: string; fingerprint: Buffer; result: { transactionIds: string[] } } | undefined;
    if (!existing)
      throw new HttpError(
        409,
        'IDEMPOTENCY_KEY_IN_PROGRESS',
        'A request with this Idempotency-Key is still being processed.',
      );
    if (existing.operation !== 'transfer.create' || !existing.fingerprint.equals(fingerprint)) {
      throw new HttpError(
        422,
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used for a different request.',
      );
    }
    const found = await ledger.findTransactions(environment, existing.result.transactionIds);
    transactions = existing.result.transactionIds
      .map((id) => found.find((t) => t.transactionId === id))
      .filter((t): t is Transaction => t !== undefined);
    replayed = true;
  }
  const [debit, credit] = transactions;
  const transfer = presentTransfer(transferOf(debit!, credit!, transferId));
  return send(
    res,
    201,
    envelope('logRefId', requestId, transfer, null),
    requestId,
    replayed ? { 'idempotent-replayed': 'true' } : {},
  );
}

// --- Minimal validation (present, not exhaustive) --------------------------------------------------------

const PAGE_SIZE_DEFAULT = 20;

const pageSize = (value: unknown): number => {
  if (value === undefined || value === null) return PAGE_SIZE_DEFAULT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new HttpError(400, 'VALIDATION_FAILED', 'limit must be a whole number from 1 to 100.');
  return limit;
};

type CustomerFilter = Parameters<InstanceType<typeof PrismaCustomerStore>['search']>[1];
type FoundCustomer = Awaited<ReturnType<InstanceType<typeof PrismaCustomerStore>['search']>>[number];

/** A page as the service reads one (src/domain/pagination.ts, readPage): one row more than asked says whether there is a next. */
function sendCustomerPage(res: http.ServerResponse, requestId: string, rows: FoundCustomer[], limit: number): void {
  const items = rows.slice(0, limit);
  const page = { items, nextAfter: rows.length > limit ? items.at(-1)!.customerId : null };
  send(res, 200, envelope('log_ref_id', requestId, presentCustomerPage(page), null), requestId);
}

/** `GET /{env}/customer?lastName=&limit=`: the first page of a last-name prefix, through the service's search statement. */
async function listCustomers(res: http.ServerResponse, requestId: string, query: URLSearchParams): Promise<void> {
  const lastName = query.get('lastName');
  if (lastName === null || lastName.length === 0 || lastName.length > 100)
    throw validationFailed('lastName is required here.');
  const limit = pageSize(query.get('limit') ?? undefined);
  const filter: CustomerFilter = { lastNamePrefix: lastName };
  sendCustomerPage(res, requestId, await customers.search(environment, filter, { first: limit + 1 }), limit);
}

/** `POST /{env}/customer/search {socialSecurityNumber}`: the blind index's look-up and its audit event, in the service's one statement. */
async function searchBySsn(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> {
  const body = await readJson(req);
  if (!isObject(body) || Object.keys(body).some((key) => key !== 'socialSecurityNumber' && key !== 'limit'))
    throw validationFailed('Only socialSecurityNumber and limit.');
  const ssn =
    typeof body.socialSecurityNumber === 'string'
      ? /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(body.socialSecurityNumber)
      : null;
  if (!ssn) throw validationFailed('socialSecurityNumber is not a valid SSN.');
  const limit = pageSize(body.limit);
  const filter: CustomerFilter = { ssnBlindIndex: cipher.blindIndex(environment, `${ssn[1]}${ssn[2]}${ssn[3]}`) };
  const audit = {
    eventId: uuidv7(),
    principalId,
    environment,
    operation: 'customer.search' as const,
    resourceType: 'customer' as const,
    resourceId: uuidv7(),
    requestId,
    idempotencyKey: null,
    changedFields: Object.keys(body).filter((key) => key !== 'limit'),
  };
  sendCustomerPage(
    res,
    requestId,
    await customers.auditedSearch(environment, filter, { first: limit + 1 }, audit),
    limit,
  );
}

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
const validationFailed = (message: string) => new HttpError(400, 'VALIDATION_FAILED', message);

type NewCustomerRecord = Parameters<InstanceType<typeof PrismaCustomerStore>['insert']>[0];

/**
 * `PUT /{env}/customer/{id} {preferredName?, emails?}`: the service's one update statement (PrismaCustomerStore.update:
 * the changed columns, the audit event, the outbox event, in one statement); the fields the mixed workload sends.
 */
async function updateCustomer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  requestId: string,
  id: string,
): Promise<void> {
  const body = await readJson(req);
  if (!isObject(body)) throw validationFailed('The body must be a JSON object.');
  const unknownFields = Object.keys(body).filter((field) => field !== 'preferredName' && field !== 'emails');
  if (unknownFields.length > 0) throw validationFailed(`${unknownFields.join(', ')} cannot be updated here.`);
  if (body.preferredName !== undefined && !isText(body.preferredName, 100))
    throw validationFailed('preferredName must be a string.');
  if (body.emails !== undefined && !isList(body.emails, isEmail))
    throw validationFailed('emails must be a list of email addresses.');
  if (!UUID.test(id)) throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
  const customerId = id.toLowerCase();
  const audit = {
    eventId: uuidv7(),
    principalId,
    environment,
    operation: 'customer.update',
    resourceType: 'customer',
    resourceId: customerId,
    requestId,
    idempotencyKey: null,
    changedFields: Object.keys(body),
  } as const;
  const changes = {
    ...(body.preferredName !== undefined && { preferredName: body.preferredName as string }),
    ...(body.emails !== undefined && { emails: body.emails as string[] }),
  };
  const update = await customers.update(environment, customerId, changes, { audit });
  if (update.outcome !== 'updated') throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
  send(res, 200, envelope('log_ref_id', requestId, presentCustomer(update.customer), null), requestId);
}

/** `POST /{env}/customer` with an Idempotency-Key: the service's creation statement, as the service fills it. */
async function createCustomer(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> {
  const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
  if (idempotencyKey !== undefined && !/^[\x20-\x7e]{1,255}$/.test(idempotencyKey))
    throw validationFailed('Idempotency-Key must be 1-255 printable ASCII characters.');
  const body = await readJson(req);
  if (!isObject(body)) throw validationFailed('The body must be a JSON object.');
  const ssnMatch =
    typeof body.socialSecurityNumber === 'string'
      ? /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(body.socialSecurityNumber)
      : null;
  if (!ssnMatch) throw validationFailed('socialSecurityNumber is not a valid SSN.');
  const dln = body.documentLocatorNumber;
  if (typeof dln !== 'number' || !Number.isSafeInteger(dln) || dln < 0)
    throw validationFailed('documentLocatorNumber must be a whole number.');
  if (typeof body.dateOfBirth !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.dateOfBirth))
    throw validationFailed('dateOfBirth must be a date YYYY-MM-DD.');
  for (const field of ['preferredName', 'firstName', 'middleName', 'lastName'])
    if (!isText(body[field], 100)) throw validationFailed(`${field} must be a string.`);
  if (!isList(body.emails, isEmail)) throw validationFailed('emails must be a list of email addresses.');
  if (!isList(body.phoneNumbers, isPhone)) throw validationFailed('phoneNumbers must be a list of phone numbers.');
  if (!isList(body.addresses, isAddress)) throw validationFailed('addresses must be a list of addresses.');
  const socialSecurityNumber = `${ssnMatch[1]}${ssnMatch[2]}${ssnMatch[3]}`;
  const customerId = uuidv7();
  const phoneNumbers = body.phoneNumbers as NewCustomerRecord['phoneNumbers'];
  const record: NewCustomerRecord = {
    id: customerId,
    environment,
    sealed: cipher.seal({ environment, customerId }, { socialSecurityNumber, documentLocatorNumber: dln }),
    dateOfBirth: body.dateOfBirth,
    preferredName: body.preferredName as string,
    firstName: body.firstName as string,
    middleName: body.middleName as string,
    lastName: body.lastName as string,
    emails: body.emails as string[],
    phoneNumbers,
    addresses: body.addresses as NewCustomerRecord['addresses'],
    phoneSearchKeys: phoneSearchKeys(phoneNumbers),
  };
  const fingerprint = cipher.fingerprint(
    JSON.stringify({ operation: 'customer.create', request: { ...body, socialSecurityNumber } }),
  );
  const audit = {
    eventId: uuidv7(),
    principalId,
    environment,
    operation: 'customer.create',
    resourceType: 'customer',
    resourceId: customerId,
    requestId,
    idempotencyKey: idempotencyKey ?? null,
    changedFields: Object.keys(body),
  } as const;
  const outcome = await customers.insert(record, {
    audit,
    ssnRefusalAudit: { ...audit, eventId: uuidv7(), operation: 'customer.create.refused' },
    idempotency:
      idempotencyKey === undefined
        ? undefined
        : {
            claim: {
              principalId,
              environment,
              key: idempotencyKey,
              operation: 'customer.create',
              fingerprint,
              expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
            },
            result: { customerId },
          },
  });
  let answer = { customerId };
  if (outcome !== 'created') {
    // An earlier request holds the key: its answer again (the service's IdempotentCreation).
    const existing = idempotencyKey === undefined ? undefined : await existingKey(idempotencyKey);
    if (!existing)
      throw new HttpError(
        409,
        'IDEMPOTENCY_KEY_IN_PROGRESS',
        'A request with this Idempotency-Key is still being processed.',
      );
    if (existing.operation !== 'customer.create' || !existing.fingerprint.equals(fingerprint)) {
      throw new HttpError(
        422,
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used for a different request.',
      );
    }
    answer = existing.result as { customerId: string };
  }
  const headers: Record<string, string> = { location: `/${environment}/customer/${answer.customerId}` };
  if (outcome !== 'created') headers['idempotent-replayed'] = 'true';
  return send(res, 201, envelope('log_ref_id', requestId, answer, null), requestId, headers);
}

/** The unexpired record holding an Idempotency-Key of the bench's principal, or undefined. */
async function existingKey(
  key: string,
): Promise<{ operation: string; fingerprint: Buffer; result: unknown } | undefined> {
  const { rows } = await pool.query<{ operation: string; fingerprint: Buffer; result: unknown }>(
    'SELECT operation, fingerprint, result FROM idempotency_keys WHERE principal_id = $1 AND environment = $2 AND key = $3 AND expires_at > CURRENT_TIMESTAMP',
    [principalId, environment, key],
  );
  return rows[0];
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> {
  if (req.url === '/healthz') return send(res, 200, { status: 'ok' }, requestId);
  const [, pathEnvironment, resource, id, extra] = (req.url ?? '/').split('?')[0]!.split('/');
  const logRefName: LogRefName = resource === 'customer' ? 'log_ref_id' : 'logRefId';
  const notFound = (code: string) =>
    send(res, 404, envelope(logRefName, requestId, null, { code, message: 'Not found.' }), requestId);
  const route =
    req.method === 'GET' &&
    id !== undefined &&
    id !== '' &&
    extra === undefined &&
    (resource === 'customer' || resource === 'account')
      ? 'read'
      : req.method === 'POST' && resource === 'transfer' && id === undefined
        ? 'transfer'
        : req.method === 'POST' && resource === 'customer' && (id === undefined || id === '')
          ? 'create'
          : req.method === 'GET' && resource === 'customer' && id === undefined
            ? 'list'
            : req.method === 'POST' && resource === 'customer' && id === 'search' && extra === undefined
              ? 'search'
              : req.method === 'PUT' && resource === 'customer' && id !== undefined && id !== '' && extra === undefined
                ? 'update'
                : undefined;
  if (route === undefined) return notFound('ROUTE_NOT_FOUND');
  if (!authorized(req.headers.authorization)) {
    return send(
      res,
      401,
      envelope(logRefName, requestId, null, { code: 'UNAUTHENTICATED', message: 'A valid bearer token is required.' }),
      requestId,
    );
  }
  if (pathEnvironment !== environment) return notFound('ENVIRONMENT_NOT_FOUND');
  if (route === 'transfer') return createTransfer(req, res, requestId);
  if (route === 'create') return createCustomer(req, res, requestId);
  if (route === 'list') return listCustomers(res, requestId, new URL(req.url ?? '/', 'http://floor').searchParams);
  if (route === 'search') return searchBySsn(req, res, requestId);
  if (route === 'update') return updateCustomer(req, res, requestId, id!);

  if (resource === 'customer') {
    if (!UUID.test(id!)) return notFound('CUSTOMER_NOT_FOUND');
    const customer = await customers.findById(environment, id!);
    if (!customer) return notFound('CUSTOMER_NOT_FOUND');
    return send(res, 200, envelope('log_ref_id', requestId, presentCustomer(customer), null), requestId);
  }
  if (!UUID.test(id!)) return notFound('ACCOUNT_NOT_FOUND');
  const account = await accounts.findById(environment, id!);
  if (!account) return notFound('ACCOUNT_NOT_FOUND');
  return send(res, 200, envelope('logRefId', requestId, presentAccount(account), null), requestId);
}

const server = http.createServer((req, res) => {
  const requestId = randomUUID();
  handle(req, res, requestId).catch((error: unknown) => {
    if (res.headersSent) return;
    const logRefName: LogRefName = (req.url ?? '/').split('/')[2] === 'customer' ? 'log_ref_id' : 'logRefId';
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
  process.stdout.write(`service-sql floor listening on ${JSON.stringify(server.address())}\n`);
});
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
