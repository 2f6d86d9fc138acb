import type { NextFunction, Request, Response } from 'express';
import { type DocumentNode, Kind, parse, visit } from 'graphql';
import { SECRET_INPUT_FIELDS, SSN_QUERY_PARAMETERS, TAX_ID_QUERY_PARAMETERS } from '../features/customers/index.js';
import { ClientFacingError, GraphqlErrorCodes } from './error-mapping.js';

/**
 * GraphQL over GET carries its document and variables in the URL, and URLs land in the logs of every proxy
 * and load balancer on the way (the service's own access line carries the route pattern only,
 * src/http/request-logging.ts). A URL whose document or variables name a secret-bearing input field
 * (SECRET_INPUT_FIELDS, and the SSN parameter names REST refuses) is refused with SENSITIVE_FIELD_IN_URL
 * (400) before anything else runs: before the token is checked, before Apollo parses or executes it.
 *
 * The document is parsed and its arguments and input-object fields are read, so an output field or a
 * description that happens to carry such a name is no reason to refuse; the variables and extensions are
 * walked as JSON, every key at any depth. What cannot be parsed is left to Apollo, which refuses it without
 * executing anything. Mutations over GET need nothing here: Apollo answers them 405 (POST only).
 */
export const SENSITIVE_URL_NAMES: ReadonlySet<string> = new Set<string>([
  ...SECRET_INPUT_FIELDS,
  ...SSN_QUERY_PARAMETERS,
  ...TAX_ID_QUERY_PARAMETERS,
]);

/** The sensitive names a document uses as argument or input-object field names, in document order. */
export function sensitiveNamesInDocument(document: DocumentNode): string[] {
  const found: string[] = [];
  visit(document, {
    [Kind.ARGUMENT]: (node) => void (SENSITIVE_URL_NAMES.has(node.name.value) && found.push(node.name.value)),
    [Kind.OBJECT_FIELD]: (node) => void (SENSITIVE_URL_NAMES.has(node.name.value) && found.push(node.name.value)),
  });
  return found;
}

/** The sensitive names among the keys of a JSON value, at any depth (iterative: a URL can nest deeply). */
export function sensitiveNamesInJson(value: unknown): string[] {
  const found: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) pending.push(...(next as unknown[]));
    else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (SENSITIVE_URL_NAMES.has(key)) found.push(key);
        pending.push(item);
      }
    }
  }
  return found;
}

const single = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;

function parsedJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The sensitive names the URL's query string carries in `query`, `variables` or `extensions` (GraphQL over HTTP). */
export function sensitiveNamesInUrl(query: Record<string, unknown>, maxTokens: number): string[] {
  const names: string[] = [];
  const document = single(query.query);
  if (document !== undefined) {
    try {
      names.push(...sensitiveNamesInDocument(parse(document, { maxTokens, noLocation: true })));
    } catch {
      // Not a document: Apollo refuses it (GRAPHQL_PARSE_FAILED, redacted) without executing anything.
    }
  }
  for (const parameter of ['variables', 'extensions'])
    names.push(...sensitiveNamesInJson(parsedJson(single(query[parameter]))));
  // Every name found is one of the fixed set above: safe to repeat.
  return [...new Set(names)];
}

export const sensitiveFieldInUrl = (names: readonly string[]) =>
  new ClientFacingError(
    `${names.join(', ')} must not travel in a URL, where proxies and load balancers log it: send this operation as a POST with a JSON body (the values as variables).`,
    { code: GraphqlErrorCodes.sensitiveFieldInUrl, httpStatus: 400 },
  );

/** Express middleware for the GraphQL path: refuses a URL carrying a sensitive input field, with `send`. */
export function refuseSensitiveFieldsInUrl(
  maxTokens: number,
  send: (req: Request, res: Response, error: ClientFacingError) => void,
) {
  return (req: Request, res: Response, next: NextFunction) => {
    // Only a URL with a query string can carry anything: a POST's body is not looked at here.
    if (!req.url.includes('?')) {
      next();
      return;
    }
    const names = sensitiveNamesInUrl(req.query as Record<string, unknown>, maxTokens);
    if (names.length > 0) send(req, res, sensitiveFieldInUrl(names));
    else next();
  };
}
