import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  GraphQLUnionType,
} from 'graphql';
import {
  adversarialValue,
  currency,
  dateOfBirth,
  edgeString,
  phoneNumber,
  plainText,
  prototypeObject,
  simpleEmail,
  upperSnake,
  validSsn,
} from './values.js';

/**
 * Random GraphQL requests driven by the served schema (read by introspection): operations built by walking
 * its types, with arguments as inline literals or variables, valid by meaning or adversarial; plus broken
 * documents (mutated text, deep nesting, alias floods, unknown fields) and malformed HTTP requests.
 */

export interface GraphqlFuzzContext {
  token: string;
  schema: GraphQLSchema;
  customerIds: string[];
  accountIds: string[];
  environment: string;
}

export interface GraphqlFuzzRequest {
  method: 'POST' | 'GET';
  path: string;
  headers: Record<string, string>;
  body?: string;
  secrets: string[];
  kind: string;
}

/** A piece of a document with the variables it declares, so that pieces combine without shared state. */
interface Piece {
  text: string;
  declarations: string[];
  variables: Record<string, unknown>;
}

const combine = (pieces: Piece[], separator: string): Piece => ({
  text: pieces.map((piece) => piece.text).join(separator),
  declarations: pieces.flatMap((piece) => piece.declarations),
  variables: Object.assign({}, ...pieces.map((piece) => piece.variables)) as Record<string, unknown>,
});

/** A value for an input of this type: valid by the argument's meaning most of the time, adversarial otherwise. */
function inputValue(
  name: string,
  type: GraphQLInputType,
  ctx: GraphqlFuzzContext,
  depth: number,
): fc.Arbitrary<unknown> {
  const nullable = getNullableType(type);
  const valid = validInput(name, nullable, ctx, depth);
  return fc.oneof(
    { weight: 8, arbitrary: valid },
    { weight: 1, arbitrary: adversarialValue },
    { weight: type instanceof GraphQLNonNull ? 1 : 2, arbitrary: fc.constant(null) },
  );
}

function validInput(
  name: string,
  type: GraphQLInputType,
  ctx: GraphqlFuzzContext,
  depth: number,
): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLList)
    return fc.array(inputValue(name, type.ofType, ctx, depth + 1), { maxLength: depth > 3 ? 0 : 3 });
  if (type instanceof GraphQLInputObjectType) {
    if (depth > 4) return fc.constant({});
    const fields = Object.values(type.getFields());
    const record = Object.fromEntries(
      fields.map((field) => [field.name, inputValue(field.name, field.type, ctx, depth + 1)]),
    );
    const required = fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name);
    return fc.record(record, { requiredKeys: required });
  }
  if (type instanceof GraphQLEnumType) return fc.constantFrom(...type.getValues().map((value) => value.name));
  switch (name) {
    case 'customerId':
    case 'associatedCustomerIds':
      return fc.oneof(fc.constantFrom(...ctx.customerIds), fc.uuid());
    case 'accountId':
      return fc.oneof(fc.constantFrom(...ctx.accountIds), fc.uuid());
    case 'id':
      return fc.constantFrom(...ctx.customerIds, ...ctx.accountIds);
    case 'socialSecurityNumber':
      return validSsn;
    case 'dateOfBirth':
      return dateOfBirth;
    case 'emails':
      return simpleEmail;
    case 'currency':
      return currency;
    case 'type':
      return upperSnake;
    case 'number':
      return phoneNumber;
    case 'first':
      return fc.integer({ min: -5, max: 150 });
    case 'after':
      return fc.oneof(fc.constantFrom(...ctx.customerIds, ...ctx.accountIds), edgeString);
  }
  switch ((type as GraphQLScalarType).name) {
    case 'Int':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case 'SafeInt':
      return fc.integer({ min: 0, max: 2 ** 40 });
    case 'Float':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'Boolean':
      return fc.boolean();
    case 'Decimal':
      return fc.constantFrom('0', '-12.5', '1234567890123456.123456');
    case 'ID':
      return fc.oneof(fc.uuid(), fc.constantFrom(...ctx.customerIds));
    default:
      return plainText(60);
  }
}

/** GraphQL literal syntax for a JSON value (object keys that are not names are left out: they cannot be written). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([key]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(key));
    return `{${entries.map(([key, v]) => `${key}: ${literal(v)}`).join(', ')}}`;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  return JSON.stringify(value);
}

const typeReference = (type: GraphQLInputType): string => type.toString();

interface SelectionOptions {
  depth: number;
  aliases: boolean;
}

/** A random selection set over an output type, nesting down to `depth`; `at` names the position (unique variable names). */
function selection(
  type: GraphQLObjectType | GraphQLInterfaceType | GraphQLUnionType,
  ctx: GraphqlFuzzContext,
  options: SelectionOptions,
  at: string,
): fc.Arbitrary<Piece> {
  if (type instanceof GraphQLUnionType) return fc.constant({ text: '__typename', declarations: [], variables: {} });
  const fields = Object.values(type.getFields());
  return fc
    .subarray(fields, { minLength: 1, maxLength: Math.min(fields.length, 6) })
    .chain((chosen) =>
      fc
        .tuple(...chosen.map((field, i) => fieldSelection(field, ctx, options, `${at}_${i}`)))
        .map((parts) => combine(parts, ' ')),
    );
}

function fieldSelection(
  field: GraphQLField<unknown, unknown>,
  ctx: GraphqlFuzzContext,
  options: SelectionOptions,
  at: string,
): fc.Arbitrary<Piece> {
  const named = getNamedType(field.type);
  const composite =
    named instanceof GraphQLObjectType || named instanceof GraphQLInterfaceType || named instanceof GraphQLUnionType;
  if (composite && options.depth <= 0) return fc.constant({ text: '__typename', declarations: [], variables: {} });
  const alias = options.aliases
    ? fc.option(fc.constantFrom('a', 'b', 'x', '_y'), { freq: 3, nil: undefined })
    : fc.constant(undefined);
  const inner = composite
    ? selection(named, ctx, { ...options, depth: options.depth - 1 }, at).map((piece) => ({
        ...piece,
        text: ` { ${piece.text} }`,
      }))
    : fc.constant<Piece>({ text: '', declarations: [], variables: {} });
  return fc.tuple(alias, argumentsOf(field.args, ctx, at), inner).map(([a, args, sub]) => {
    const merged = combine([args, sub], '');
    return { ...merged, text: `${a ? `${a}${at}: ` : ''}${field.name}${args.text}${sub.text}` };
  });
}

/** Arguments as inline literals or as variables (declared on the operation), sometimes omitted or unknown. */
function argumentsOf(args: readonly GraphQLArgument[], ctx: GraphqlFuzzContext, at: string): fc.Arbitrary<Piece> {
  if (args.length === 0)
    return fc.constantFrom('', '', '', '(unknown: 1)').map((text) => ({ text, declarations: [], variables: {} }));
  const choices = args.map((arg) =>
    fc.record({
      mode: fc.constantFrom('variable', 'variable', 'literal', 'omit'),
      value: inputValue(arg.name, arg.type, ctx, 0),
    }),
  );
  return fc.tuple(...choices).map((chosen) => {
    const parts: string[] = [];
    const piece: Piece = { text: '', declarations: [], variables: {} };
    chosen.forEach(({ mode, value }, i) => {
      const arg = args[i]!;
      if (mode === 'omit') return;
      if (mode === 'literal') {
        parts.push(`${arg.name}: ${literal(value)}`);
        return;
      }
      const variable = `v${at}_${i}`;
      piece.variables[variable] = value;
      piece.declarations.push(`$${variable}: ${typeReference(arg.type)}`);
      parts.push(`${arg.name}: $${variable}`);
    });
    return { ...piece, text: parts.length > 0 ? `(${parts.join(', ')})` : '' };
  });
}

/** An operation over Query or Mutation, from the schema. */
function schemaOperation(
  ctx: GraphqlFuzzContext,
): fc.Arbitrary<{ query: string; variables: Record<string, unknown>; kind: string }> {
  const roots = [ctx.schema.getQueryType(), ctx.schema.getMutationType()].filter(
    (t): t is GraphQLObjectType => t !== null && t !== undefined,
  );
  return fc
    .tuple(fc.constantFrom(...roots), fc.integer({ min: 1, max: 12 }), fc.boolean())
    .chain(([root, depth, aliases]) =>
      selection(root, ctx, { depth, aliases }, '').map((piece) => {
        const keyword = root === ctx.schema.getMutationType() ? 'mutation' : 'query';
        const declarations = piece.declarations.length > 0 ? ` (${piece.declarations.join(', ')})` : '';
        return {
          query: `${keyword}${declarations} { ${piece.text} }`,
          variables: piece.variables,
          kind: `schema:${keyword}`,
        };
      }),
    );
}

/** Documents that are wrong: broken text, floods, depth, unknown names, several operations. */
function brokenDocument(
  ctx: GraphqlFuzzContext,
): fc.Arbitrary<{ query: unknown; variables: unknown; operationName?: unknown; kind: string }> {
  const id = ctx.customerIds[0]!;
  const deep = (levels: number) =>
    `{ customer(customerId: "${id}") { ${'accounts { customers { '.repeat(levels)}customerId${' } }'.repeat(levels)} } }`;
  return fc.oneof(
    schemaOperation(ctx).chain((op) =>
      fc.tuple(fc.nat({ max: op.query.length }), fc.constantFrom('truncate', 'insert', 'swap')).chain(([at, how]) =>
        fc.string({ unit: 'grapheme', maxLength: 3 }).map((noise) => ({
          query:
            how === 'truncate'
              ? op.query.slice(0, at)
              : how === 'insert'
                ? op.query.slice(0, at) + noise + op.query.slice(at)
                : op.query.replace(/[{}()]/, noise),
          variables: op.variables,
          kind: 'broken:text',
        })),
      ),
    ),
    fc.integer({ min: 5, max: 60 }).map((levels) => ({ query: deep(levels), variables: {}, kind: 'broken:deep' })),
    fc.integer({ min: 20, max: 400 }).map((n) => ({
      query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: customer(customerId: "${id}") { customerId }`).join(' ')} }`,
      variables: {},
      kind: 'broken:aliases',
    })),
    fc
      .integer({ min: 500, max: 20_000 })
      .map((n) => ({ query: `{ ${'__typename '.repeat(n)}}`, variables: {}, kind: 'broken:tokens' })),
    fc
      .constantFrom(
        '',
        '{',
        '}',
        'query',
        '{ __schema { types { name } } }',
        '{ nope }',
        '{ customer { customerId } }',
        `{ customer(customerId: "${id}") }`,
        `{ customer(customerId: "${id}") { socialSecurityNumber documentLocatorNumber } }`,
        'subscription { customer }',
        'query A { __typename } query B { __typename }',
        'fragment F on Customer { ...F } { __typename }',
        `{ customer(customerId: "${id}") { ...on Account { name } } }`,
        '{ __typename @skip(if: $undefined) }',
        'mutation { deleteCustomer(customerId: 123) }',
        `mutation { createAccount(input: { associatedCustomerIds: ["${id}"], name: "x", currency: "USD", type: "CHECKING", extra: 1 }) { accountId } }`,
        '{ node(id: "00000000-0000-0000-0000-000000000000") { id } }',
        '\u0000',
        '# only a comment',
        '"""block""" { __typename }',
      )
      .map((query) => ({ query, variables: {}, kind: 'broken:fixed' })),
    fc
      .tuple(
        fc.constantFrom(
          'query ($id: ID!) { customer(customerId: $id) { customerId } }',
          'mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId } }',
        ),
        adversarialValue,
        prototypeObject,
      )
      .map(([query, value, proto]) => ({
        query,
        variables: Object.assign(proto, { id: value, input: value }),
        kind: 'broken:variables',
      })),
    fc
      .tuple(
        fc.oneof(fc.constant(undefined), adversarialValue),
        fc.oneof(fc.constant(undefined), adversarialValue),
        fc.oneof(fc.constant(undefined), edgeString),
      )
      .map(([query, variables, operationName]) => ({
        query,
        variables,
        operationName,
        kind: 'broken:shape',
      })),
  );
}

const SSN_PATTERN = /"socialSecurityNumber"\s*:\s*"(\d{3}-?\d{2}-?\d{4})"/g;
const secretsIn = (text: string) => [...text.matchAll(SSN_PATTERN)].flatMap((m) => [m[1]!, m[1]!.replaceAll('-', '')]);

export function graphqlRequest(ctx: GraphqlFuzzContext): fc.Arbitrary<GraphqlFuzzRequest> {
  const path = fc.oneof(
    { weight: 12, arbitrary: fc.constant(`/${ctx.environment}/graphql`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('/production-like/graphql', '/unknown/graphql', `/${ctx.environment}/graphql/`),
    },
  );
  const auth = fc.oneof(
    { weight: 10, arbitrary: fc.constant(`Bearer ${ctx.token}`) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, 'Bearer nope-nope-nope-nope', 'Basic eDp5') },
  );
  const contentType = fc.oneof(
    { weight: 10, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        'text/plain',
        'application/graphql',
        'application/json; charset=utf-16',
        'multipart/form-data; boundary=x',
      ),
    },
  );
  const document = fc.oneof(
    { weight: 6, arbitrary: schemaOperation(ctx) },
    { weight: 4, arbitrary: brokenDocument(ctx) },
  );
  const rawBody = fc.constantFrom(
    '{',
    '[]',
    `[{"query":"{ __typename }"},{"query":"{ __typename }"}]`,
    'null',
    '"query"',
    '{"query": 1}',
    `{"query":"{ __typename }","variables":"x"}`,
    '{"query":"{ __typename }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"00"}}}',
  );
  return fc
    .tuple(
      path,
      auth,
      contentType,
      fc.oneof(
        { weight: 12, arbitrary: document.map((d) => ({ ...d, raw: undefined as string | undefined })) },
        { weight: 1, arbitrary: rawBody.map((raw) => ({ query: undefined, variables: undefined, kind: 'raw', raw })) },
      ),
      fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET'),
    )
    .map(([p, authorization, type, doc, method]) => {
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      const payload =
        doc.raw ??
        JSON.stringify({
          query: doc.query,
          variables: doc.variables,
          ...('operationName' in doc && doc.operationName !== undefined && { operationName: doc.operationName }),
        });
      if (method === 'GET') {
        // Apollo's CSRF prevention wants a preflight-forcing header on GET; half the time it gets one.
        const search =
          typeof doc.query === 'string'
            ? new URLSearchParams({ query: doc.query, variables: JSON.stringify(doc.variables ?? {}) }).toString()
            : '';
        // Node refuses request heads over 16 KiB itself (a bare 431, before any application code): stay below.
        if (search !== '' && search.length < 8000) {
          if (headers.authorization) headers['apollo-require-preflight'] = 'true';
          return {
            method,
            path: `${p}?${search}`,
            headers,
            secrets: secretsIn(JSON.stringify(doc.variables ?? {})),
            kind: `${doc.kind}:GET`,
          } satisfies GraphqlFuzzRequest;
        }
      }
      if (type !== undefined) headers['content-type'] = type;
      return {
        method: 'POST' as const,
        path: p,
        headers,
        body: payload,
        secrets: secretsIn(payload),
        kind: doc.kind,
      } satisfies GraphqlFuzzRequest;
    });
}
