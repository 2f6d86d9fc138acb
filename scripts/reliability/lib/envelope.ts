import type { RequestErrorCode } from '../../../src/auth/errors.js';
import type { ErrorCode } from '../../../src/domain/errors.js';
import type { HttpOnlyErrorCode } from '../../../src/http/errors.js';

/**
 * What a well-formed REST answer is, as data: every documented error code (src/domain/errors.ts,
 * src/auth/errors.ts and src/http/errors.ts; the Record type fails to compile when a code is added there and not here)
 * with the statuses it may carry, and the detail codes of src/domain/validation.ts.
 */
export const STATUS_BY_CODE: Record<ErrorCode | RequestErrorCode | HttpOnlyErrorCode, readonly number[]> = {
  VALIDATION_FAILED: [400],
  FIELD_NOT_UPDATABLE: [400],
  CUSTOMER_NOT_FOUND: [404, 422],
  ACCOUNT_NOT_FOUND: [404, 422],
  CUSTOMER_ALREADY_EXISTS: [409],
  TAX_ID_ALREADY_EXISTS: [409],
  FIELD_NOT_FOR_CUSTOMER_TYPE: [400],
  NOT_A_BUSINESS: [409],
  OWNER_NOT_AN_INDIVIDUAL: [409],
  OWNER_IS_THE_BUSINESS: [400],
  OWNERSHIP_OVER_100: [409],
  BENEFICIAL_OWNER_EXISTS: [409],
  BENEFICIAL_OWNER_NOT_FOUND: [404],
  BENEFICIAL_OWNER_LIMIT: [409],
  CUSTOMER_IS_A_BENEFICIAL_OWNER: [409],
  VERIFICATION_TRANSITION_NOT_ALLOWED: [409],
  VERIFICATION_PROVIDER_NOT_CONFIGURED: [503],
  VERIFICATION_REQUIRED: [409],
  VERIFICATION_CALLBACK_SIGNATURE_INVALID: [401],
  VERIFICATION_CHECK_NOT_FOUND: [404],
  ACCOUNT_NUMBER_NOT_FOUND: [404],
  ACCOUNT_NUMBER_CANCELED: [422],
  PRODUCT_NOT_FOUND: [404, 422],
  PRODUCT_MISMATCH: [422],
  INTEREST_NOT_APPLICABLE: [422],
  TAX_FORM_NOT_APPLICABLE: [422],
  TAX_FORM_PAYER_NOT_CONFIGURED: [503],
  PRODUCT_CODE_TAKEN: [409],
  PRODUCT_RATE_NOT_ALLOWED: [422],
  MINIMUM_BALANCE: [409],
  WITHDRAWAL_LIMIT_EXCEEDED: [409],
  MINIMUM_OPENING_DEPOSIT: [422],
  ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED: [429],
  VERIFICATION_CHECK_COMPLETED: [409],
  DOCUMENT_NOT_FOUND: [404],
  DOCUMENT_TYPE_MISMATCH: [415],
  DOCUMENT_CONTENT_TOO_LARGE: [413],
  DOCUMENT_ALREADY_REVIEWED: [409],
  DOCUMENT_REVIEW_BY_UPLOADER: [403],
  DOCUMENT_UPLOADS_BUSY: [503],
  CLOCK_NOT_ADJUSTABLE: [409],
  CLOCK_CANNOT_GO_BACK: [422],
  CLOCK_ADVANCE_TOO_FAR: [422],
  ACCOUNT_CLOSED: [409],
  ACCOUNT_DORMANT: [409],
  ACCOUNT_NOT_DORMANT: [409],
  ACCOUNT_HAS_PENDING_HOLDS: [409],
  ACCOUNT_NOT_CLOSED: [409],
  ACCOUNT_REOPEN_WINDOW_PASSED: [409],
  CUSTOMER_ARCHIVED: [409],
  CUSTOMER_HAS_OPEN_ACCOUNTS: [409],
  CUSTOMER_HAS_ACCOUNTS: [409],
  PRECONDITION_FAILED: [412],
  EXTERNAL_ID_TAKEN: [409],
  SERVICE_UNAVAILABLE: [503],
  UNAUTHENTICATED: [401],
  FORBIDDEN: [403],
  ENVIRONMENT_NOT_FOUND: [404],
  IDEMPOTENCY_KEY_REUSED: [422],
  IDEMPOTENCY_KEY_IN_PROGRESS: [409],
  TRANSACTION_NOT_FOUND: [404],
  TRANSFER_NOT_FOUND: [404],
  INSUFFICIENT_FUNDS: [409],
  CURRENCY_MISMATCH: [422],
  ACCOUNT_FROZEN: [409],
  DEBITS_BLOCKED: [409],
  CREDITS_BLOCKED: [409],
  TRANSACTION_NOT_PENDING: [409],
  TRANSACTION_NOT_POSTED: [409],
  TRANSACTION_ALREADY_REVERSED: [409],
  REVERSAL_NOT_REVERSIBLE: [409],
  HOLD_EXPIRED: [409],
  AMOUNT_EXCEEDS_HOLD: [409],
  TOKEN_LIMIT_EXCEEDED: [403],
  ACCOUNT_BALANCE_NOT_ZERO: [409],
  ACCOUNT_HAS_TRANSACTIONS: [409],
  ACCOUNT_NEEDS_A_CUSTOMER: [409],
  LAST_OWNER: [409],
  ROLE_REQUIRES_INDIVIDUAL: [409],
  CUSTOMER_ALREADY_LINKED: [409],
  ACCOUNT_CUSTOMER_LIMIT: [409],
  CUSTOMER_ACCOUNT_LIMIT: [409],
  EVENT_NOT_FOUND: [404],
  STATEMENT_TOO_LARGE: [400],
  LEDGER_EXPORTS_FULL: [503],
  STATEMENT_RENDERING_BUSY: [503],
  WEBHOOK_ENDPOINT_NOT_FOUND: [404],
  WEBHOOK_URL_NOT_ALLOWED: [400],
  WEBHOOK_ENDPOINT_DISABLED: [409],
  WEBHOOK_ENDPOINT_LIMIT: [409],
  SUBSCRIPTIONS_FULL: [503],
  RATE_LIMITED: [429],
  SSN_SEARCH_RATE_LIMITED: [429],
  MALFORMED_REQUEST: [400],
  ROUTE_NOT_FOUND: [404],
  METHOD_NOT_ALLOWED: [405],
  PAYLOAD_TOO_LARGE: [413],
  UNSUPPORTED_MEDIA_TYPE: [415],
  NOT_ACCEPTABLE: [406],
  TOO_MANY_CONNECTIONS: [503],
  INTERNAL_ERROR: [500],
};

export const DETAIL_CODES = new Set([
  'REQUIRED',
  'INVALID_TYPE',
  'TOO_LONG',
  'TOO_SHORT',
  'TOO_LARGE',
  'TOO_SMALL',
  'INVALID_FORMAT',
  'INVALID_VALUE',
  'UNKNOWN_FIELD',
  'FIELD_NOT_UPDATABLE',
  'FIELD_NOT_FOR_CUSTOMER_TYPE',
  'TAX_ID_ALREADY_EXISTS',
  'CUSTOMER_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'OUT_OF_RANGE',
  'TOO_PRECISE',
  'WEBHOOK_URL_NOT_ALLOWED',
  'EXTERNAL_ID_TAKEN',
  'NOT_ALLOWED_IN_URL',
  'NOT_ASSOCIATED',
  'OWNER_REQUIRED',
  'ROLE_REQUIRES_INDIVIDUAL',
  // A product's refusals (docs/adr/0114): each detail names a value it carries.
  'MINIMUM_BALANCE',
  'AVAILABLE',
  'DAILY_WITHDRAWAL_TOTAL',
  'WITHDRAWALS_PER_MONTH',
  'USED',
  'MINIMUM_OPENING_DEPOSIT',
]);

export interface Answer {
  status: number;
  /** Header lookup, lower-case names. */
  header(name: string): string | undefined;
  text: string;
  json: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The envelope's log reference name for a path, by the rule of src/rest/envelope.ts (docs/adr/0014-rest-protocol.md): `account` and `transfer` paths answer like the account endpoints. */
export const logRefKeyFor = (path: string): 'logRefId' | 'log_ref_id' =>
  ['account', 'transfer'].includes(path.split('?', 1)[0]!.split('/')[2]!) ? 'logRefId' : 'log_ref_id';

/**
 * Everything wrong with one REST answer, as sentences (empty when it is well-formed): a JSON envelope with
 * exactly the contract's keys, its log reference equal to requestId and to X-Request-Id, success and error
 * consistent with the status, and a documented code with a status that code may have.
 */
export function envelopeProblems(answer: Answer, path: string): string[] {
  const problems: string[] = [];
  if (!(answer.header('content-type') ?? '').startsWith('application/json'))
    problems.push(`content-type is ${answer.header('content-type')}`);
  const body = answer.json;
  if (!isObject(body)) return [...problems, `body is not a JSON object: ${answer.text.slice(0, 200)}`];
  const logRef = logRefKeyFor(path);
  const expectedKeys = ['data', 'error', logRef, 'requestId', 'success'].sort();
  const keys = Object.keys(body).sort();
  if (keys.join() !== expectedKeys.join())
    problems.push(`envelope keys are ${keys.join(',')}, expected ${expectedKeys.join(',')}`);
  if (typeof body.requestId !== 'string' || body.requestId.length === 0)
    problems.push('requestId is not a non-empty string');
  if (body[logRef] !== body.requestId) problems.push(`${logRef} differs from requestId`);
  if (answer.header('x-request-id') !== body.requestId) problems.push('X-Request-Id differs from requestId');
  if (answer.status >= 200 && answer.status < 300) {
    if (body.success !== true || body.error !== null || !isObject(body.data))
      problems.push('a 2xx answer without success: true, error: null and a data object');
    return problems;
  }
  if (body.success !== false || body.data !== null || !isObject(body.error))
    return [...problems, 'an error answer without success: false, data: null and an error object'];
  const error = body.error;
  const code = error.code as keyof typeof STATUS_BY_CODE;
  const statuses = STATUS_BY_CODE[code];
  if (statuses === undefined) problems.push(`undocumented error code ${String(error.code)}`);
  else if (!statuses.includes(answer.status))
    problems.push(`code ${code} with status ${answer.status} (documented: ${statuses.join(', ')})`);
  if (typeof error.message !== 'string' || error.message.length === 0)
    problems.push('error.message is not a non-empty string');
  const extraKeys = Object.keys(error).filter((key) => !['code', 'message', 'details'].includes(key));
  if (extraKeys.length > 0) problems.push(`error has extra keys ${extraKeys.join(',')}`);
  if (error.details !== undefined) {
    if (!Array.isArray(error.details)) problems.push('error.details is not an array');
    else {
      for (const detail of error.details as unknown[]) {
        if (!isObject(detail) || typeof detail.message !== 'string' || !DETAIL_CODES.has(String(detail.code))) {
          problems.push(`malformed or undocumented detail ${JSON.stringify(detail).slice(0, 200)}`);
          break;
        }
        if (Object.keys(detail).some((key) => !['code', 'field', 'message', 'value'].includes(key)))
          problems.push('a detail has extra keys');
      }
    }
  }
  return problems;
}

/** Headers of a fetch Response or of node:http's IncomingHttpHeaders, as an Answer. */
export function answerOf(response: {
  status: number;
  text: string;
  json: unknown;
  headers: Headers | Record<string, string | string[] | undefined>;
}): Answer {
  const { headers } = response;
  const header =
    headers instanceof Headers
      ? (name: string) => headers.get(name) ?? undefined
      : (name: string) => {
          const value = headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        };
  return { status: response.status, header, text: response.text, json: response.json };
}
