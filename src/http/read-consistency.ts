import type { RequestHandler } from 'express';
import type { ReadConsistency } from './dependencies.js';

/** Request header of a read that must see a write; response header of a write (REST and GraphQL alike). */
export const CONSISTENCY_TOKEN_HEADER = 'Consistency-Token';

/**
 * Opens each request's read scope: a GET (or HEAD) only reads, so its reads may go to the replica; any other
 * method may write, so everything it does stays on the primary. GraphQL's POSTs are decided by the operation
 * (src/graphql/consistency.ts).
 */
export function readScope(consistency: ReadConsistency): RequestHandler {
  return (req, _res, next) =>
    consistency.run(
      { lagTolerant: req.method === 'GET' || req.method === 'HEAD', presentedToken: req.get(CONSISTENCY_TOKEN_HEADER) },
      next,
    );
}
