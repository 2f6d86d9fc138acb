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
  value?: string;
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
  return family === 'account'
    ? { ...result, requestId, logRefId: requestId }
    : { ...result, requestId, log_ref_id: requestId };
}

/**
 * The family of a path no route claimed (unknown route, or an error before any route ran): paths whose
 * resource segment is `account`, `transfer` (money moving between accounts), `account-numbers` (an account
 * number's look-up, docs/adr/0107) or `product` (the terms accounts open on, docs/adr/0112) answer like the account endpoints, everything else like the customer endpoints
 * (docs/adr/0014-rest-protocol.md).
 */
export function envelopeFamilyOf(path: string): EnvelopeFamily {
  const resource = path.split('?', 1)[0]!.split('/')[2];
  return resource === 'account' || resource === 'transfer' || resource === 'account-numbers' || resource === 'product'
    ? 'account'
    : 'customer';
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
  longList?: string,
): void {
  // Bodies carry personal data: no shared cache or browser history may keep them.
  res.setHeader('Cache-Control', 'no-store');
  for (const name in headers) res.setHeader(name, headers[name]!);
  // Written directly rather than with res.json(): the type is fixed, there is no ETag to compute (the
  // answers are never cached) and node:http leaves the body out of HEAD answers by itself.
  const pieces =
    longList !== undefined && 'data' in outcome
      ? envelopePieces(family, res.locals.requestId, outcome.data, longList)
      : [JSON.stringify(envelope(family, res.locals.requestId, outcome))];
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  res.setHeader('Content-Length', length);
  for (const piece of pieces.slice(0, -1)) res.write(piece);
  res.end(pieces.at(-1));
}

/** Items of a long list per piece of the body: a statement's entries run to about 70 KB of JSON per piece. */
export const LIST_ITEMS_PER_PIECE = 200;

/**
 * The envelope's JSON text in pieces, the long list `listKey` of `data` (its last field) a few hundred items at a
 * time, so that no piece is one of V8's large objects (over 128 KB), which are allocated straight into the old
 * generation: a statement of thousands of entries as one string kept the heap, and RSS, 40 MB higher under load.
 * The pieces, joined, are exactly `JSON.stringify(envelope(family, requestId, { data }))`.
 */
export function envelopePieces(
  family: EnvelopeFamily,
  requestId: string,
  data: object,
  listKey: string,
  perPiece = LIST_ITEMS_PER_PIECE,
): string[] {
  const fields = data as Record<string, unknown>;
  const list = fields[listKey];
  const keys = Object.keys(fields);
  if (!Array.isArray(list) || keys.at(-1) !== listKey || list.length <= perPiece)
    return [JSON.stringify(envelope(family, requestId, { data }))];
  const whole = JSON.stringify(envelope(family, requestId, { data: { ...fields, [listKey]: [] } }));
  // The list is data's last field and data the envelope's first: its empty array is followed by the end of data.
  // The last match, since only primitives follow data, while an object inside data could end the same way.
  const empty = `${JSON.stringify(listKey)}:[]},"success":`;
  const at = whole.lastIndexOf(empty);
  if (at < 0) return [JSON.stringify(envelope(family, requestId, { data }))];
  const open = at + JSON.stringify(listKey).length + 2;
  const pieces = [whole.slice(0, open)];
  for (let start = 0; start < list.length; start += perPiece) {
    const items = JSON.stringify(list.slice(start, start + perPiece));
    pieces.push(start === 0 ? items.slice(1, -1) : `,${items.slice(1, -1)}`);
  }
  pieces.push(whole.slice(open));
  return pieces;
}
