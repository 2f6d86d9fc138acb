import express, { type Request, type Response } from 'express';
import { unsupportedMediaType } from './errors.js';

export type JsonBodyReader = (req: Request, res: Response) => Promise<unknown>;

/** A body is there when the client announced one: chunked, or a non-zero Content-Length. */
const announcesBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Reads a JSON request body with express.json (body-parser): size limit, UTF-8 only. Both surfaces call it
 * after authentication (REST in each endpoint, GraphQL before Apollo), so no unauthenticated caller makes
 * the service buffer a body. Its failures are classified by `bodyReadFailure` (src/http/errors.ts).
 *
 * - No body at all resolves to undefined; the domain then answers VALIDATION_FAILED ("must be a JSON object").
 * - A body of another media type is UNSUPPORTED_MEDIA_TYPE; `application/*+json` types are not accepted
 *   either, since each of them promises semantics (merge-patch, problem+json…) this API does not implement.
 * - Non-strict parsing: `42` or `"text"` are valid JSON, so they reach the domain and get its
 *   VALIDATION_FAILED, keeping MALFORMED_REQUEST for bodies that are not JSON at all.
 */
export function createJsonBodyReader(limitBytes: number): JsonBodyReader {
  const parse = express.json({ limit: limitBytes, strict: false, type: 'application/json' });
  return (req, res) => {
    if (!announcesBody(req)) return Promise.resolve(undefined);
    if (!req.is('application/json')) return Promise.reject(unsupportedMediaType());
    return new Promise((resolve, reject) => {
      parse(req, res, (error?: unknown) => (error === undefined ? resolve(req.body) : reject(error)));
    });
  };
}
