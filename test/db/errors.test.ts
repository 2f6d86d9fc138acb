import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, translateDatabaseError } from '../../src/db/sql/errors.js';
import { isDomainError } from '../../src/domain/errors.js';

/** pg's own error for a SQLSTATE, as the driver raises it. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });
/** The same inside Prisma's P2010, as the pg adapter wraps a code it has no kind for. */
const prismaWrapped = (code: string, message: string) =>
  Object.assign(new Error(`Raw query failed. Code: \`${code}\`. Message: \`${message}\``), {
    code: 'P2010',
    meta: {
      driverAdapterError: Object.assign(new Error('postgres'), {
        cause: { kind: 'postgres', originalCode: code, originalMessage: message },
      }),
    },
  });

describe('database errors that become 503 SERVICE_UNAVAILABLE', () => {
  const unavailable: [string, string][] = [
    ['53100', 'could not extend file "base/16384/16400": No space left on device'],
    ['53200', 'out of memory'],
    ['53300', 'sorry, too many clients already'],
    ['53400', 'configuration limit exceeded'],
    ['58030', 'could not write to file "pg_wal/xlogtemp.123": No space left on device'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is in recovery mode'],
    ['25006', 'cannot execute INSERT in a read-only transaction'],
  ];

  it.each(unavailable)('SQLSTATE %s (%s), from pg and from inside Prisma', (code, message) => {
    for (const error of [pgError(code, message), prismaWrapped(code, message)]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      const translated = translateDatabaseError(error);
      expect(isDomainError(translated) && translated.code).toBe('SERVICE_UNAVAILABLE');
    }
  });

  it('leaves errors the request caused alone (unique violation, invalid input, other system errors)', () => {
    for (const code of ['23505', '22P02', '42P01', '58P01', '58000']) {
      expect(isDatabaseUnavailable(pgError(code, 'x'))).toBe(false);
      expect(isDatabaseUnavailable(prismaWrapped(code, 'x'))).toBe(false);
    }
  });
});
