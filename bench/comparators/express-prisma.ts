import { createCipheriv, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import express, { type NextFunction, type Request, type Response } from 'express';
import { v7 as uuidv7 } from 'uuid';
import type { Prisma, PrismaClient as PrismaClientInstance } from '../../src/db/generated/prisma/client.js';

/**
 * The idiomatic comparator: what a competent team writes with Express 5 and Prisma 7 without tuning
 * anything. `express.json()`, a bearer-token middleware, one PrismaClient on `PrismaPg` with the same
 * pool size as every contender, the typed model API (`findUnique` by the (id, environment) key with a `select`
 * whitelist and the relation, `create`, `update`) and `$transaction(async tx => …)` for the writes: the customer, its
 * audit event and its outbox event (issue 16: every write appends its event in its own transaction; the
 * service's sequencer, running beside it in the bench, numbers it), with the Idempotency-Key record found,
 * created and completed in the same transaction.
 * Personal data sealed as the service seals it (AES-256-GCM, HMAC-SHA-256 blind index, the layout of
 * src/pii/pii-cipher.ts), with the keys the bench gives the service. The same JSON and envelope as the
 * service and the raw floor (checked before measuring, bench/lib/verify.ts). Dev-only: never imported by src/.
 *
 * Its own Prisma client, generated with Prisma's defaults from bench/comparators/prisma/schema.prisma (not the
 * service's, whose generator is tuned), compiled to dist/bench-prisma by the bench before it starts this file
 * (bench/lib/comparator-client.ts): Node 24+ runs this file natively, and type stripping cannot resolve the generated
 * client's `.js` imports to `.ts`. It is typed by the service's generated client: the same models, field for field,
 * so the bench's own client need not exist for the project to typecheck.
 *
 * Environment: DATABASE_URL, PORT, API_TOKEN, ENVIRONMENT, POOL_SIZE, PII_KEYS, PII_ACTIVE_KEY, PII_BLIND_INDEX_KEY.
 */

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const clientModule = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/bench-prisma/client.js')).href;
const { PrismaClient } = (await import(clientModule)) as typeof import('../../src/db/generated/prisma/client.js');

const prisma: PrismaClientInstance = new PrismaClient({
  adapter: new PrismaPg({ connectionString: env('DATABASE_URL'), max: Number(process.env.POOL_SIZE ?? 10) }),
});
const environment = env('ENVIRONMENT');
const expectedAuthorization = Buffer.from(`Bearer ${env('API_TOKEN')}`);
const principalId = 'static:bench';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

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

/** Prisma's Bytes fields take Uint8Array<ArrayBuffer>; node:crypto's Buffers are that, typed more widely. */
const bytes = (buffer: Buffer): Uint8Array<ArrayBuffer> =>
  new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.length);

function encrypt(plaintext: string, customerId: string, field: string): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', activeKey!, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(`${environment}\u0000${customerId}\u0000${field}`, 'utf8'));
  const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return bytes(Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), encrypted]));
}

const hmac = (key: Buffer, material: string): Uint8Array<ArrayBuffer> =>
  bytes(createHmac('sha256', key).update(material, 'utf8').digest());

// --- HTTP plumbing ---------------------------------------------------------------------------------------

type Family = 'customer' | 'account';

// No parameter properties: Node's type stripping cannot run them.
class HttpError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function send(
  res: Response,
  family: Family,
  status: number,
  data: unknown,
  error: { code: string; message: string } | null,
): void {
  const requestId = res.locals.requestId as string;
  const logRef = family === 'account' ? { logRefId: requestId } : { log_ref_id: requestId };
  res.status(status).json({ data, success: error === null, error, requestId, ...logRef });
}

const familyOf = (req: Request): Family => (req.path.split('/')[2] === 'account' ? 'account' : 'customer');

const validationFailed = (message: string) => new HttpError(400, 'VALIDATION_FAILED', message);

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

const UPDATABLE = new Set(['preferredName', 'emails', 'phoneNumbers', 'addresses']);

function parseChanges(body: unknown): Prisma.CustomerUpdateInput {
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
  return {
    preferredName: body.preferredName as string | undefined,
    emails: body.emails as string[] | undefined,
    phoneNumbers: body.phoneNumbers as Prisma.InputJsonValue | undefined,
    addresses: body.addresses as Prisma.InputJsonValue | undefined,
  };
}

// --- Reads: typed findUnique with a select whitelist (never a personal-data column) -------------------------

const customerSelect = {
  id: true,
  dateOfBirth: true,
  preferredName: true,
  firstName: true,
  middleName: true,
  lastName: true,
  emails: true,
  phoneNumbers: true,
  addresses: true,
  accountLinks: { select: { accountId: true }, orderBy: [{ createdAt: 'asc' }, { accountId: 'asc' }] },
} satisfies Prisma.CustomerSelect;

type SelectedCustomer = Prisma.CustomerGetPayload<{ select: typeof customerSelect }>;

const presentCustomer = (customer: SelectedCustomer) => ({
  customerId: customer.id,
  accountIds: customer.accountLinks.map((link) => link.accountId),
  addresses: customer.addresses,
  dateOfBirth: customer.dateOfBirth?.toISOString().slice(0, 10) ?? '',
  emails: customer.emails,
  firstName: customer.firstName,
  lastName: customer.lastName,
  middleName: customer.middleName,
  phoneNumbers: customer.phoneNumbers,
  preferredName: customer.preferredName,
});

const isPrismaError = (error: unknown, code: string): boolean => (error as { code?: unknown } | null)?.code === code;

// --- The app ---------------------------------------------------------------------------------------------

const app = express();
app.disable('x-powered-by');

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

app.use((req, res, next) => {
  res.locals.requestId = randomUUID();
  res.setHeader('x-request-id', res.locals.requestId as string);
  const given = Buffer.from(req.get('authorization') ?? '');
  if (given.length !== expectedAuthorization.length || !timingSafeEqual(given, expectedAuthorization)) {
    send(res, familyOf(req), 401, null, { code: 'UNAUTHENTICATED', message: 'A valid bearer token is required.' });
    return;
  }
  next();
});

app.use(express.json());

app.param('env', (req, _res, next, value: string) => {
  next(value === environment ? undefined : new HttpError(404, 'ENVIRONMENT_NOT_FOUND', 'Not found.'));
});

app.get('/:env/customer/:id', async (req, res) => {
  const { id } = req.params as { id: string };
  if (!UUID.test(id)) throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
  const customer = await prisma.customer.findUnique({
    where: { id_environment: { id, environment } },
    select: customerSelect,
  });
  if (!customer) throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
  send(res, 'customer', 200, presentCustomer(customer), null);
});

app.get('/:env/account/:id', async (req, res) => {
  const { id } = req.params as { id: string };
  if (!UUID.test(id)) throw new HttpError(404, 'ACCOUNT_NOT_FOUND', 'Not found.');
  const account = await prisma.account.findUnique({
    where: { id_environment: { id, environment } },
    select: {
      id: true,
      type: true,
      name: true,
      amount: true,
      currency: true,
      flags: true,
      customerLinks: { select: { customerId: true }, orderBy: { position: 'asc' } },
    },
  });
  if (!account) throw new HttpError(404, 'ACCOUNT_NOT_FOUND', 'Not found.');
  send(
    res,
    'account',
    200,
    {
      accountId: account.id,
      type: account.type,
      name: account.name,
      amount: account.amount.toNumber(),
      currency: account.currency,
      customers: account.customerLinks.map((link) => link.customerId),
      transactions: [],
      flags: account.flags,
    },
    null,
  );
});

/** The audit event a customer write commits in its own transaction, with the names of the fields it set. */
async function recordAudit(
  tx: Prisma.TransactionClient,
  res: Response,
  operation: 'customer.create' | 'customer.update',
  customerId: string,
  changedFields: string[],
  idempotencyKey?: string,
): Promise<void> {
  await tx.auditEvent.create({
    data: {
      id: uuidv7(),
      principalId,
      environment,
      operation,
      resourceType: 'customer',
      resourceId: customerId,
      requestId: res.locals.requestId as string,
      idempotencyKey: idempotencyKey ?? null,
      changedFields,
    },
    select: { id: true },
  });
}

/** The outbox event a customer write commits in its own transaction: the customer as the API presents it. */
async function recordEvent(
  tx: Prisma.TransactionClient,
  type: 'customer.created' | 'customer.updated',
  customerId: string,
  payload: object,
): Promise<void> {
  await tx.event.create({
    data: {
      environment,
      type,
      resourceType: 'customer',
      resourceId: customerId,
      payload: payload as Prisma.InputJsonValue,
    },
    select: { id: true },
  });
}

app.post('/:env/customer', async (req, res) => {
  const idempotencyKey = req.get('idempotency-key');
  if (idempotencyKey !== undefined && !/^[\x20-\x7e]{1,255}$/.test(idempotencyKey))
    throw validationFailed('Idempotency-Key must be 1-255 printable ASCII characters.');
  const input = parseNewCustomer(req.body);
  const fingerprint = hmac(
    fingerprintKey,
    JSON.stringify({ operation: 'customer.create', request: req.body as unknown }),
  );
  const keyId = { principalId, environment, key: idempotencyKey ?? '' };

  const outcome = await prisma.$transaction(async (tx) => {
    if (idempotencyKey !== undefined) {
      const existing = await tx.idempotencyKey.findUnique({ where: { principalId_environment_key: keyId } });
      const expiresAt = new Date(Date.now() + IDEMPOTENCY_TTL_MS);
      if (existing && existing.expiresAt > new Date()) {
        const sameRequest =
          existing.fingerprint.length === fingerprint.length && timingSafeEqual(existing.fingerprint, fingerprint);
        if (existing.operation !== 'customer.create' || !sameRequest) {
          throw new HttpError(
            422,
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was already used for a different request.',
          );
        }
        if (existing.result === null)
          throw new HttpError(
            409,
            'IDEMPOTENCY_KEY_IN_PROGRESS',
            'A request with this Idempotency-Key is still being processed.',
          );
        return { replayed: true, data: existing.result as { customerId: string } };
      }
      try {
        // An expired record is replaced.
        if (existing)
          await tx.idempotencyKey.delete({ where: { principalId_environment_key: keyId }, select: { key: true } });
        await tx.idempotencyKey.create({
          data: { ...keyId, operation: 'customer.create', fingerprint, expiresAt },
          select: { key: true },
        });
      } catch (error) {
        // A concurrent request with the same key committed it first.
        if (isPrismaError(error, 'P2002'))
          throw new HttpError(
            409,
            'IDEMPOTENCY_KEY_IN_PROGRESS',
            'A request with this Idempotency-Key is still being processed.',
          );
        throw error;
      }
    }

    const customerId = uuidv7();
    try {
      await tx.customer.create({
        data: {
          id: customerId,
          environment,
          ssnBlindIndex: hmac(blindIndexKey, `${environment}\u0000${input.ssn}`),
          ssnCiphertext: encrypt(input.ssn, customerId, 'ssn'),
          documentLocatorNumberCiphertext: encrypt(
            String(input.documentLocatorNumber),
            customerId,
            'document_locator_number',
          ),
          piiKeyId: activeKeyId,
          dateOfBirth: new Date(`${input.dateOfBirth}T00:00:00Z`),
          preferredName: input.preferredName,
          firstName: input.firstName,
          middleName: input.middleName,
          lastName: input.lastName,
          emails: input.emails,
          phoneNumbers: input.phoneNumbers as Prisma.InputJsonValue,
          addresses: input.addresses as Prisma.InputJsonValue,
        },
        select: { id: true },
      });
    } catch (error) {
      if (isPrismaError(error, 'P2002'))
        throw new HttpError(
          409,
          'CUSTOMER_ALREADY_EXISTS',
          'A customer with this social security number already exists in this environment.',
        );
      throw error;
    }
    await recordAudit(tx, res, 'customer.create', customerId, Object.keys(req.body as object), idempotencyKey);
    const { ssn: _ssn, documentLocatorNumber: _dln, ...presented } = input;
    await recordEvent(tx, 'customer.created', customerId, { customerId, accountIds: [], ...presented });
    const data = { customerId };
    if (idempotencyKey !== undefined)
      await tx.idempotencyKey.update({
        where: { principalId_environment_key: keyId },
        data: { result: data },
        select: { key: true },
      });
    return { replayed: false, data };
  });

  res.setHeader('Location', `/${environment}/customer/${outcome.data.customerId}`);
  if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
  send(res, 'customer', 201, outcome.data, null);
});

app.put('/:env/customer/:id', async (req, res) => {
  const { id } = req.params as { id: string };
  const changes = parseChanges(req.body);
  if (!UUID.test(id)) throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
  const updated = await prisma.$transaction(async (tx) => {
    let customer: SelectedCustomer;
    try {
      customer = await tx.customer.update({
        where: { id_environment: { id, environment } },
        data: { ...changes, updatedAt: new Date() },
        select: customerSelect,
      });
    } catch (error) {
      if (isPrismaError(error, 'P2025')) throw new HttpError(404, 'CUSTOMER_NOT_FOUND', 'Not found.');
      throw error;
    }
    const changedFields = Object.keys(changes).filter((key) => changes[key as keyof typeof changes] !== undefined);
    await recordAudit(tx, res, 'customer.update', id, changedFields);
    await recordEvent(tx, 'customer.updated', id, presentCustomer(customer));
    return customer;
  });
  send(res, 'customer', 200, presentCustomer(updated), null);
});

app.use((req, _res, next) => {
  next(new HttpError(404, 'ROUTE_NOT_FOUND', 'Not found.'));
});

// Every error answered here: Express's default handler would print body-parser's raw body (SSNs) to stderr.
app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
  if (error instanceof HttpError) {
    send(res, familyOf(req), error.status, null, { code: error.code, message: error.message });
  } else if ((error as { type?: unknown }).type === 'entity.parse.failed') {
    send(res, familyOf(req), 400, null, { code: 'VALIDATION_FAILED', message: 'The body is not valid JSON.' });
  } else {
    process.stderr.write(`internal error: ${(error as Error).message?.split('\n')[0]}\n`);
    send(res, familyOf(req), 500, null, { code: 'INTERNAL_ERROR', message: 'Internal error.' });
  }
});

const server = app.listen(Number(env('PORT')), '127.0.0.1', () => {
  process.stdout.write(`express+prisma listening on ${JSON.stringify(server.address())}\n`);
});
const stop = () => server.close(() => void prisma.$disconnect().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
