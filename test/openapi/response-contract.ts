import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument, openApiPath, type OpenApiDocument } from '../../src/openapi/document.js';
import { REST_ROUTES } from '../../src/rest/routes.js';

/**
 * Checks a response the test suite received against the OpenAPI document: when the method and path are
 * a documented REST operation, the status must be documented for it, the body must validate against the
 * schema of that status (JSON Schema 2020-12, with formats), and every required response header must be
 * there. test/support/service.ts runs it on every call, so the whole REST suite exercises the document.
 */

// ajv-formats is CommonJS (`module.exports = plugin`, plus `.default`); NodeNext types see only the namespace.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

const DOCUMENT_ID = 'urn:customer-account-service:openapi';

interface DocumentedOperation {
  method: string;
  pattern: RegExp;
  template: string;
}

interface Contract {
  document: OpenApiDocument;
  operations: DocumentedOperation[];
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

let contract: Contract | undefined;

function load(): Contract {
  if (contract) return contract;
  const document = buildOpenApiDocument();
  // The document is registered whole, so `#/components/...` references resolve inside it; the keywords
  // that are not JSON Schema (paths, info, …) are ignored rather than refused.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const operations = REST_ROUTES.map((route) => ({
    method: route.method,
    template: openApiPath(route.path),
    // Express matches one optional trailing slash (strict routing off) and no slash inside a parameter.
    pattern: new RegExp(`^${route.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
  }));
  contract = { document, operations, ajv, validators: new Map() };
  return contract;
}

const pointer = (...segments: string[]) =>
  segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * Where an operation's response is: its own place, or the shared response it references
 * (`#/components/responses/<name>`), as JSON pointer segments.
 */
function responseLocation(
  document: OpenApiDocument,
  template: string,
  method: string,
  status: string,
): string[] | undefined {
  const response = document.paths[template]?.[method]?.responses[status];
  if (response === undefined) return undefined;
  const reference = response.$ref;
  if (typeof reference !== 'string') return ['paths', template, method, 'responses', status];
  const name = /^#\/components\/responses\/([^/]+)$/.exec(reference)?.[1];
  if (name === undefined)
    throw new Error(`${method.toUpperCase()} ${template} ${status} references ${reference}, not a shared response`);
  return ['components', 'responses', name];
}

/** The response an operation documents for a status, its reference resolved. */
export function documentedResponse(
  document: OpenApiDocument,
  template: string,
  method: string,
  status: string,
): Record<string, unknown> | undefined {
  const location = responseLocation(document, template, method, status);
  return (
    location &&
    (location.reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], document) as
      Record<string, unknown> | undefined)
  );
}

function validatorFor(loaded: Contract, template: string, method: string, status: string): ValidateFunction {
  const key = `${method} ${template} ${status}`;
  let validate = loaded.validators.get(key);
  if (!validate) {
    const location = responseLocation(loaded.document, template, method, status)!;
    validate = loaded.ajv.compile({
      $ref: `${DOCUMENT_ID}#/${pointer(...location, 'content', 'application/json', 'schema')}`,
    });
    loaded.validators.set(key, validate);
  }
  return validate;
}

function resolveHeader(document: OpenApiDocument, header: Record<string, unknown>): Record<string, unknown> {
  const reference = header.$ref;
  if (typeof reference !== 'string') return header;
  const name = reference.replace('#/components/headers/', '');
  return ((document.components as Record<string, Record<string, Record<string, unknown>>>).headers ?? {})[name] ?? {};
}

/** Throws when a response to a documented operation does not match the document. */
export function assertDocumentedResponse(
  method: string,
  pathWithQuery: string,
  status: number,
  headers: Headers,
  text: string,
): void {
  const loaded = load();
  const pathname = pathWithQuery.split('?', 1)[0]!;
  const operation = loaded.operations.find(
    (candidate) => candidate.method === method.toUpperCase() && candidate.pattern.test(pathname),
  );
  if (!operation) return;
  const where = `${method} ${pathname} (${operation.method} ${operation.template}) answered ${status}`;
  const documented = documentedResponse(
    loaded.document,
    operation.template,
    operation.method.toLowerCase(),
    String(status),
  );
  if (!documented) throw new Error(`${where}, a status the OpenAPI document does not list for this operation`);

  for (const [name, header] of Object.entries((documented.headers ?? {}) as Record<string, Record<string, unknown>>)) {
    if (resolveHeader(loaded.document, header).required === true && !headers.has(name)) {
      throw new Error(`${where} without the ${name} header the OpenAPI document requires`);
    }
  }
  // A documented answer without content (a conditional GET's 304) has no body.
  if (documented.content === undefined) {
    if (text !== '') throw new Error(`${where} with a body, where the OpenAPI document describes none`);
    return;
  }
  const mediaType = (headers.get('content-type') ?? '').split(';', 1)[0]!.trim();
  if (mediaType !== 'application/json') {
    // Another representation the operation documents (a statement as CSV or PDF, the NDJSON export): its body is not JSON.
    const content = (documented as { content?: Record<string, unknown> }).content ?? {};
    if (mediaType in content) return;
    throw new Error(
      `${where} with Content-Type ${headers.get('content-type')}, not one the OpenAPI document lists (${Object.keys(content).join(', ')})`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${where} with a body that is not JSON`);
  }
  const validate = validatorFor(loaded, operation.template, operation.method.toLowerCase(), String(status));
  if (!validate(body)) {
    // ajv's messages name the location and the rule, never the value.
    const problems = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');
    throw new Error(`${where} with a body that does not match the documented schema: ${problems}`);
  }
}
