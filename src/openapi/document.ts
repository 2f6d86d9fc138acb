import type { z } from 'zod';
import { CALLER_REQUEST_ID } from '../auth/request-context.js';
import {
  addressDataSchema,
  addressSchema,
  CUSTOMER_LIMITS,
  businessCustomerDataSchema,
  customerAcknowledgmentDataSchema,
  customerDataSchema,
  phoneDataSchema,
  phoneSchema,
  SSN_RULE,
} from '../features/customers/index.js';
import { idempotencyKeySchema } from '../features/idempotency/index.js';
import { createBusinessSchema, TAX_ID_RULE } from '../features/businesses/index.js';
import { ACCOUNT_FLAGS, accountAcknowledgmentDataSchema, accountDataSchema } from '../features/accounts/index.js';
import { PAGE_SIZE } from '../domain/pagination.js';
import { ACCESS_SCOPES } from '../domain/caller.js';
import { type EnvelopeFamily, envelope } from '../rest/envelope.js';
import { toHttpFailure } from '../rest/error-mapping.js';
import { auditEventDataSchema } from '../features/audit/index.js';
import { errorBodySchema, errorDetailSchema } from '../rest/response-schemas.js';
import {
  answersEntityTag,
  EXAMPLE_IDS,
  failuresOf,
  REST_ROUTES,
  type RestRoute,
  takesIdempotencyKey,
  takesIfMatch,
  takesIfNoneMatch,
} from '../rest/routes.js';
import { UNKNOWN_FIELD } from '../rest/operations/failures.js';
import type { DocumentedFailure } from '../rest/operations/route.js';
import { type JsonSchema, toComponentSchemas, toJsonSchema } from './json-schema.js';

/**
 * The OpenAPI 3.1 document of the REST surface, generated from the route table (src/rest/routes.ts), the
 * domain's input schemas, the response schemas and the one error mapping. Nothing in it is written by
 * hand beside the code it describes: served at GET /openapi.json and written to ./openapi.json by
 * `npm run openapi` (scripts/check-generated.mjs fails when that file is stale).
 */

export type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, OpenApiOperation>> } & JsonSchema;
export interface OpenApiOperation {
  operationId: string;
  responses: Record<string, JsonSchema>;
  [key: string]: unknown;
}

/** The version of the API contract (not of the package): raise it with every change of the document. */
export const API_VERSION = '2.0.0';

const LOG_REF_KEY: Record<EnvelopeFamily, string> = { customer: 'log_ref_id', account: 'logRefId' };
const EXAMPLE_REQUEST_ID = '7c0e5f3a-1b2d-4e6f-8a9b-0c1d2e3f4a5b';
const ref = (kind: 'schemas' | 'parameters' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Express `/:environment/customer/:customerId` → OpenAPI `/{environment}/customer/{customerId}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z]+)/g, '{$1}');
const pathParameterNames = (expressPath: string): string[] =>
  [...expressPath.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);

/** The fields the domain's schemas cannot say (refinements and transforms do not convert). Checked to exist. */
const REQUEST_FIELD_NOTES: Record<string, Record<string, JsonSchema>> = {
  CreateCustomerRequest: {
    socialSecurityNumber: {
      description: `${SSN_RULE} Unique per environment. Write-only: stored encrypted, never returned, never echoed in an error.`,
      writeOnly: true,
    },
    documentLocatorNumber: {
      description: 'Used for tax purposes. Write-only: stored encrypted, never returned.',
      writeOnly: true,
    },
    dateOfBirth: {
      format: 'date',
      description: `Legal date of birth, YYYY-MM-DD: a real date, not in the future, not before ${CUSTOMER_LIMITS.earliestDateOfBirth}.`,
    },
    middleName: { description: 'Required; an empty string when the customer has none.' },
    emails: { description: `Up to ${CUSTOMER_LIMITS.emails} email addresses; may be empty.` },
    phoneNumbers: { description: `Up to ${CUSTOMER_LIMITS.phoneNumbers} phone numbers; may be empty.` },
    addresses: { description: `Up to ${CUSTOMER_LIMITS.addresses} postal addresses; may be empty.` },
  },
  CreateBusinessCustomerRequest: {
    taxId: {
      description: `${TAX_ID_RULE} Unique per environment (TAX_ID_ALREADY_EXISTS). Write-only: stored encrypted, never returned, never echoed in an error.`,
      writeOnly: true,
    },
    formationDate: { format: 'date', description: 'YYYY-MM-DD, a real date, not in the future.' },
    formationCountry: { description: 'ISO 3166-1 alpha-2, e.g. US; decides the form of `taxId`.' },
    industry: { description: 'A NAICS code, 2 to 6 digits.' },
    website: { description: 'An http or https URL.' },
  },
  UpdateCustomerRequest: {
    emails: { description: 'Replaces all email addresses; `[]` clears them.' },
    phoneNumbers: { description: 'Replaces all phone numbers; `[]` clears them.' },
    addresses: { description: 'Replaces all postal addresses; `[]` clears them.' },
  },
  CreateAccountRequest: {
    associatedCustomerIds: { description: 'The owners: 1 to 20 distinct ids of customers of this environment.' },
    currency: { description: 'An active ISO 4217 currency code of deposit, e.g. USD.' },
    type: { description: 'Upper-case words joined by underscores, e.g. CHECKING or MONEY_MARKET. Never changes.' },
  },
  UpdateAccountRequest: {
    currency: { description: 'An active ISO 4217 currency code of deposit, e.g. USD.' },
  },
};

/**
 * Request bodies of another shape an operation also takes, by operation: each named once, and the operation's body is
 * a `oneOf` of its own request and these. A business customer (docs/adr/0090) is created on the person's resource.
 */
const REQUEST_ALTERNATIVES: Readonly<Record<string, readonly { component: string; schema: z.ZodType }[]>> = {
  createCustomer: [{ component: 'CreateBusinessCustomerRequest', schema: createBusinessSchema }],
};

const REQUEST_SCHEMA_DESCRIPTIONS: Record<string, string> = {
  CreateCustomerRequest: 'A new customer (a person); every field is required.',
  CreateBusinessCustomerRequest:
    'A new business customer (not in the contract; docs/adr/0090): `customerType` BUSINESS, its tax id stored encrypted, never returned.',
  UpdateCustomerRequest: 'The fields to change; at least one. Identity fields cannot change (FIELD_NOT_UPDATABLE).',
  CreateAccountRequest: 'A new account for existing customers.',
  UpdateAccountRequest: 'The new name and currency; both required.',
};

function componentSchemas(): Record<string, JsonSchema> {
  const named = new Map<string, z.ZodType>([
    ['PhoneInput', phoneSchema],
    ['AddressInput', addressSchema],
    ['Phone', phoneDataSchema],
    ['Address', addressDataSchema],
    ['AuditEvent', auditEventDataSchema],
    ['ErrorDetail', errorDetailSchema],
    ['Error', errorBodySchema],
  ]);
  for (const route of REST_ROUTES as readonly RestRoute[]) {
    if (route.requestBody) named.set(route.requestBody.component, route.requestBody.schema);
    for (const { component, schema } of REQUEST_ALTERNATIVES[route.operationId] ?? []) named.set(component, schema);
    named.set(route.success.component, route.success.data);
  }
  named.set('Account', accountDataSchema);
  // A write's answer without the read scope (src/domain/answer-shape.ts): named, so the answers' oneOf names both sides.
  named.set('AccountAcknowledgment', accountAcknowledgmentDataSchema);
  named.set('CustomerAcknowledgment', customerAcknowledgmentDataSchema);
  // A customer is a person or a business (docs/adr/0090): each side named once, the answers' oneOf names both.
  named.set('Customer', customerDataSchema);
  named.set('BusinessCustomer', businessCustomerDataSchema);
  const schemas = toComponentSchemas(named);
  for (const [component, notes] of Object.entries(REQUEST_FIELD_NOTES)) {
    const properties = schemas[component]?.properties as Record<string, JsonSchema> | undefined;
    for (const [field, note] of Object.entries(notes)) {
      if (!properties?.[field])
        throw new Error(`REQUEST_FIELD_NOTES names ${component}.${field}, which the schema does not have`);
      Object.assign(properties[field], note);
    }
  }
  // A person may say what it is (`customerType` INDIVIDUAL, the default); the service drops it before the contract's schema.
  (schemas.CreateCustomerRequest!.properties as Record<string, JsonSchema>).customerType = {
    type: 'string',
    const: 'INDIVIDUAL',
    description:
      'Not in the contract, optional: INDIVIDUAL (the default). BUSINESS takes CreateBusinessCustomerRequest.',
  };
  for (const [component, description] of Object.entries(REQUEST_SCHEMA_DESCRIPTIONS))
    schemas[component]!.description = description;
  return { ...schemas, ...envelopeSchemas() };
}

function envelopeSchema(
  family: EnvelopeFamily,
  data: JsonSchema,
  error: JsonSchema,
  success: boolean,
  description: string,
): JsonSchema {
  const logRef = LOG_REF_KEY[family];
  return {
    type: 'object',
    description,
    required: ['data', 'success', 'error', 'requestId', logRef],
    additionalProperties: false,
    properties: {
      data,
      success: { type: 'boolean', const: success },
      error,
      requestId: ref('schemas', 'RequestId'),
      [logRef]: ref('schemas', logRefSchemaName(family)),
    },
  };
}

/** The envelope of each success payload, by family, and one error envelope per family. */
const successEnvelopeName = (family: EnvelopeFamily, component: string) =>
  component === 'Empty' ? `${family === 'customer' ? 'Customer' : 'Account'}DeletedResponse` : `${component}Response`;
const errorEnvelopeName = (family: EnvelopeFamily) => `${family === 'customer' ? 'Customer' : 'Account'}ErrorResponse`;

const logRefSchemaName = (family: EnvelopeFamily) => `${family === 'customer' ? 'Customer' : 'Account'}LogRef`;

function envelopeSchemas(): Record<string, JsonSchema> {
  // The fields every envelope shares, once.
  const schemas: Record<string, JsonSchema> = {
    RequestId: {
      type: 'string',
      description: 'The request id, also in the X-Request-Id header; quote it when reporting a problem.',
    },
  };
  for (const family of ['customer', 'account'] as const) {
    const logRef = LOG_REF_KEY[family];
    schemas[logRefSchemaName(family)] = {
      type: 'string',
      description: `Log reference; equals requestId. Named \`${logRef}\` on the ${family} endpoints.`,
    };
  }
  for (const route of REST_ROUTES as readonly RestRoute[]) {
    schemas[successEnvelopeName(route.family, route.success.component)] = envelopeSchema(
      route.family,
      ref('schemas', route.success.component),
      { type: 'null' },
      true,
      `Success on the ${route.family} endpoints.`,
    );
  }
  for (const family of ['customer', 'account'] as const) {
    schemas[errorEnvelopeName(family)] = envelopeSchema(
      family,
      { type: 'null' },
      ref('schemas', 'Error'),
      false,
      `Failure on the ${family} endpoints.`,
    );
  }
  return schemas;
}

/**
 * An optional parameter's example goes into its description, not `example`: Swagger UI's "Try it out" fills every
 * example into its form, so an example of an optional filter, a Consistency-Token or an Idempotency-Key would be
 * sent with the request and change its answer (a second "Execute" of a creation would replay the first).
 */
function exampleInDescription(parameter: JsonSchema): JsonSchema {
  if (parameter.required === true || parameter.example === undefined) return parameter;
  const { example, ...rest } = parameter;
  const shown = typeof example === 'string' ? example : JSON.stringify(example);
  return { ...rest, description: `${String(rest.description)} Example: \`${shown}\`.` };
}

function parameters(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(allParameters()).map(([name, parameter]) => [name, exampleInDescription(parameter)]),
  );
}

function allParameters(): Record<string, JsonSchema> {
  return {
    environment: {
      name: 'environment',
      in: 'path',
      required: true,
      description: 'The environment: each one is a separate system of record (configured with ENVIRONMENTS).',
      schema: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,62}$' },
      example: 'sandbox',
    },
    customerId: {
      name: 'customerId',
      in: 'path',
      required: true,
      description:
        'The id returned when the customer was created (any case). A value that is not a UUID names no customer.',
      schema: { type: 'string' },
      example: EXAMPLE_IDS.customerId,
    },
    ownerCustomerId: {
      name: 'ownerCustomerId',
      in: 'path',
      required: true,
      description: 'The customer id of a beneficial owner of the business (any case).',
      schema: { type: 'string' },
      example: EXAMPLE_IDS.otherCustomerId,
    },
    documentId: {
      name: 'documentId',
      in: 'path',
      required: true,
      description:
        'The id answered when the document was uploaded (any case). A value that is not a UUID names no document.',
      schema: { type: 'string' },
      example: '0193a5c2-a1b2-7c3d-8e4f-5a6b7c8d9e0f',
    },
    code: {
      name: 'code',
      in: 'path',
      required: true,
      description:
        "A product's code (upper-case words joined by underscores, case-sensitive, docs/products.md). Any other text names none.",
      schema: { type: 'string', maxLength: 32 },
      example: 'HIGH_YIELD_SAVINGS',
    },
    year: {
      name: 'year',
      in: 'path',
      required: true,
      description:
        "A tax year: a calendar year from 2000 to the environment's current one (VALIDATION_FAILED otherwise).",
      schema: { type: 'string', pattern: '^[0-9]{4}$' },
      example: '2026',
    },
    accountNumberId: {
      name: 'accountNumberId',
      in: 'path',
      required: true,
      description:
        "The account number's id (`accountNumberId`, any case): never the number itself, which is in no URL. A value that is not a UUID names none.",
      schema: { type: 'string' },
      example: '0193a5c9-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
    },
    accountId: {
      name: 'accountId',
      in: 'path',
      required: true,
      description:
        'The id returned when the account was created (any case). A value that is not a UUID names no account.',
      schema: { type: 'string' },
      example: EXAMPLE_IDS.accountId,
    },
    transactionId: {
      name: 'transactionId',
      in: 'path',
      required: true,
      description:
        'The id of a transaction of the account (any case). A value that is not a UUID names no transaction.',
      schema: { type: 'string' },
      example: EXAMPLE_IDS.transactionId,
    },
    transferId: {
      name: 'transferId',
      in: 'path',
      required: true,
      description:
        'The id of a transfer of this environment (any case), as creating it answered. A value that is not a UUID names no transfer.',
      schema: { type: 'string' },
      example: TRANSFER_ID,
    },
    eventId: {
      name: 'eventId',
      in: 'path',
      required: true,
      description: 'The id of an event of this environment.',
      schema: { type: 'string' },
      example: '0193a5c5-5a97-7260-9c1e-8daecf406b87',
    },
    endpointId: {
      name: 'endpointId',
      in: 'path',
      required: true,
      description:
        'The id of a webhook endpoint of this environment (any case). A value that is not a UUID names no endpoint.',
      schema: { type: 'string' },
      example: EXAMPLE_IDS.endpointId,
    },
    flag: {
      name: 'flag',
      in: 'path',
      required: true,
      description: `A flag the ledger enforces: ${ACCOUNT_FLAGS.join(', ')}.`,
      schema: { type: 'string', enum: [...ACCOUNT_FLAGS] },
      example: 'FROZEN',
    },
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: a repeated request with the same key (same token, same environment, same body) answers the first result ' +
        'with `Idempotent-Replayed: true` instead of creating again. Keys are kept for IDEMPOTENCY_TTL_HOURS (default 24).',
      schema: toJsonSchema(idempotencyKeySchema),
      example: 'onboarding-2026-11-21-0001',
    },
    ConsistencyToken: {
      name: 'Consistency-Token',
      in: 'header',
      required: false,
      description:
        'The `Consistency-Token` of an earlier write whose effect this read must see (read-your-writes). With a read replica the ' +
        'service answers from it only once it has replayed that write, else from the primary; without one every read is fresh and ' +
        'the header changes nothing. Opaque: send it back as received.',
      schema: { type: 'string' },
      example: 'v1.000000000301a2b8',
    },
    IfMatch: {
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'Change the record only if it is still as you read it (RFC 9110): the `ETag` of your last read or write of it. A record changed ' +
        'since then (an account: any posting too), or a tag of another record or a weak one, answers 412 `PRECONDITION_FAILED` and ' +
        'changes nothing; two writers sending the same tag cannot both succeed. `*`: the record must exist (as without the header). ' +
        'Several tags, comma-separated: any of them. A value that is neither `*` nor quoted tags answers 400 `VALIDATION_FAILED`.',
      schema: { type: 'string' },
      example: `"${EXAMPLE_IDS.customerId}.3"`,
    },
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description:
        'The `ETag` of the copy you hold: while the record is unchanged the answer is 304 with no body (RFC 9110). `*` matches any ' +
        'existing record; weak tags (`W/"…"`) compare by their value. A value that is not entity-tag syntax is ignored.',
      schema: { type: 'string' },
      example: `"${EXAMPLE_IDS.customerId}.3"`,
    },
    XRequestId: {
      name: 'X-Request-Id',
      in: 'header',
      required: false,
      description:
        'Your id for this request, echoed in the X-Request-Id header, `requestId` and the logs. Any other value is replaced by a new UUID.',
      schema: { type: 'string', pattern: CALLER_REQUEST_ID.source },
      example: 'checkout-42.retry-1',
    },
  };
}

function headers(): Record<string, JsonSchema> {
  return {
    XRequestId: {
      description: 'The request id (yours when valid, else a new UUID); equals `requestId` in the body.',
      required: true,
      schema: { type: 'string' },
    },
    CacheControl: {
      description: 'Always `no-store`: bodies carry personal data.',
      schema: { type: 'string', const: 'no-store' },
    },
    Location: {
      description: 'The path of the new record, e.g. `/sandbox/customer/{customerId}`.',
      required: true,
      schema: { type: 'string' },
    },
    ConsistencyToken: {
      description:
        'Present when the service runs with a read replica: names this write for later reads (send it as their `Consistency-Token` ' +
        'header to see this write). Opaque; its format may change between versions, and a token the service cannot read makes a read go to the primary.',
      schema: { type: 'string' },
    },
    ETag: {
      description:
        'The record\'s strong entity tag, `"<id>.<version>"`: it changes with every change of what this record\'s GET answers (an ' +
        "account's postings too). Send it as `If-Match` to change or delete the record only as read, or as `If-None-Match` to read it only if changed.",
      required: true,
      schema: { type: 'string' },
    },
    IdempotentReplayed: {
      description: 'Present, `true`, when this answer replays an earlier request with the same Idempotency-Key.',
      schema: { type: 'string', const: 'true' },
    },
    WWWAuthenticate: {
      description:
        'RFC 6750 challenge: `Bearer realm="customer-account-service"`, plus `error`, `error_description` and `scope` when they apply.',
      required: true,
      schema: { type: 'string' },
    },
    RetryAfter: { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'string' } },
  };
}

const HEADER_COMPONENTS: Record<string, string> = {
  'WWW-Authenticate': 'WWWAuthenticate',
  'Retry-After': 'RetryAfter',
};

function successResponse(route: RestRoute): JsonSchema {
  const responseHeaders: Record<string, JsonSchema> = {
    'X-Request-Id': ref('headers', 'XRequestId'),
    'Cache-Control': ref('headers', 'CacheControl'),
  };
  if (route.success.status === 201) {
    responseHeaders.Location = ref('headers', 'Location');
    responseHeaders['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
  }
  if (route.method !== 'GET') responseHeaders['Consistency-Token'] = ref('headers', 'ConsistencyToken');
  if (route.deprecated) {
    // Inline, not components: a component no operation uses would be flagged by the document's lint.
    responseHeaders.Deprecation = {
      description: 'RFC 9745: deprecated since this time (`@` and Unix seconds).',
      required: true,
      schema: { type: 'string' },
    };
    responseHeaders.Sunset = {
      description: 'RFC 8594: the earliest time of removal (an HTTP-date), only in a new major version.',
      required: true,
      schema: { type: 'string' },
    };
  }
  if (answersEntityTag(route)) responseHeaders.ETag = ref('headers', 'ETag');
  const content: Record<string, JsonSchema> = {};
  if (route.binaryAnswer) {
    // A stored file in its own media type (a verification document): bytes, offered as an attachment.
    responseHeaders['Content-Disposition'] = {
      description: '`attachment; filename="…"`: a name made of the record\'s id, never one a client sent.',
      required: true,
      schema: { type: 'string' },
    };
    responseHeaders['X-Content-Type-Options'] = {
      description: '`nosniff`: the media type is the stored one; a browser must not guess another.',
      required: true,
      schema: { type: 'string' },
    };
    for (const mediaType of route.binaryAnswer) content[mediaType] = { schema: { type: 'string', format: 'binary' } };
    return { description: route.success.description, headers: responseHeaders, content };
  }
  for (const mediaType of route.representations ?? ['application/json'])
    content[mediaType] = representation(route, mediaType);
  return { description: route.success.description, headers: responseHeaders, content };
}

/** The envelope as JSON; NDJSON lines of the success schema; CSV as text; PDF as bytes. */
function representation(route: RestRoute, mediaType: string): JsonSchema {
  switch (mediaType) {
    case 'application/json':
      return {
        schema: ref('schemas', successEnvelopeName(route.family, route.success.component)),
        example: envelope(route.family, EXAMPLE_REQUEST_ID, { data: successExample(route) }),
      };
    case 'application/x-ndjson':
      return {
        schema: {
          type: 'string',
          description: `One \`${route.success.component}\` object per line (see the component).`,
        },
      };
    case 'application/pdf':
      return { schema: { type: 'string', format: 'binary' } };
    default:
      return {
        schema: { type: 'string', description: 'RFC 4180 CSV with a header row (the columns are in the description).' },
      };
  }
}

/** A business's beneficial owner (docs/adr/0094). */
const BENEFICIAL_OWNER_EXAMPLE = {
  customerId: EXAMPLE_IDS.otherCustomerId,
  prongs: ['OWNERSHIP', 'CONTROL'],
  ownershipPercentage: '40.00',
  title: 'CEO',
  addedAt: '2026-12-02T10:00:00.000Z',
};

/** A person's verification check, done (docs/adr/0101). */
const VERIFICATION_CHECK_EXAMPLE = {
  checkId: '0193a5c2-9b22-7f13-8a7c-2d4e6f8a0b32',
  kind: 'IDENTITY',
  provider: 'sandbox',
  reference: 'sandbox_0193a5c2-9b22-7f13-8a7c-2d4e6f8a0b32',
  status: 'COMPLETED',
  outcome: 'NEEDS_REVIEW',
  reasonCodes: ['MANUAL_REVIEW'],
  coveredFields: ['name', 'dateOfBirth', 'address', 'ssn'],
  requestedAt: '2026-12-02T10:00:00.000Z',
  completedAt: '2026-12-02T10:00:02.000Z',
};

/** A verification document as uploaded (docs/adr/0103). */
const VERIFICATION_DOCUMENT_EXAMPLE = {
  documentId: '0193a5c2-a1b2-7c3d-8e4f-5a6b7c8d9e0f',
  customerId: EXAMPLE_IDS.customerId,
  type: 'ID_DOCUMENT',
  mediaType: 'image/jpeg',
  sizeBytes: 482133,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  status: 'RECEIVED',
  reasonCode: null,
  uploadedBy: 'token:0193a5c2-0000-7000-8000-00000000a001',
  uploadedAt: '2026-12-03T10:00:00.000Z',
  reviewedBy: null,
  reviewedAt: null,
};

/** A person's verification after a review (docs/adr/0101). */
const VERIFICATION_EXAMPLE = {
  customerId: EXAMPLE_IDS.customerId,
  status: 'VERIFIED',
  requirements: { currentlyDue: [], pendingVerification: [], errors: [] },
  checks: [VERIFICATION_CHECK_EXAMPLE],
  documents: [],
  decision: {
    outcome: 'VERIFIED',
    reason: 'Passport and utility bill match the application.',
    decidedBy: 'token:0193a5c2-aa01-7c55-9e1f-3b5d7f9a1c43',
    decidedAt: '2026-12-02T10:30:00.000Z',
  },
};

/** An account number as every answer but the scoped list shows it (docs/adr/0107): a documentation example, issued to no one. */
const ACCOUNT_NUMBER_EXAMPLE = {
  accountNumberId: '0193a5c9-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
  accountId: EXAMPLE_IDS.accountId,
  routingNumber: '011000015',
  last4: '9015',
  status: 'ACTIVE',
  inboundAchDebits: 'ALLOWED',
  createdAt: '2026-12-03T10:00:00.000Z',
  updatedAt: '2026-12-03T10:00:00.000Z',
};

/** A deposit product (docs/adr/0112) with a tiered rate, a scheduled change and a fee. */
const PRODUCT_EXAMPLE = {
  productId: '0193a5c8-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
  code: 'HIGH_YIELD_SAVINGS',
  name: 'High-yield savings',
  accountType: 'SAVINGS',
  currency: 'USD',
  interest: {
    dayCount: 'ACTUAL_365',
    balanceBasis: 'END_OF_DAY',
    compounding: 'DAILY',
    posting: 'MONTHLY',
    rate: {
      effectiveFrom: '2026-12-02',
      annualRate: null,
      tiers: [
        { minimumBalance: '0', annualRate: '0.01' },
        { minimumBalance: '10000', annualRate: '0.0425' },
      ],
    },
    rateHistory: [
      { effectiveFrom: '2027-01-01', annualRate: '0.045', tiers: null },
      {
        effectiveFrom: '2026-12-02',
        annualRate: null,
        tiers: [
          { minimumBalance: '0', annualRate: '0.01' },
          { minimumBalance: '10000', annualRate: '0.0425' },
        ],
      },
    ],
  },
  fees: { monthlyMaintenance: { amount: '5', waivedAtMinimumDailyBalance: '500' } },
  minimumOpeningDeposit: '100',
  minimumBalance: null,
  limits: { dailyWithdrawalTotal: null, withdrawalsPerMonth: 6 },
  createdAt: '2026-12-02T10:00:00.000Z',
};

/** A case note (docs/adr/0105), without the record it is about. */
const NOTE_EXAMPLE = {
  noteId: '0193a5c8-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  text: 'Called about the card replacement; asked to call back on Monday.',
  author: { id: 'token:3f2c8a1e9b7d4c60', name: 'Support desk' },
  createdAt: '2026-12-02T10:00:00.000Z',
};

const CUSTOMER_EXAMPLE = {
  customerId: EXAMPLE_IDS.customerId,
  accountIds: [EXAMPLE_IDS.accountId],
  addresses: [{ type: 'HOME', street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }],
  dateOfBirth: '1985-04-12',
  emails: ['alex.doe@example.com'],
  firstName: 'Alexandra',
  lastName: 'Doe',
  middleName: 'Jane',
  phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 1234' }],
  preferredName: 'Alex',
};
const ACCOUNT_EXAMPLE = {
  accountId: EXAMPLE_IDS.accountId,
  type: 'CHECKING',
  name: 'Joint Checking',
  amount: 0,
  currency: 'USD',
  customers: [EXAMPLE_IDS.customerId, EXAMPLE_IDS.otherCustomerId],
  transactions: [],
  flags: [],
};
const AUDIT_PAGE_EXAMPLE = {
  events: [
    {
      eventId: '0193a5c2-7f40-7aa0-b1c2-d3e4f5a6b7c8',
      occurredAt: '2026-11-21T10:15:30.123Z',
      environmentOccurredAt: '2026-11-21T10:15:30.123Z',
      principalId: 'token:3f9c0a6b1d2e4f57',
      operation: 'customer.create',
      resourceType: 'customer',
      resourceId: EXAMPLE_IDS.customerId,
      requestId: EXAMPLE_REQUEST_ID,
      idempotencyKey: 'onboarding-2026-11-21-0001',
      changedFields: [
        'socialSecurityNumber',
        'dateOfBirth',
        'documentLocatorNumber',
        'preferredName',
        'firstName',
        'middleName',
        'lastName',
        'emails',
        'phoneNumbers',
        'addresses',
      ],
    },
  ],
  nextAfter: null,
  nextCursor: null,
};

const TRANSACTION_EXAMPLE = {
  transactionId: EXAMPLE_IDS.transactionId,
  accountId: EXAMPLE_IDS.accountId,
  type: 'CREDIT',
  amount: 25.5,
  authorizedAmount: 25.5,
  currency: 'USD',
  description: 'Payroll deposit',
  status: 'POSTED',
  balanceAfter: 125.5,
  createdAt: '2026-11-24T09:30:00.000Z',
  postedAt: '2026-11-24T09:30:00.000Z',
  voidedAt: null,
  expiresAt: null,
  transferId: null,
  reversesTransactionId: null,
};
const TRANSFER_ID = '0193a5c4-3e75-7048-9afc-6b8cad2e4f65';
const TRANSFER_EXAMPLE = {
  transferId: TRANSFER_ID,
  amount: 100,
  currency: 'USD',
  description: 'Rent share',
  debit: {
    ...TRANSACTION_EXAMPLE,
    type: 'DEBIT',
    amount: 100,
    authorizedAmount: 100,
    description: 'Rent share',
    balanceAfter: 25.5,
    transferId: TRANSFER_ID,
  },
  credit: {
    ...TRANSACTION_EXAMPLE,
    transactionId: '0193a5c4-3e75-7048-9afc-6b8cad2e4f66',
    accountId: EXAMPLE_IDS.otherAccountId,
    amount: 100,
    authorizedAmount: 100,
    description: 'Rent share',
    balanceAfter: 100,
    transferId: TRANSFER_ID,
  },
};

const EVENT_EXAMPLE = {
  eventId: '0193a5c5-5a97-7260-9c1e-8daecf406b87',
  type: 'transaction.posted',
  sequence: 42,
  occurredAt: '2026-11-24T09:30:00.000Z',
  resourceType: 'transaction',
  resourceId: EXAMPLE_IDS.transactionId,
  data: TRANSACTION_EXAMPLE,
};

function transactionExample(route: RestRoute): object {
  switch (route.operationId) {
    case 'postHold':
      return { ...TRANSACTION_EXAMPLE, type: 'DEBIT', amount: 20, authorizedAmount: 25.5, balanceAfter: 80 };
    case 'voidHold':
      return {
        ...TRANSACTION_EXAMPLE,
        type: 'DEBIT',
        status: 'VOIDED',
        balanceAfter: null,
        postedAt: null,
        voidedAt: '2026-11-24T09:35:00.000Z',
      };
    case 'reverseTransaction':
      return {
        ...TRANSACTION_EXAMPLE,
        transactionId: '0193a5c4-4f86-7159-8b0d-7c9dbe3f5a76',
        type: 'DEBIT',
        balanceAfter: 100,
        description: 'Duplicate payment',
        reversesTransactionId: EXAMPLE_IDS.transactionId,
      };
    default:
      return TRANSACTION_EXAMPLE;
  }
}

const WEBHOOK_ENDPOINT_EXAMPLE = {
  endpointId: EXAMPLE_IDS.endpointId,
  url: 'https://hooks.example.com/cas',
  eventTypes: ['customer.created', 'transaction.posted'],
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-25T08:00:00.000Z',
  updatedAt: '2026-11-25T08:00:00.000Z',
  failingSince: null,
  previousSecretExpiresAt: null,
};
// Not a real secret: the documentation's own, shown so the format is clear.
const EXAMPLE_WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function successExample(route: RestRoute): object {
  switch (route.success.component) {
    case 'CreatedCustomer':
      return { customerId: EXAMPLE_IDS.customerId };
    case 'Customer':
    case 'AnyCustomer':
      return CUSTOMER_EXAMPLE;
    case 'CustomerAnswer':
      return { ...CUSTOMER_EXAMPLE, preferredName: 'Sandy', emails: ['sandy.doe@example.com'] };
    case 'Account':
      return ACCOUNT_EXAMPLE;
    case 'AccountAnswer':
      return route.operationId === 'updateAccount'
        ? { ...ACCOUNT_EXAMPLE, name: 'Household Checking' }
        : ACCOUNT_EXAMPLE;
    case 'CustomerPage':
      return { customers: [CUSTOMER_EXAMPLE], nextAfter: null };
    case 'BeneficialOwnerAnswer':
      return BENEFICIAL_OWNER_EXAMPLE;
    case 'Verification':
    case 'VerificationAnswer':
      return VERIFICATION_EXAMPLE;
    case 'VerificationDocument':
    case 'VerificationDocumentAnswer':
      return route.operationId === 'reviewVerificationDocument'
        ? {
            ...VERIFICATION_DOCUMENT_EXAMPLE,
            status: 'REJECTED',
            reasonCode: 'EXPIRED',
            reviewedBy: 'token:0193a5c2-0000-7000-8000-00000000b002',
            reviewedAt: '2026-12-03T11:00:00.000Z',
          }
        : VERIFICATION_DOCUMENT_EXAMPLE;
    case 'VerificationCheckAnswer':
      return {
        ...VERIFICATION_CHECK_EXAMPLE,
        status: 'PENDING',
        outcome: null,
        reasonCodes: [],
        completedAt: null,
      };
    case 'BeneficialOwners':
      return {
        beneficialOwners: [
          BENEFICIAL_OWNER_EXAMPLE,
          {
            customerId: EXAMPLE_IDS.customerId,
            prongs: ['OWNERSHIP'],
            ownershipPercentage: '25.00',
            title: null,
            addedAt: '2026-12-02T10:05:00.000Z',
          },
        ],
      };
    case 'AccountPage':
      return { accounts: [ACCOUNT_EXAMPLE], nextAfter: null };
    case 'AccountFlags':
      return {
        flags: [
          {
            flag: 'FROZEN',
            reason: 'Suspected fraud, case 4711',
            setAt: '2026-11-25T08:00:00.000Z',
            setBy: 'token:3f2c8a1e9b7d4c60',
            setByName: 'fraud-operations',
            until: '2026-12-24T17:00:00.000Z',
          },
          {
            flag: 'DEBITS_BLOCKED',
            reason: null,
            setAt: '2026-11-20T09:30:00.000Z',
            setBy: 'jwt:support-agent-17',
            setByName: 'Dana Whitfield',
            until: null,
          },
        ],
      };
    case 'AuditPage':
      return AUDIT_PAGE_EXAMPLE;
    case 'Transaction':
      return transactionExample(route);
    case 'TransactionPage':
      return { transactions: [TRANSACTION_EXAMPLE], nextAfter: null };
    case 'Transfer':
      return TRANSFER_EXAMPLE;
    case 'Event':
      return EVENT_EXAMPLE;
    case 'EventPage':
      return { events: [EVENT_EXAMPLE], nextAfter: 42 };
    case 'CustomerEvents':
      return {
        events: [
          {
            eventId: '0193a5c5-6a97-7260-9c1e-8daecf406b88',
            type: 'customer.updated',
            sequence: 57,
            occurredAt: '2026-11-24T10:02:00.000Z',
            resourceType: 'customer',
            resourceId: EXAMPLE_IDS.customerId,
            data: { ...CUSTOMER_EXAMPLE, preferredName: 'Sandy' },
          },
          {
            eventId: '0193a5c5-4a97-7260-9c1e-8daecf406b86',
            type: 'customer.created',
            sequence: 12,
            occurredAt: '2026-11-21T10:15:30.123Z',
            resourceType: 'customer',
            resourceId: EXAMPLE_IDS.customerId,
            data: CUSTOMER_EXAMPLE,
          },
        ],
      };
    case 'AccountEvents':
      return {
        events: [
          {
            eventId: '0193a5c5-7a97-7260-9c1e-8daecf406b89',
            type: 'account.created',
            sequence: 13,
            occurredAt: '2026-11-21T10:16:00.000Z',
            resourceType: 'account',
            resourceId: EXAMPLE_IDS.accountId,
            data: ACCOUNT_EXAMPLE,
          },
        ],
      };
    case 'CreatedWebhookEndpoint':
      return {
        endpointId: EXAMPLE_IDS.endpointId,
        url: WEBHOOK_ENDPOINT_EXAMPLE.url,
        eventTypes: WEBHOOK_ENDPOINT_EXAMPLE.eventTypes,
        secret: EXAMPLE_WEBHOOK_SECRET,
        enabled: true,
      };
    case 'WebhookEndpoint':
      return route.operationId === 'disableWebhookEndpoint'
        ? { ...WEBHOOK_ENDPOINT_EXAMPLE, enabled: false, disabledReason: 'Disabled by a client.' }
        : WEBHOOK_ENDPOINT_EXAMPLE;
    case 'RotatedWebhookSecret':
      return {
        endpointId: EXAMPLE_IDS.endpointId,
        secret: EXAMPLE_WEBHOOK_SECRET,
        previousSecretExpiresAt: '2026-11-26T08:00:00.000Z',
      };
    case 'WebhookAttemptPage':
      return {
        attempts: [
          {
            attemptId: '0193a5c7-5a97-7c6a-9c1e-8daecf406b87',
            eventId: EVENT_EXAMPLE.eventId,
            attemptedAt: '2026-11-25T08:00:05.000Z',
            statusCode: 200,
            latencyMs: 84,
            succeeded: true,
            error: null,
          },
          {
            attemptId: '0193a5c7-4a97-7c6a-9c1e-8daecf406b86',
            eventId: EVENT_EXAMPLE.eventId,
            attemptedAt: '2026-11-25T08:00:00.000Z',
            statusCode: 503,
            latencyMs: 12,
            succeeded: false,
            error: 'HTTP 503: upstream unavailable',
          },
        ],
      };
    case 'CustomerNote':
      return { ...NOTE_EXAMPLE, customerId: EXAMPLE_IDS.customerId };
    case 'CustomerNotePage':
      return { notes: [{ ...NOTE_EXAMPLE, customerId: EXAMPLE_IDS.customerId }], nextAfter: null };
    case 'AccountNote':
      return { ...NOTE_EXAMPLE, accountId: EXAMPLE_IDS.accountId };
    case 'AccountNotePage':
      return { notes: [{ ...NOTE_EXAMPLE, accountId: EXAMPLE_IDS.accountId }], nextAfter: null };
    case 'AccountNumber':
      return { ...ACCOUNT_NUMBER_EXAMPLE };
    case 'AccountNumbers':
      return {
        routingNumber: ACCOUNT_NUMBER_EXAMPLE.routingNumber,
        accountNumbers: [{ accountNumber: '123456789015', ...ACCOUNT_NUMBER_EXAMPLE }],
      };
    case 'AccountNumberLookup':
      return {
        accountId: EXAMPLE_IDS.accountId,
        accountNumberId: ACCOUNT_NUMBER_EXAMPLE.accountNumberId,
        status: 'ACTIVE',
        inboundAchDebits: 'ALLOWED',
      };
    case 'Redelivery':
      return { endpointId: EXAMPLE_IDS.endpointId, eventId: EVENT_EXAMPLE.eventId };
    case 'BalanceAsOf':
      return {
        accountId: EXAMPLE_IDS.accountId,
        currency: 'USD',
        asOf: '2026-12-01T00:00:00.000Z',
        posted: 74.5,
        pending: 54.5,
        available: 54.5,
      };
    case 'BalanceHistory':
      return {
        points: [
          { at: '2026-11-02T00:00:00.000Z', posted: 100 },
          { at: '2026-11-03T00:00:00.000Z', posted: 74.5 },
        ],
      };
    case 'Statement':
      return {
        accountId: EXAMPLE_IDS.accountId,
        currency: 'USD',
        from: '2026-11-01T00:00:00.000Z',
        to: '2026-12-01T00:00:00.000Z',
        asOfSequence: '4711',
        openingBalance: 100,
        closingBalance: 74.5,
        totalCredits: 0,
        totalDebits: 25.5,
        entries: [
          {
            transactionId: EXAMPLE_IDS.transactionId,
            type: 'DEBIT',
            amount: 25.5,
            description: 'Groceries',
            postedAt: '2026-11-02T10:00:00.000Z',
            balanceAfter: 74.5,
            sequence: '4711',
            transferId: null,
            reversesTransactionId: null,
          },
        ],
      };
    case 'Product':
      return PRODUCT_EXAMPLE;
    case 'ProductPage':
      return { products: [PRODUCT_EXAMPLE], nextAfter: null };
    case 'Clock':
      return {
        now: '2026-12-02T19:44:17.000Z',
        businessDate: '2026-12-02',
        timeZone: 'America/New_York',
        adjustable: true,
      };
    case 'ClockAdvance':
      return { from: '2026-12-02T19:44:17.000Z', to: '2027-01-01T19:44:17.000Z', businessDaysRun: 30 };
    case 'EndOfDay':
      return {
        from: '2026-12-01',
        to: '2026-12-31',
        days: [
          {
            businessDate: '2026-12-01',
            status: 'COMPLETED',
            attempts: 1,
            startedAt: '2026-12-02T05:00:01.000Z',
            finishedAt: '2026-12-02T05:00:01.200Z',
            steps: [
              {
                step: 'hold-expiry',
                status: 'COMPLETED',
                records: 3,
                attempts: 1,
                startedAt: '2026-12-02T05:00:01.010Z',
                finishedAt: '2026-12-02T05:00:01.150Z',
                error: null,
              },
              {
                step: 'flag-expiry',
                status: 'COMPLETED',
                records: 0,
                attempts: 1,
                startedAt: '2026-12-02T05:00:01.150Z',
                finishedAt: '2026-12-02T05:00:01.190Z',
                error: null,
              },
            ],
          },
        ],
      };
    case 'AccountInterest':
      return {
        productCode: 'HIGH_YIELD_SAVINGS',
        annualRate: '0.0425',
        annualPercentageYield: '0.0434',
        accruedUnpaid: '12.345205479452',
        lastAccrualDate: '2027-01-14',
        lastPostingDate: '2026-12-31',
        paidYearToDate: '0',
      };
    case 'AccountFeeAssessmentPage':
      return {
        fees: [
          {
            month: '2027-01',
            minimumDailyBalance: '400',
            fee: '5',
            waivedAtMinimumDailyBalance: '500',
            outcome: 'CHARGED',
            charged: '5',
            uncollected: '0',
            transactionId: EXAMPLE_IDS.transactionId,
          },
          {
            month: '2026-12',
            minimumDailyBalance: '1000',
            fee: '5',
            waivedAtMinimumDailyBalance: '500',
            outcome: 'WAIVED',
            charged: '0',
            uncollected: '0',
            transactionId: null,
          },
        ],
        nextAfter: null,
      };
    case 'TaxForm1099Int':
      return {
        form: '1099-INT',
        taxYear: 2026,
        final: true,
        reportable: true,
        reportingThreshold: '10.00',
        currency: 'USD',
        payer: {
          name: 'Example Sandbox Bank (not a real payer)',
          address: '100 Example Street, Anytown, NY 10001',
          tin: '00-0000000',
          phone: '(555) 010-0100',
        },
        recipient: {
          customerId: EXAMPLE_IDS.customerId,
          name: 'Alexandra Jane Doe',
          address: { street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
          tinType: 'SSN',
          tinLastFour: '6789',
        },
        box1InterestIncome: '412.87',
        accounts: [{ accountId: EXAMPLE_IDS.accountId, accountNumberLast4: '9015', interestPaid: '412.87' }],
        otherCurrencyAccounts: [],
        asOf: '2027-01-14T15:00:00.000Z',
      };
    case 'EscheatmentPage':
      return {
        accounts: [
          {
            accountId: EXAMPLE_IDS.accountId,
            currency: 'USD',
            balance: 74.5,
            status: 'DORMANT',
            state: 'NY',
            lastActivityAt: '2024-03-01T15:20:00.000Z',
            dueDate: '2027-03-01',
            owners: [{ customerId: EXAMPLE_IDS.customerId, name: 'Jane Doe' }],
          },
        ],
        nextAfter: null,
      };
    default:
      return {};
  }
}

/**
 * Error examples shared by many operations are stored once under components.examples (keyed by family
 * and failure name) and referenced; one that differs per operation (EXTERNAL_ID_TAKEN names the kind of
 * record) stays inline in its response.
 */
class ExampleStore {
  readonly components: Record<string, JsonSchema> = {};

  refer(family: EnvelopeFamily, name: string, example: JsonSchema): JsonSchema {
    const key = `${family}_${name}`;
    const existing = this.components[key];
    if (existing === undefined) {
      this.components[key] = example;
      return { $ref: `#/components/examples/${key}` };
    }
    return JSON.stringify(existing) === JSON.stringify(example) ? { $ref: `#/components/examples/${key}` } : example;
  }
}

/** The reason phrase of each status a failure can answer, for the names of the shared responses. */
const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  406: 'NotAcceptable',
  409: 'Conflict',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'RateLimited',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

const familyName = (family: EnvelopeFamily) => (family === 'customer' ? 'Customer' : 'Account');

/**
 * Every failure response is stored once under components.responses and referenced by each operation that
 * answers it: the same status, the same failures (codes, conditions, examples) and the same envelope family
 * (`log_ref_id` or `logRefId`) make the same response. Names are given once every operation is known
 * (`name`): the response most operations of a family answer with a status, if more than half of those that
 * answer it do, is `<Family><Status>` (`CustomerUnauthorized`, `AccountNotFound`); any other is named after
 * the first operation that answers it (`AccountNotFound_getTransaction`: getTransaction's, and that of the
 * operations that fail the same way).
 */
interface SharedResponse {
  family: EnvelopeFamily;
  status: number;
  response: JsonSchema;
  /** The operations that answer it, in route order. */
  operationIds: string[];
  /** Their references, named by `name()`. */
  refs: JsonSchema[];
}

class ResponseStore {
  private readonly byContent = new Map<string, SharedResponse>();

  refer(route: RestRoute, status: number, response: JsonSchema): JsonSchema {
    const key = `${route.family} ${status} ${JSON.stringify(response)}`;
    let entry = this.byContent.get(key);
    if (!entry)
      this.byContent.set(key, (entry = { family: route.family, status, response, operationIds: [], refs: [] }));
    const placeholder: JsonSchema = { $ref: '' };
    entry.operationIds.push(route.operationId);
    entry.refs.push(placeholder);
    return placeholder;
  }

  /** Names every response, points each operation's reference at it, and answers components.responses. */
  name(): Record<string, JsonSchema> {
    const groups = new Map<string, SharedResponse[]>();
    for (const entry of this.byContent.values()) {
      const group = `${entry.family} ${entry.status}`;
      groups.set(group, [...(groups.get(group) ?? []), entry]);
    }
    const components: Record<string, JsonSchema> = {};
    for (const entries of groups.values()) {
      const answering = entries.reduce((sum, entry) => sum + entry.operationIds.length, 0);
      for (const entry of entries) {
        const statusName = STATUS_NAMES[entry.status];
        if (!statusName) throw new Error(`No name for the failure status ${entry.status}: add it to STATUS_NAMES`);
        const common = entry.operationIds.length * 2 > answering;
        const name = `${familyName(entry.family)}${statusName}${common ? '' : `_${entry.operationIds[0]!}`}`;
        if (components[name]) throw new Error(`Two failure responses are named ${name}`);
        components[name] = entry.response;
        for (const placeholder of entry.refs) placeholder.$ref = `#/components/responses/${name}`;
      }
    }
    return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * A 400 VALIDATION_FAILED is said once, in words that fit every operation: its parameters', headers' and body's
 * schemas say what is valid, and an operation's own rules beyond them are in its description (`ownValidationNote`).
 * Its example is the real refusal of a field that no request takes. So operations that differ only in what they
 * validate share one 400.
 */
const VALIDATION_FAILED_LINE =
  "- `VALIDATION_FAILED`: A path or query parameter, a header (`Idempotency-Key`, `If-Match`) or a body field breaks the operation's schema, " +
  'or one of its own rules (in its description); `details` names each field. Nothing changes.';
const isValidationFailure = (status: number, code: string) => status === 400 && code === 'VALIDATION_FAILED';

/** An operation's own VALIDATION_FAILED rules, for its description. */
function ownValidationNote(route: RestRoute): string {
  const own = route.failures.filter((failure) => {
    const http = toHttpFailure(failure.error);
    return isValidationFailure(http.status, http.body.code);
  });
  if (own.length === 0) return '';
  const lines = own.map((failure) => `- ${failure.when}`);
  return `\n\nIts own rules, refused with 400 \`VALIDATION_FAILED\`:\n${lines.join('\n')}`;
}

/** One response per status the operation can fail with, listing each code, with a real example of each. */
function failureResponses(
  route: RestRoute,
  examples: ExampleStore,
  responses: ResponseStore,
): Record<string, JsonSchema> {
  const byStatus = new Map<
    number,
    { codes: Set<string>; lines: string[]; headers: Set<string>; examples: Record<string, JsonSchema> }
  >();
  // No summary: the response's description says when each one happens, in the same order as its examples.
  const example = ({ name, error }: Pick<DocumentedFailure, 'name' | 'error'>) =>
    examples.refer(route.family, name, {
      value: envelope(route.family, EXAMPLE_REQUEST_ID, { error: toHttpFailure(error).body }),
    });
  for (const failure of failuresOf(route)) {
    const http = toHttpFailure(failure.error);
    let entry = byStatus.get(http.status);
    if (!entry) byStatus.set(http.status, (entry = { codes: new Set(), lines: [], headers: new Set(), examples: {} }));
    for (const name of Object.keys(http.headers)) entry.headers.add(name);
    if (isValidationFailure(http.status, http.body.code)) {
      if (!entry.codes.has(http.body.code)) entry.lines.push(VALIDATION_FAILED_LINE);
      entry.codes.add(http.body.code);
      entry.examples.VALIDATION_FAILED ??= example({ name: 'VALIDATION_FAILED', error: UNKNOWN_FIELD });
      continue;
    }
    entry.codes.add(http.body.code);
    entry.lines.push(`- \`${http.body.code}\`: ${failure.when}`);
    if (entry.examples[failure.name]) throw new Error(`Two failures of ${route.operationId} are named ${failure.name}`);
    entry.examples[failure.name] = example(failure);
  }
  const refs: Record<string, JsonSchema> = {};
  for (const [status, entry] of [...byStatus].sort(([a], [b]) => a - b)) {
    const responseHeaders: Record<string, JsonSchema> = {
      'X-Request-Id': ref('headers', 'XRequestId'),
      'Cache-Control': ref('headers', 'CacheControl'),
    };
    for (const name of entry.headers) {
      const component = HEADER_COMPONENTS[name];
      if (!component) throw new Error(`The error mapping sends a ${name} header that the document does not describe`);
      responseHeaders[name] = ref('headers', component);
    }
    refs[String(status)] = responses.refer(route, status, {
      description: entry.lines.join('\n'),
      headers: responseHeaders,
      content: {
        'application/json': {
          schema: {
            allOf: [
              ref('schemas', errorEnvelopeName(route.family)),
              { properties: { error: { properties: { code: { enum: [...entry.codes] } } } } },
            ],
          },
          examples: entry.examples,
        },
      },
    });
  }
  return refs;
}

/** A conditional GET's answer while the client's copy is current: no body. */
const NOT_MODIFIED: Record<string, JsonSchema> = {
  '304': {
    description:
      "Not modified: `If-None-Match` lists the record's current tag (or is `*`). No body; the `ETag` is the current one.",
    headers: {
      'X-Request-Id': ref('headers', 'XRequestId'),
      'Cache-Control': ref('headers', 'CacheControl'),
      ETag: ref('headers', 'ETag'),
    },
  },
};

function queryParameters(route: RestRoute): JsonSchema[] {
  if (!route.query) return [];
  const schema = toJsonSchema(route.query.schema);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return exampleInDescription({
      name,
      in: 'query',
      required: required.has(name),
      description: (description as string | undefined) ?? AUDIT_QUERY_DESCRIPTIONS[name] ?? name,
      schema: propertySchema,
      // An object parameter (`metadata`) is sent as `metadata[key]=value`.
      ...(propertySchema.type === 'object' && { style: 'deepObject', explode: true }),
      ...(route.query!.example[name] !== undefined && { example: route.query!.example[name] }),
    });
  });
}

const AUDIT_QUERY_DESCRIPTIONS: Record<string, string> = {
  first: `Page size, 1 to ${PAGE_SIZE.max}.`,
  after: 'The `nextAfter` of the previous page.',
  resourceId: 'Only the events of this customer or account.',
  operation: 'Only events of this operation.',
  from: 'Only events at or after this instant (ISO 8601 with a time zone).',
  to: 'Only events before this instant (ISO 8601 with a time zone).',
};

/** An operation that is another one when its body names a social security number says which scope that one needs. */
const ssnScopeNote = (route: RestRoute): string =>
  route.ssnScope ? `; with a \`socialSecurityNumber\` in the body, the scope \`${route.ssnScope}\` instead` : '';

/** A deprecated operation's description says since when, until when, and what to use instead. */
const deprecationNote = (route: RestRoute): string =>
  route.deprecated
    ? `\n\n**Deprecated** since ${route.deprecated.announced}; removed no earlier than ${route.deprecated.sunset}, in a new major version. Use ${route.deprecated.instead} instead.`
    : '';

function operation(route: RestRoute, examples: ExampleStore, responses: ResponseStore): OpenApiOperation {
  const parameterRefs = [
    ...pathParameterNames(route.path).map((name) => ref('parameters', name)),
    ref('parameters', 'XRequestId'),
  ];
  if (takesIdempotencyKey(route)) parameterRefs.push(ref('parameters', 'IdempotencyKey'));
  if (route.method === 'GET') parameterRefs.push(ref('parameters', 'ConsistencyToken'));
  if (takesIfNoneMatch(route)) parameterRefs.push(ref('parameters', 'IfNoneMatch'));
  if (takesIfMatch(route)) parameterRefs.push(ref('parameters', 'IfMatch'));
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: `${route.description}\n\nRequires the scope \`${route.scope}\`${ssnScopeNote(route)}.${ownValidationNote(route)}${deprecationNote(route)}`,
    'x-required-scope': route.scope,
    ...(route.ssnScope && { 'x-required-scope-with-ssn': route.ssnScope }),
    ...(route.deprecated && { deprecated: true }),
    parameters: [...parameterRefs, ...queryParameters(route)],
    ...(route.rawBody && {
      requestBody: {
        required: true,
        description: route.rawBody.description,
        content: Object.fromEntries(
          route.rawBody.mediaTypes.map((mediaType) => [mediaType, { schema: { type: 'string', format: 'binary' } }]),
        ),
      },
    }),
    ...(route.requestBody && {
      requestBody: {
        required: route.requestBody.optional !== true,
        content: {
          'application/json': {
            schema: REQUEST_ALTERNATIVES[route.operationId]
              ? {
                  oneOf: [
                    route.requestBody.component,
                    ...REQUEST_ALTERNATIVES[route.operationId]!.map((a) => a.component),
                  ].map((component) => ref('schemas', component)),
                }
              : ref('schemas', route.requestBody.component),
            example: route.requestBody.example,
          },
        },
      },
    }),
    responses: {
      [String(route.success.status)]: successResponse(route),
      ...(takesIfNoneMatch(route) && NOT_MODIFIED),
      ...failureResponses(route, examples, responses),
    },
  };
}

const DESCRIPTION = `The system of record for bank customers and their depository accounts.

- **Environments**: the first path segment (\`sandbox\`, …) selects a separate system of record.
- **Authentication**: \`Authorization: Bearer <token>\` on every call; each operation names the scope it needs.
- **Envelope**: every answer is \`{data, success, error, requestId, log_ref_id}\` on the customer endpoints and
  \`{data, success, error, requestId, logRefId}\` on the account endpoints; on failure \`data\` is null and \`error\`
  is \`{code, message, details?}\`. Each operation lists its error codes per status.
- **Personal data**: the social security number and document locator number are accepted on creation and never returned.
- **Retries**: creations accept an \`Idempotency-Key\` header.

The same data is also served over GraphQL at \`/{environment}/graphql\`.`;

/** The whole document; deterministic, so the committed openapi.json can be compared byte for byte. */
export function buildOpenApiDocument(routes: readonly RestRoute[] = REST_ROUTES): OpenApiDocument {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const examples = new ExampleStore();
  const responses = new ResponseStore();
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route, examples, responses);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Customer & Account Service',
      version: API_VERSION,
      description: DESCRIPTION,
      // No URL, e-mail or licence is invented here: Spectral's non-recommended rules warn about them (reported by the suite).
      contact: { name: 'Customer & Account Service maintainers' },
    },
    servers: [{ url: '/', description: 'The service that serves this document.' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Accounts', description: 'Depository accounts owned by one or more customers.' },
      { name: 'Audit', description: 'The append-only trail of successful writes.' },
      { name: 'Clock', description: "Each environment's clock, a sandbox's time travel, and the end of day." },
      { name: 'Customers', description: 'People or entities that may hold accounts.' },
      { name: 'Events', description: 'Every committed change, in order: the transactional outbox.' },
      { name: 'Products', description: 'Deposit products: the terms accounts are opened on, and their rates.' },
      {
        name: 'Webhooks',
        description:
          'Events pushed to your endpoints as signed Standard Webhooks requests: at least once, retried, first attempts in order per endpoint.',
      },
      {
        name: 'Transactions',
        description:
          'Money moving through the double-entry ledger: deposits, withdrawals, holds, reversals and transfers.',
      },
      {
        name: 'History',
        description:
          "An account's past: balances at any moment, balance histories, statements (JSON, CSV, PDF), and the ledger export for reconciliation.",
      },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            `A static token (API_TOKENS), a managed token (\`npm run token\`, format \`cas_<id>_<secret>\`) or an OIDC JWT. ` +
            `Scopes: ${ACCESS_SCOPES.map((scope) => `\`${scope}\``).join(', ')}; static tokens hold all of them.`,
        },
      },
      parameters: parameters(),
      headers: headers(),
      responses: responses.name(),
      schemas: componentSchemas(),
      examples: examples.components,
    },
  };
}

let cached: string | undefined;
/** The document as served and as written to ./openapi.json (2-space JSON, trailing newline). */
export function openApiJson(): string {
  return (cached ??= `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
}
