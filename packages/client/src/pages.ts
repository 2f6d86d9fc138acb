import type { Client } from 'openapi-fetch';
import { unwrap } from './errors.js';
import type { paths } from './generated/rest.js';

type GetOperation<P extends keyof paths> = NonNullable<paths[P]['get']>;
type QueryOf<P extends keyof paths> =
  GetOperation<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathParamsOf<P extends keyof paths> = GetOperation<P> extends { parameters: { path?: infer A } } ? A : never;

/** The paths whose GET is a paged list (it takes `limit`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { parameters: { query?: infer Q } } }
    ? 'limit' extends keyof NonNullable<Q>
      ? P
      : never
    : never;
}[keyof paths];

type PageData<P extends ListPath> =
  GetOperation<P> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

/** An item of the list at P: the element type of the page's one array. */
export type ListItem<P extends ListPath> = {
  [K in keyof PageData<P>]: PageData<P>[K] extends readonly (infer I)[] ? I : never;
}[keyof PageData<P>];

/** The list's filters and page size (not `after`: the iterator moves it), and the path's parameters. */
export type ListInit<P extends ListPath> = {
  query?: Omit<QueryOf<P>, 'after'> & { after?: QueryOf<P> extends { after?: infer A } ? A : never };
} & ([PathParamsOf<P>] extends [never | undefined] ? { path?: never } : { path: PathParamsOf<P> });

/**
 * Every item of a list, fetching the next page only when the previous one is consumed. Stops when `nextAfter`
 * is null or absent, or names the cursor just used (the events feed's "nothing newer yet"), or a page is empty.
 */
export async function* pages<P extends ListPath>(
  rest: Client<paths>,
  path: P,
  init?: ListInit<P>,
): AsyncGenerator<ListItem<P>> {
  const query: Record<string, unknown> = { ...(init?.query as Record<string, unknown> | undefined) };
  for (;;) {
    const call = (
      rest.GET as (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>
    )(path, {
      params: { path: init?.path, query },
    });
    const page = (await unwrap(call)) as Record<string, unknown>;
    const items = Object.values(page).find((value): value is unknown[] => Array.isArray(value)) ?? [];
    for (const item of items) yield item as ListItem<P>;
    const next = page.nextAfter;
    if (next === null || next === undefined || items.length === 0 || String(next) === String(query.after)) return;
    query.after = next;
  }
}
