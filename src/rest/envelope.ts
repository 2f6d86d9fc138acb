import type { Response } from 'express';

/**
 * The response envelope of the contract. Customer endpoints name the log reference `log_ref_id`,
 * account endpoints `logRefId` (spec, "Response envelope"); never both.
 */
export type EnvelopeFamily = 'customer' | 'account';

export interface ErrorDetailBody {
  field?: string;
  code: string;
  message: string;
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: ErrorDetailBody[];
}

export type Outcome = { data: object } | { error: ErrorBody };

export function envelope(family: EnvelopeFamily, requestId: string, outcome: Outcome) {
  const result =
    'data' in outcome
      ? { data: outcome.data, success: true, error: null }
      : { data: null, success: false, error: outcome.error };
  return family === 'account' ? { ...result, requestId, logRefId: requestId } : { ...result, requestId, log_ref_id: requestId };
}

/**
 * The family of a path no route claimed (unknown route, or an error before any route ran): paths whose
 * resource segment is `account` or `transfer` (money moving between accounts) answer like the account
 * endpoints, everything else like the customer endpoints (docs/adr/0014-rest-protocol.md).
 */
export function envelopeFamilyOf(path: string): EnvelopeFamily {
  const resource = path.split('?', 1)[0]!.split('/')[2];
  return resource === 'account' || resource === 'transfer' ? 'account' : 'customer';
}

/** A GET's 304 (RFC 9110 §15.4.5): the headers a 200 would carry that describe the record (ETag), no body. */
export function sendNotModified(res: Response, headers: Record<string, string>): void {
  res.setHeader('Cache-Control', 'no-store');
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.statusCode = 304;
  res.end();
}

export function sendEnvelope(
  res: Response,
  family: EnvelopeFamily,
  status: number,
  outcome: Outcome,
  headers: Record<string, string> = {},
): void {
  // Bodies carry personal data: no shared cache or browser history may keep them.
  res.setHeader('Cache-Control', 'no-store');
  for (const name in headers) res.setHeader(name, headers[name]!);
  // Written directly rather than with res.json(): the type is fixed, there is no ETag to compute (the
  // answers are never cached) and node:http leaves the body out of HEAD answers by itself.
  const body = JSON.stringify(envelope(family, res.locals.requestId, outcome));
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
