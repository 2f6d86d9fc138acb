import createFetchClient, { type Client } from 'openapi-fetch';
import { apiErrorOf, CasGraphqlError } from './errors.js';
import { KEYED_WRITES } from './generated/operations.js';
import type { paths } from './generated/rest.js';
import { pages, type ListPath, type ListItem, type ListInit } from './pages.js';
import { type RetryOptions, retryingFetch, safeToRepeat } from './retry.js';

/** The header a write answers and a read presents for read-your-writes (docs/consistency.md). */
export const CONSISTENCY_TOKEN_HEADER = 'Consistency-Token';

export interface ClientOptions {
  /** The service's origin, e.g. `https://cas.example.com` (no environment). */
  baseUrl: string;
  /** The bearer token, or a function that returns the current one (e.g. a refreshed OIDC token). */
  token: string | (() => string | Promise<string>);
  /** The environment every call of this client works in, e.g. `sandbox`. */
  environment: string;
  /** Retries of 429 and 503 answers and of network errors, where safe (see retry.ts). */
  retry?: RetryOptions;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: (request: Request) => Promise<Response>;
}

/** A typed GraphQL document (src/generated/graphql.ts): the operation's text, typed by its result and variables. */
export interface TypedDocument<TResult, TVariables> {
  __apiType?: (variables: TVariables) => TResult;
  toString(): string;
}

export interface GraphqlOptions {
  /** Sent as the `idempotencyKey` variable when the document declares one and none is given; a new UUID by default. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface CasClient extends Pick<Client<paths>, 'GET' | 'POST' | 'PUT' | 'DELETE'> {
  readonly environment: string;
  /** The latest consistency token a write answered, sent with every following read (read-your-writes). */
  readonly consistencyToken: string | undefined;
  /** Every item of a list, page after page (`limit`, `after`, `nextAfter`), as an async iterator. */
  list<P extends ListPath>(path: P, init?: ListInit<P>): AsyncIterable<ListItem<P>>;
  /** A GraphQL operation in this environment; throws CasGraphqlError when the answer has errors. */
  graphql<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables>,
    variables: TVariables,
    options?: GraphqlOptions,
  ): Promise<TResult>;
  /** The same client in another environment (same token, retries and fetch; its own consistency token). */
  withEnvironment(environment: string): CasClient;
}

const newKey = (): string => globalThis.crypto.randomUUID();

/**
 * A client of one environment of the service: typed REST calls (openapi-fetch over the generated paths,
 * without the `/{environment}` prefix), bearer authentication, an Idempotency-Key on every write that takes one,
 * safe retries, read-your-writes, paged lists as async iterators and typed GraphQL documents.
 */
export function createClient(options: ClientOptions): CasClient {
  const origin = options.baseUrl.replace(/\/+$/, '');
  const base = `${origin}/${encodeURIComponent(options.environment)}`;
  const send = retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request)), options.retry);
  let consistencyToken: string | undefined;
  const bearer = async () => `Bearer ${typeof options.token === 'string' ? options.token : await options.token()}`;
  const remember = (response: Response) => {
    const token = response.headers.get(CONSISTENCY_TOKEN_HEADER);
    if (token !== null) consistencyToken = token;
  };

  const rest = createFetchClient<paths>({ baseUrl: base, fetch: (request) => send(request) });
  rest.use({
    async onRequest({ request, schemaPath }) {
      request.headers.set('Authorization', await bearer());
      if (KEYED_WRITES.has(`${request.method} ${schemaPath}`) && !request.headers.has('Idempotency-Key'))
        request.headers.set('Idempotency-Key', newKey());
      if (
        request.method === 'GET' &&
        consistencyToken !== undefined &&
        !request.headers.has(CONSISTENCY_TOKEN_HEADER)
      ) {
        request.headers.set(CONSISTENCY_TOKEN_HEADER, consistencyToken);
      }
      return request;
    },
    onResponse({ response }) {
      remember(response);
      return undefined;
    },
  });

  const client: CasClient = {
    environment: options.environment,
    get consistencyToken() {
      return consistencyToken;
    },
    GET: rest.GET,
    POST: rest.POST,
    PUT: rest.PUT,
    DELETE: rest.DELETE,
    list: (path, init) => pages(rest, path, init),
    async graphql(document, variables, graphqlOptions = {}) {
      const query = document.toString();
      const declaresKey = /\$idempotencyKey\b/.test(query);
      const given = (variables ?? {}) as Record<string, unknown>;
      const body =
        declaresKey && given.idempotencyKey === undefined
          ? { ...given, idempotencyKey: graphqlOptions.idempotencyKey ?? newKey() }
          : given;
      const headers = new Headers({
        Authorization: await bearer(),
        'Content-Type': 'application/json',
        Accept: 'application/graphql-response+json',
      });
      const isQuery = /^\s*(query\b|\{)/.test(query.replace(/^\s*#.*$/gm, ''));
      if (isQuery && consistencyToken !== undefined) headers.set(CONSISTENCY_TOKEN_HEADER, consistencyToken);
      const request = new Request(`${base}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, variables: body }),
        ...(graphqlOptions.signal && { signal: graphqlOptions.signal }),
      });
      // A query is safe to repeat; a mutation only with an idempotency key (declared, hence always sent).
      const response = await send(request, isQuery || declaresKey || safeToRepeat(request));
      remember(response);
      const answer = (await response.json().catch(() => undefined)) as
        { data?: TResultOf<typeof document>; errors?: CasGraphqlError['errors'] } | undefined;
      if (answer === undefined) throw apiErrorOf(response, undefined);
      if (answer.errors !== undefined && answer.errors.length > 0)
        throw new CasGraphqlError(response.status, answer.errors);
      return answer.data as never;
    },
    withEnvironment: (environment) => createClient({ ...options, environment }),
  };
  return client;
}

type TResultOf<D> = D extends TypedDocument<infer R, unknown> ? R : unknown;
