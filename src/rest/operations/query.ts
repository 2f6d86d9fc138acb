import type { z } from 'zod';
import { authorize } from '../../domain/authorization.js';
import type { AccessScope, Caller } from '../../domain/caller.js';
import { parseInput } from '../../domain/validation.js';

/** A request's query string: single-valued parameters (src/rest/router.ts keeps a repeated one's first value). */
export type QueryString = Readonly<Record<string, string>>;

/**
 * A REST operation's query string, parsed by the operation's schema into the typed filter and page its service
 * takes. The caller's scope is checked first (the domain checks it again): a caller without it is refused for
 * that, whatever the query, as before the query moved out of the services. VALIDATION_FAILED with a detail per
 * problem (parseInput), as the schema's published refusals say.
 */
export function parseQuery<T extends z.ZodType>(
  caller: Caller,
  scope: AccessScope,
  schema: T,
  query: Readonly<Record<string, unknown>>,
): z.output<T> {
  authorize(caller, scope);
  return parseInput(schema, query);
}
