import http from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { z } from 'zod';
import { createAccountSchema, updateAccountSchema } from '../../../../src/features/accounts/account.schemas.js';
import { createCustomerSchema, updateCustomerSchema } from '../../../../src/features/customers/customer.schemas.js';
import { postTransactionSchema, transferSchema } from '../../../../src/features/ledger/ledger.schemas.js';
import {
  adversarialValue,
  currency,
  dateOfBirth,
  deepValue,
  edgeString,
  phoneNumber,
  plainText,
  prototypeObject,
  simpleEmail,
  strayKey,
  upperSnake,
  validSsn,
} from './values.js';

/**
 * Random and adversarial REST requests. Bodies are derived from the domain's zod request schemas (the
 * source of the published request schemas), turned into JSON Schema with `z.toJSONSchema`: the field
 * names, which are required, their types, lengths and item counts come from there; what JSON Schema
 * cannot express (an SSN, a real date, an existing customer id) comes from the field's meaning.
 * Valid bodies are then mutated: fields dropped, retyped, added, nested values broken.
 */

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: unknown[];
}

const jsonSchemaOf = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

export const REQUEST_SCHEMAS = {
  createCustomer: jsonSchemaOf(createCustomerSchema),
  updateCustomer: jsonSchemaOf(updateCustomerSchema),
  createAccount: jsonSchemaOf(createAccountSchema),
  updateAccount: jsonSchemaOf(updateAccountSchema),
  postTransaction: jsonSchemaOf(postTransactionSchema),
  createTransfer: jsonSchemaOf(transferSchema),
};

export interface FuzzContext {
  token: string;
  /** Existing records in `sandbox`, so that some requests reach real rows. */
  customerIds: string[];
  accountIds: string[];
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Personal values inside the request that must never come back in its answer. */
  secrets: string[];
  /** Which generator made it, for the report. */
  kind: string;
}

/** A value the schema accepts, chosen by the field's meaning where JSON Schema cannot say it. */
function validFor(name: string, schema: JsonSchema, ctx: FuzzContext): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (name) {
    case 'amount':
      // Mostly valid (whole and two-decimal amounts), some over-precise, negative, huge or as decimal text.
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 5000 }) },
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 500_000 }).map((cents) => cents / 100) },
        { weight: 1, arbitrary: fc.constantFrom(0.001, 0, -5, 1e13, 1e-7, '12.50', '1e3', ' 7 ', '') },
      );
    case 'hold':
      return fc.boolean();
    case 'expiresAt':
      return fc
        .integer({ min: -3600, max: 40 * 86400 })
        .map((seconds) => new Date(Date.now() + seconds * 1000).toISOString());
    case 'fromAccountId':
    case 'toAccountId':
      return fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...ctx.accountIds) },
        { weight: 1, arbitrary: fc.uuid() },
      );
    case 'socialSecurityNumber':
      return validSsn;
    case 'dateOfBirth':
      return dateOfBirth;
    case 'documentLocatorNumber':
      return fc.integer({ min: 0, max: 2 ** 40 });
    case 'currency':
      return currency;
    case 'associatedCustomerIds':
      return fc.oneof(
        { weight: 4, arbitrary: fc.shuffledSubarray(ctx.customerIds, { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 3 }) },
      );
    case 'emails':
      return fc.array(simpleEmail, { maxLength: 3 });
    case 'number':
      return phoneNumber;
    case 'type':
      return upperSnake;
  }
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, validFor(key, property, ctx)]),
      );
      return fc.record(record, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(validFor(`${name}[]`, schema.items ?? {}, ctx), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 2 ** 31, 2 ** 31) });
    case 'string':
      return name === 'middleName'
        ? fc.oneof(fc.constant(''), plainText(schema.maxLength ?? 50))
        : plainText(schema.maxLength ?? 50);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

interface Mutation {
  kind: 'drop' | 'retype' | 'extra' | 'nested' | 'replace-body';
  index: number;
  key: string;
  value: unknown;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('drop', 'retype', 'retype', 'extra', 'nested', 'replace-body'),
  index: fc.nat(),
  key: strayKey,
  value: adversarialValue,
});

/** Applies the mutations to a copy; keys are set with defineProperty so `__proto__` stays an own key. */
function mutate(body: Record<string, unknown>, schema: JsonSchema, mutations: Mutation[]): unknown {
  let value: unknown = structuredClone(body);
  const set = (target: Record<string, unknown>, key: string, v: unknown) =>
    Object.defineProperty(target, key, { value: v, enumerable: true, writable: true, configurable: true });
  for (const m of mutations) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) break;
    const target = value as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(target), ...Object.keys(schema.properties ?? {})])];
    const key = keys[m.index % Math.max(keys.length, 1)] ?? m.key;
    switch (m.kind) {
      case 'drop':
        delete target[key];
        break;
      case 'retype':
        set(target, key, m.value);
        break;
      case 'extra':
        set(target, m.key, m.value);
        break;
      case 'nested': {
        // A list of records (addresses, phone numbers); not a list of lists, whose `length` cannot be redefined.
        const list = Object.values(target).find(
          (v): v is Record<string, unknown>[] =>
            Array.isArray(v) && typeof v[0] === 'object' && v[0] !== null && !Array.isArray(v[0]),
        );
        if (list)
          set(
            list[0]!,
            m.index % 2 === 0 ? m.key : Object.keys(list[0]!)[m.index % Object.keys(list[0]!).length]!,
            m.value,
          );
        else set(target, key, [m.value]);
        break;
      }
      case 'replace-body':
        value = m.value;
        break;
    }
  }
  return value;
}

/** Secrets of a body: its SSN and document locator number, when they are long enough to be recognisable. */
function secretsOf(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const { socialSecurityNumber: ssn, documentLocatorNumber: dln } = body as Record<string, unknown>;
  const secrets: string[] = [];
  if (typeof ssn === 'string' && /^\d{3}-?\d{2}-?\d{4}$/.test(ssn)) secrets.push(ssn, ssn.replaceAll('-', ''));
  if (typeof dln === 'number' && dln >= 1e6) secrets.push(String(dln));
  return secrets;
}

/** A JSON text, sometimes broken: truncated, with a BOM, trailing commas, literals JSON forbids, duplicate keys. */
const encodedBody = (value: unknown): fc.Arbitrary<{ text: string; broken: string }> => {
  const text = JSON.stringify(value) ?? 'undefined';
  return fc
    .constantFrom(
      'none',
      'none',
      'none',
      'none',
      'truncate',
      'bom',
      'trailing-comma',
      'single-quotes',
      'nan',
      'duplicate',
      'comment',
      'whitespace',
    )
    .chain((broken) =>
      fc.nat({ max: Math.max(text.length - 1, 0) }).map((cut) => {
        switch (broken) {
          case 'truncate':
            return { text: text.slice(0, cut), broken };
          case 'bom':
            return { text: `\ufeff${text}`, broken };
          case 'trailing-comma':
            return { text: text.replace(/}$/, ',}'), broken };
          case 'single-quotes':
            return { text: text.replaceAll('"', "'"), broken };
          case 'nan':
            return { text: text.replace(/:(\d+)/, ':NaN'), broken };
          case 'duplicate':
            return { text: text.replace(/^{/, '{"preferredName":1,'), broken };
          case 'comment':
            return { text: `/* c */${text}`, broken };
          case 'whitespace':
            return { text: `\n\t ${text} \r\n`, broken };
          default:
            return { text, broken };
        }
      }),
    );
};

const environment = fc.constantFrom('sandbox', 'sandbox', 'sandbox', 'sandbox', 'production-like');

/** Where a body goes: the four writes of the contract and the ledger's two postings, on an existing record or not. */
function writeTarget(ctx: FuzzContext) {
  const someId = (known: string[]) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...known) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.constantFrom(...known).map((id) => id.toUpperCase()) },
    );
  return fc.oneof(
    fc.record({
      op: fc.constant('createCustomer' as const),
      method: fc.constant('POST'),
      env: environment,
      id: fc.constant(''),
    }),
    fc.record({
      op: fc.constant('updateCustomer' as const),
      method: fc.constant('PUT'),
      env: environment,
      id: someId(ctx.customerIds),
    }),
    fc.record({
      op: fc.constant('createAccount' as const),
      method: fc.constant('POST'),
      env: environment,
      id: fc.constant(''),
    }),
    fc.record({
      op: fc.constant('updateAccount' as const),
      method: fc.constant('PUT'),
      env: environment,
      id: someId(ctx.accountIds),
    }),
    fc.record({
      op: fc.constant('postTransaction' as const),
      method: fc.constant('POST'),
      env: environment,
      id: someId(ctx.accountIds),
    }),
    fc.record({
      op: fc.constant('createTransfer' as const),
      method: fc.constant('POST'),
      env: environment,
      id: fc.constant(''),
    }),
  );
}

/** The path a write of `op` goes to. */
function pathOf(op: keyof typeof REQUEST_SCHEMAS, env: string, id: string): string {
  if (op === 'postTransaction') return `/${env}/account/${id}/transaction`;
  if (op === 'createTransfer') return `/${env}/transfer`;
  return `/${env}/${op.endsWith('Customer') ? 'customer' : 'account'}${id ? `/${id}` : ''}`;
}

const headerValue = (arb: fc.Arbitrary<string>) => arb.filter((value) => !/[^\t\x20-\x7e\x80-\xff]/.test(value));

function authorization(token: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${token}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'Bearer',
        'Bearer ',
        `Bearer ${token}x`,
        `bearer ${token}`,
        `Bearer  ${token}`,
        `Bearer ${token}, Bearer other`,
        'Basic dXNlcjpwYXNzd29yZA==',
        `Bearer ${'a'.repeat(4000)}`,
        'Bearer cas_0123456789abcdef_notasecret',
        'Bearer cas_',
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwic2NvcGUiOiIqIn0.',
        'Bearer \u00ff\u0080',
        'Digest username="x"',
      ),
    },
  );
}

const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json;;;',
      'application/jsonx',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/merge-patch+json',
      'application/problem+json',
      '*/*',
      'application/json, text/plain',
    ),
  },
);

const idempotencyKey = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3') },
  {
    weight: 2,
    arbitrary: headerValue(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('', ' ', 'a'.repeat(255), 'a'.repeat(256), 'ключ', '\u00ff'),
      ),
    ),
  },
);

const requestId = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: headerValue(
      fc.oneof(fc.string({ maxLength: 140 }), fc.constantFrom('', 'a'.repeat(129), 'req-1', '../x', '\u00e9')),
    ),
  },
);

const contentEncoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip', 'GZIP') },
);

function headersFor(ctx: FuzzContext, method: string) {
  return fc
    .record({
      authorization: authorization(ctx.token),
      'content-type': contentType,
      'idempotency-key': method === 'POST' ? idempotencyKey : fc.constant(undefined),
      'x-request-id': requestId,
      'content-encoding': contentEncoding,
      accept: fc.constantFrom(undefined, undefined, 'application/json', 'text/html', '*/*', 'application/xml'),
      compress: fc.boolean(),
    })
    .map(({ compress, ...headers }) => ({
      compress,
      headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>,
    }));
}

function finish(
  kind: string,
  method: string,
  path: string,
  headers: { compress: boolean; headers: Record<string, string> },
  text: string | undefined,
  secrets: string[],
): FuzzRequest {
  let body = text === undefined ? undefined : Buffer.from(text, 'utf8');
  if (body !== undefined && headers.compress && headers.headers['content-encoding'] === 'gzip') body = gzipSync(body);
  const request: FuzzRequest = {
    kind,
    method,
    path,
    headers: headers.headers,
    ...(body !== undefined && { body }),
    secrets,
  };
  // fast-check prints counterexamples with this: readable text rather than a Buffer's bytes.
  Object.defineProperty(request, fc.toStringMethod, { value: () => describeFuzzRequest(request), enumerable: false });
  return request;
}

export function describeFuzzRequest(request: FuzzRequest): string {
  const body = request.body?.toString('utf8') ?? '';
  return `${request.kind}: ${request.method} ${request.path.slice(0, 300)} headers=${JSON.stringify(request.headers).slice(0, 300)} body(${body.length})=${JSON.stringify(body.slice(0, 300))}`;
}

/** Bodies derived from the request schemas, valid or mutated, sent to the contract's write endpoints. */
export function schemaBodyRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return writeTarget(ctx).chain(({ op, method, env, id }) => {
    const schema = REQUEST_SCHEMAS[op];
    const valid = validFor(op, schema, ctx) as fc.Arbitrary<Record<string, unknown>>;
    const body = fc
      .tuple(valid, fc.array(mutation, { maxLength: 3 }))
      .map(([v, mutations]) => (mutations.length === 0 ? v : mutate(v, schema, mutations)));
    const path = pathOf(op, env, id);
    return fc
      .tuple(body, headersFor(ctx, method))
      .chain(([value, headers]) =>
        encodedBody(value).map(({ text, broken }) =>
          finish(`schema:${op}${broken === 'none' ? '' : `:${broken}`}`, method, path, headers, text, secretsOf(value)),
        ),
      );
  });
}

/** Raw texts that are not what a JSON parser expects: huge, deeply nested, empty, scalar. */
export function rawBodyRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const raw = fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      'null',
      'true',
      '42',
      '"text"',
      '[]',
      '[{}]',
      '{',
      '}',
      '{"a":',
      'NaN',
      'Infinity',
      '-0',
      '1e999',
      '{"a":1e999}',
      '\u0000',
      '{"a":"\\u0000"}',
      '{"a":"\\ud800"}',
      'undefined',
    ),
    fc.integer({ min: 1000, max: 100_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 1000, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    fc.constantFrom(70_000, 200_000, 1_100_000).map((size) => JSON.stringify({ preferredName: 'a'.repeat(size) })),
    deepValue.map((v) => JSON.stringify({ preferredName: v, emails: v })),
    prototypeObject.map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  );
  return fc
    .tuple(writeTarget(ctx), raw)
    .chain(([target, text]) =>
      headersFor(ctx, target.method).map((headers) =>
        finish('raw-body', target.method, pathOf(target.op, target.env, target.id), headers, text, []),
      ),
    );
}

/** Percent-encodes any text for a path or query; lone surrogates become the bytes of U+FFFD, as UTF-8 encoders write them. */
function encodePathText(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

const METHODS = http.METHODS.filter((method) => method !== 'CONNECT');

/** Any method on any path: known routes, near misses, encodings, traversal, junk. */
export function randomPathRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const encoded = (arb: fc.Arbitrary<string>) => arb.map(encodePathText);
  const env = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('sandbox', 'production-like') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'unknown',
        'SANDBOX',
        '',
        '%73andbox',
        'sandbox%00',
        '..',
        '%2e%2e',
        'healthz',
        'readyz',
        'sandbox;x',
        '~',
        '*',
      ),
    },
    { weight: 1, arbitrary: encoded(fc.string({ maxLength: 12 })) },
  );
  const resource = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom('customer', 'account', 'audit-events', 'transfer') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'Customer',
        'customers',
        'accounts',
        'ACCOUNT',
        '%63ustomer',
        'account;x',
        'account%2f',
        '',
        'healthz',
        '..',
        'audit-events%00',
      ),
    },
    { weight: 1, arbitrary: encoded(fc.string({ maxLength: 12 })) },
  );
  const id = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ctx.customerIds, ...ctx.accountIds) },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'not-a-uuid',
        '%ff',
        '%',
        '%zz',
        '%00',
        '..%2f..%2f',
        '%e2%80%ae',
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        'a'.repeat(6000),
        '1',
        '-1',
        'null',
        '%7B%7D',
      ),
    },
    { weight: 1, arbitrary: encoded(edgeString) },
  );
  const query = fc.oneof(
    { weight: 5, arbitrary: fc.constant('') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '?first=abc',
        '?first=-1',
        '?first=1e3',
        '?first=100&after=x',
        '?operation=customer.update',
        '?__proto__[x]=1',
        '?resourceId[]=a&resourceId[]=b',
        '?from=2026-01-01T00:00:00Z&to=2020-01-01T00:00:00Z',
        '?first=9007199254740993',
        '?a=%ff',
        '?%',
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(encoded(fc.string({ maxLength: 10 })), encoded(fc.string({ maxLength: 20 })))
        .map(([k, v]) => `?${k}=${v}`),
    },
  );
  // Sub-resources of an account (the ledger's and the holders'), sometimes with an id and an action after them.
  const extraSegment = fc.oneof(
    { weight: 3, arbitrary: encoded(fc.string({ maxLength: 8 })) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('transaction', 'customer', 'flags/FROZEN', 'flags/frozen', 'overdraft-limit'),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('transaction', 'customer'), id, fc.constantFrom('', '/post', '/void', '/reverse', '/x'))
        .map(([sub, i, action]) => `${sub}/${i}${action}`),
    },
  );
  const path = fc
    .tuple(
      env,
      resource,
      fc.option(id, { nil: undefined }),
      fc.option(extraSegment, { nil: undefined, freq: 4 }),
      fc.constantFrom('', '', '', '/', '//'),
      query,
      fc.boolean(),
    )
    .map(
      ([e, r, i, extra, tail, q, doubleSlash]) =>
        `/${e}${doubleSlash ? '//' : '/'}${r}${i === undefined ? '' : `/${i}`}${extra === undefined ? '' : `/${extra}`}${tail}${q}`,
    )
    .filter((p) => !/\/graphql(\/|\?|$)/i.test(p)); // the GraphQL fuzzer covers that endpoint
  const method = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD') },
    { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
  );
  return fc
    .tuple(method, path, fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }))
    .chain(([m, p, body]) =>
      headersFor(ctx, m).map((headers) =>
        finish('random-path', m, p, headers, body === undefined ? undefined : JSON.stringify(body), []),
      ),
    );
}

/** The whole mix; weights put most requests on the bodies the schemas describe. */
export function restRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 6, arbitrary: schemaBodyRequest(ctx) },
    { weight: 2, arbitrary: rawBodyRequest(ctx) },
    { weight: 3, arbitrary: randomPathRequest(ctx) },
  );
}
