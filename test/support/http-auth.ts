import type { TestService } from './service.js';

export const REALM = 'Bearer realm="customer-account-service"';

/** The WWW-Authenticate value RFC 6750 asks for, as both surfaces send it. */
export const challenge = (error: string, description: string, scope?: string) =>
  `${REALM}, error="${error}", error_description="${description}"${scope ? `, scope="${scope}"` : ''}`;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Rows of a table, optionally filtered by a WHERE clause of the caller's (tests only, fixed strings). */
export async function countRows(
  service: TestService,
  table: string,
  where = 'TRUE',
  params: unknown[] = [],
): Promise<number> {
  const { rows } = await service.database.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`,
    params,
  );
  return rows[0]!.n;
}
