/** One problem with one field of a refused request (`error.details` of the envelope). */
export interface ErrorDetail {
  field?: string;
  code: string;
  message: string;
}

/**
 * A refusal by the service, from its envelope: the stable `code` (docs/reference/errors.md), the message, the
 * details, the HTTP status and the request's reference (`log_ref_id` on customer endpoints, `logRefId` on
 * account endpoints: both land in `logRefId` here).
 */
export class CasApiError extends Error {
  override readonly name = 'CasApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly ErrorDetail[],
    readonly requestId: string | undefined,
    readonly logRefId: string | undefined,
    /** Seconds the service asked to wait (429, 503), when it said. */
    readonly retryAfterS: number | undefined,
  ) {
    super(message);
  }
}

/** A GraphQL answer with errors: each with its message and `extensions.code`. */
export class CasGraphqlError extends Error {
  override readonly name = 'CasGraphqlError';
  constructor(
    readonly status: number,
    readonly errors: readonly { message: string; extensions?: { code?: string } & Record<string, unknown> }[],
  ) {
    super(errors.map((error) => `${error.extensions?.code ?? 'ERROR'}: ${error.message}`).join('; '));
  }

  /** The first error's code, e.g. VALIDATION_FAILED. */
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }
}

interface ErrorEnvelope {
  error?: { code?: unknown; message?: unknown; details?: unknown } | null;
  requestId?: unknown;
  log_ref_id?: unknown;
  logRefId?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Seconds from a Retry-After header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The typed error of a failed answer; a body that is not the envelope still gives status and a code. */
export function apiErrorOf(response: Response, body: unknown): CasApiError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as ErrorEnvelope;
  const error = envelope.error ?? {};
  const details = Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [];
  return new CasApiError(
    response.status,
    text(error.code) ?? `HTTP_${response.status}`,
    text(error.message) ?? (response.statusText || `HTTP ${response.status}`),
    details,
    text(envelope.requestId) ?? response.headers.get('x-request-id') ?? undefined,
    text(envelope.log_ref_id) ?? text(envelope.logRefId),
    retryAfterSeconds(response.headers.get('retry-after')),
  );
}

/**
 * The envelope's `data` of a successful answer; a refusal throws CasApiError with the envelope's code,
 * message and details.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T extends { data: infer D } ? D : never> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw apiErrorOf(response, error);
  return (data as { data: unknown }).data as never;
}
