import { retryAfterSeconds } from './errors.js';

/** How the client retries (docs: packages/client/README.md, "Retries"). */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 never retries). */
  attempts?: number;
  /** Wait when the answer names no Retry-After, doubled per attempt (default 250 ms). */
  baseDelayMs?: number;
  /** The longest wait the client accepts; a longer Retry-After ends the retries with the error (default 30 s). */
  maxDelayMs?: number;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request may be sent again when repeating it cannot do anything twice: a read, or a write carrying an
 * Idempotency-Key (the service replays the first answer).
 */
export const safeToRepeat = (request: Request): boolean =>
  IDEMPOTENT_METHODS.has(request.method) || request.headers.has('idempotency-key');

const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * fetch with bounded retries:
 * - 429 (the request was refused before it ran): always, after Retry-After;
 * - 503 (the service could not reach its database, or is draining): after Retry-After, only when safe to repeat;
 * - a network error (no answer: the request may or may not have run): only when safe to repeat.
 * Anything else is answered as is. `safe` overrides the judgement of `safeToRepeat` (a GraphQL query is a POST).
 */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request, safe?: boolean) => Promise<Response> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  return async (request, safe = safeToRepeat(request)) => {
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= attempts;
      let response: Response;
      try {
        response = await fetchImpl(last ? request : request.clone());
      } catch (error) {
        if (last || !safe || request.signal.aborted) throw error;
        await sleep(baseDelayMs * 2 ** (attempt - 1), request.signal);
        continue;
      }
      const retryable = response.status === 429 || (response.status === 503 && safe);
      if (!retryable || last) return response;
      const waitS = retryAfterSeconds(response.headers.get('retry-after'));
      const waitMs = waitS === undefined ? baseDelayMs * 2 ** (attempt - 1) : waitS * 1000;
      if (waitMs > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(waitMs, request.signal);
    }
  };
}
