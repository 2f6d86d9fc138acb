import { MAX_BEARER_TOKEN_LENGTH } from '../../src/auth/authenticator.js';
import { loadConfig } from '../../src/config/config.js';
import { ACCOUNT_LIMITS } from '../../src/features/accounts/account.schemas.js';
import { CUSTOMER_LIMITS } from '../../src/features/customers/customer.schemas.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../src/features/idempotency/idempotent-creation.js';
import { EXTERNAL_ID_LENGTH, METADATA_LIMITS } from '../../src/domain/metadata.js';
import { PAGE_SIZE } from '../../src/domain/pagination.js';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../../src/graphql/websocket.js';
import { DEFAULT_FOLLOWER_BUFFER } from '../../src/features/events/event-feed.job.js';
import { TEST_PII_ENV } from '../support/service.js';

/**
 * The "Limits" table of docs/reference/limits.md, rendered from the constants and configuration defaults that
 * enforce each limit, so the document cannot drift from the code (limits-doc.test.ts compares them).
 */
export const LIMITS_TABLE_START =
  '<!-- limits-table:start (generated from the code by test/rest/limits-doc.test.ts; do not edit by hand) -->';
export const LIMITS_TABLE_END = '<!-- limits-table:end -->';

const VALIDATION = '`VALIDATION_FAILED`';

export function renderLimitsTable(): string {
  // Production defaults: what a deployment gets without setting the variable.
  const config = loadConfig({
    NODE_ENV: 'production',
    API_TOKENS: 'limits-8MO_XAyuaWRAIRef6-g2OW6_ejA1xdwC_XRMLWstiMyKRxo',
    ...TEST_PII_ENV,
  });
  const C = CUSTOMER_LIMITS;
  const A = ACCOUNT_LIMITS;
  const g = config.graphql;
  const r = config.rateLimit;
  const chars = (n: number) => `${n} characters`;
  const items = (max: number, min = 0) => (min > 0 ? `${min}–${max} items` : `${max} items`);
  const rows: [string, string, string, string][] = [
    [
      'Request body, REST and GraphQL (after decompression)',
      `${config.bodyLimitBytes} bytes (${config.bodyLimitBytes / 1024} KiB)`,
      '`BODY_LIMIT`',
      '413 `PAYLOAD_TOO_LARGE`',
    ],
    [
      'Bearer token',
      chars(MAX_BEARER_TOKEN_LENGTH),
      '–',
      '401 `UNAUTHENTICATED` (`invalid_token`), refused before any look-up',
    ],
    [
      '`Idempotency-Key` header, `idempotencyKey` argument',
      `1–${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
      '–',
      VALIDATION,
    ],
    [
      'Idempotency key kept',
      `${config.idempotencyTtlHours} hours`,
      '`IDEMPOTENCY_TTL_HOURS`',
      'afterwards the key starts a new request',
    ],
    ['`firstName`, `middleName`, `lastName`, `preferredName`', chars(C.nameLength), '–', VALIDATION],
    ['`dateOfBirth`', `${C.earliestDateOfBirth} to today`, '–', VALIDATION],
    ['`socialSecurityNumber`', '9 digits, `AAA-GG-SSSS` or `AAAGGSSSS` (at most 11 characters)', '–', VALIDATION],
    ['`documentLocatorNumber`', `0 to ${Number.MAX_SAFE_INTEGER}`, '–', VALIDATION],
    ['`emails`', `${items(C.emails)}, each ${chars(C.emailLength)}`, '–', VALIDATION],
    [
      '`phoneNumbers`',
      `${items(C.phoneNumbers)}; \`number\` ${chars(C.phoneNumberLength)}, \`type\` ${chars(C.typeLength)}`,
      '–',
      VALIDATION,
    ],
    [
      '`addresses`',
      `${items(C.addresses)}; \`street\` ${C.streetLength}, \`city\` ${C.cityLength}, \`state\` ${C.stateLength}, \`zip\` ${C.zipLength}, \`type\` ${C.typeLength} characters`,
      '–',
      VALIDATION,
    ],
    ['Account `name`', chars(A.nameLength), '–', VALIDATION],
    ['Account `type`', chars(A.typeLength), '–', VALIDATION],
    ['`associatedCustomerIds`', `${items(A.associatedCustomers, 1)}, distinct`, '–', VALIDATION],
    [
      'Customers of one account',
      String(A.associatedCustomers),
      '–',
      '409 `ACCOUNT_CUSTOMER_LIMIT`, enforced by the database',
    ],
    ['Accounts of one customer', String(C.accounts), '–', '409 `CUSTOMER_ACCOUNT_LIMIT`, enforced by the database'],
    [
      '`externalId` of a customer or an account',
      `1–${EXTERNAL_ID_LENGTH} characters, unique per environment and kind`,
      '–',
      `${VALIDATION}; 409 \`EXTERNAL_ID_TAKEN\``,
    ],
    [
      '`metadata` of a customer or an account',
      `${METADATA_LIMITS.keys} keys of ${chars(METADATA_LIMITS.keyLength)}, each value ${chars(METADATA_LIMITS.valueLength)}`,
      '–',
      `${VALIDATION}; the key count also after an update's merge, enforced by the database`,
    ],
    [
      'Page size of every list (`first`): GraphQL `customers`, `accounts`, `auditEvents`; REST audit events',
      `1–${PAGE_SIZE.max}, default ${PAGE_SIZE.default}`,
      '–',
      VALIDATION,
    ],
    ['GraphQL document size', `${g.maxTokens} lexical tokens`, '`GRAPHQL_MAX_TOKENS`', '400 `DOCUMENT_TOO_LARGE`'],
    ['GraphQL depth', `${g.maxDepth} nested selection sets`, '`GRAPHQL_MAX_DEPTH`', '400 `QUERY_TOO_DEEP`'],
    ['GraphQL aliases per operation', String(g.maxAliases), '`GRAPHQL_MAX_ALIASES`', '400 `TOO_MANY_ALIASES`'],
    [
      'GraphQL root fields per operation',
      String(g.maxRootFields),
      '`GRAPHQL_MAX_ROOT_FIELDS`',
      '400 `TOO_MANY_ROOT_FIELDS`',
    ],
    [
      'GraphQL estimated cost per operation (every list counted at the most it can hold)',
      String(g.maxCost),
      '`GRAPHQL_MAX_COST`',
      '400 `QUERY_TOO_COMPLEX`',
    ],
    [
      'GraphQL fields and list items resolved per operation',
      String(g.maxNodes),
      '`GRAPHQL_MAX_NODES`',
      '`TOO_MANY_NODES`, `data: null`',
    ],
    [
      'GraphQL execution time per operation',
      `${g.maxExecutionMs} ms`,
      '`GRAPHQL_MAX_EXECUTION_MS`',
      '`OPERATION_TIMEOUT`, `data: null`',
    ],
    [
      'GraphQL response size',
      `${g.maxResponseBytes} bytes (${g.maxResponseBytes / 1024 / 1024} MiB)`,
      '`GRAPHQL_MAX_RESPONSE_BYTES`',
      '`RESPONSE_TOO_LARGE`, `data: null`',
    ],
    [
      'GraphQL WebSocket message (subscriptions)',
      `${config.bodyLimitBytes} bytes`,
      '`BODY_LIMIT`',
      'the connection is closed (1009)',
    ],
    [
      'GraphQL subscriptions open on one WebSocket connection',
      String(MAX_SUBSCRIPTIONS_PER_CONNECTION),
      '–',
      '`error` message `TOO_MANY_SUBSCRIPTIONS`',
    ],
    [
      'Values a subscription leaves unread',
      String(DEFAULT_FOLLOWER_BUFFER),
      '–',
      '`SUBSCRIPTION_TOO_SLOW`, then the subscription ends',
    ],
    [
      'Requests per token (REST and GraphQL share it)',
      `${r.points} points per ${r.durationS} s; a REST request costs 1, a GraphQL operation 1 + ⌊cost / ${r.graphqlCostPerPoint}⌋`,
      '`RATE_LIMIT_POINTS`, `RATE_LIMIT_DURATION_S`, `RATE_LIMIT_GRAPHQL_COST_PER_POINT`',
      '429 `RATE_LIMITED`, `Retry-After`',
    ],
    [
      'Refused bearer tokens per client address (IPv6: per /64)',
      `${r.authFailures} per ${r.authFailuresDurationS} s, then the address's further refused tokens are answered 429 until the window ends (valid tokens are never refused)`,
      '`RATE_LIMIT_AUTH_FAILURES`, `RATE_LIMIT_AUTH_FAILURES_DURATION_S`',
      '429 `RATE_LIMITED`, `Retry-After`',
    ],
  ];
  return [
    LIMITS_TABLE_START,
    '| Limit | Default | Setting | When crossed |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    LIMITS_TABLE_END,
  ].join('\n');
}
