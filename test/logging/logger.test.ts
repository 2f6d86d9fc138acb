import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, deferredChild, isoTime, REDACTED_PATHS } from '../../src/logging/logger.js';

/** Every line a logger writes, as text; the time is fixed so two loggers' lines can be compared byte for byte. */
function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, destination };
}

const fixedTime = () => ',"time":"2026-11-26T00:00:00.000Z"';

/** What pino itself writes with the service's redaction and none of its shortcuts. */
function reference(destination: pino.DestinationStream) {
  return pino(
    {
      level: 'info',
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      base: { service: 'customer-account-service' },
      timestamp: fixedTime,
    },
    destination,
  );
}

function service(destination: pino.DestinationStream) {
  const logger = createLogger({ level: 'info', pretty: false, destination });
  // The same timestamp as the reference (createLogger's is the wall clock).
  (logger as unknown as Record<symbol, unknown>)[pino.symbols.timeSym] = fixedTime;
  return logger;
}

class BadRequest extends Error {
  body = '{"socialSecurityNumber":"123-45-6789"}';
  status = 400;
}

const SSN = '123-45-6789';
const objects: Array<Record<string, unknown>> = [
  { method: 'GET', route: '/:environment/account/:accountId', status: 200, latencyMs: 1.3 },
  { count: 3, ok: true, nothing: null, gone: undefined, list: [1, 'two', { three: 3 }], when: new Date(0) },
  { authorization: 'Bearer secret', token: 'secret', body: { socialSecurityNumber: SSN }, variables: { a: 1 } },
  { req: { headers: { authorization: 'Bearer secret', accept: '*/*' } }, headers: { authorization: 'x' } },
  { input: { socialSecurityNumber: SSN, name: 'Alex' }, nested: { deeper: { documentLocatorNumber: 12345678901 } } },
  { items: [{ socialSecurityNumber: SSN }, { token: 't' }], plain: { a: { b: { note: 'three levels down' } } } },
  { err: new BadRequest('Unexpected token') },
  { err: new Error('plain'), caller: { authorization: 'Bearer x', id: 'static:1' } },
  { unicode: 'é \u0000 "quoted" \\ \ud800', emoji: '🙂' },
];

describe('the service logger', () => {
  it('writes every line byte for byte as pino with the same redaction paths does', () => {
    const mine = capture();
    const theirs = capture();
    const loggers = [service(mine.destination), reference(theirs.destination)];
    for (const logger of loggers) {
      for (const object of objects) logger.info(object, 'a line');
      logger.info('only a message');
      const child = logger.child({ requestId: 'req-1', input: { socialSecurityNumber: SSN } });
      child.warn({ status: 404 }, 'child line');
      child.child({ token: 'secret', environment: 'sandbox' }).error({ body: 'raw' }, 'grandchild line');
    }
    expect(mine.lines.length).toBe(objects.length + 3);
    expect(mine.lines).toEqual(theirs.lines);
    // The comparison compares something: the sensitive values are blanked in both.
    expect(mine.lines.join('\n')).not.toContain(SSN);
    expect(mine.lines.join('\n')).not.toContain('12345678901');
    expect(mine.lines.join('\n')).not.toContain('Bearer');
    expect(mine.lines.filter((line) => line.includes('[REDACTED]')).length).toBeGreaterThanOrEqual(8);
  });

  it('writes through a deferred per-request child exactly what the child itself writes', () => {
    const mine = capture();
    const theirs = capture();
    const bindings = { requestId: 'req-3', principal: 'static:abc', environment: 'sandbox' };
    const error = new BadRequest('an error first');
    const write = (logger: ReturnType<typeof createLogger>) => {
      logger.info(
        { method: 'GET', route: '/:environment/account/:accountId', status: 200, latencyMs: 2.5 },
        'request completed',
      );
      logger.warn({ requestId: 'theirs', detail: 1 }, 'a binding repeated');
      logger.info({ 7: 'an integer-like key', body: { socialSecurityNumber: SSN } }, 'keys reordered by merging');
      logger.error(error);
      logger.info('a message with %s', 'an argument');
      logger.info({ input: { socialSecurityNumber: SSN } }, 'after the child was made');
    };
    write(
      deferredChild(deferredChild(service(mine.destination), { requestId: 'req-3' }), {
        principal: 'static:abc',
        environment: 'sandbox',
      }),
    );
    write(service(theirs.destination).child(bindings));
    expect(mine.lines).toHaveLength(6);
    expect(mine.lines).toEqual(theirs.lines);
    expect(mine.lines.join('\n')).not.toContain(SSN);
  });

  it('keeps the redaction in deferred per-request children', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', pretty: false, destination });
    const perRequest = deferredChild(logger, { requestId: 'req-2' });
    perRequest.info({ body: { socialSecurityNumber: SSN }, route: '/x' }, 'request completed');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ requestId: 'req-2', body: '[REDACTED]', route: '/x', msg: 'request completed' });
  });

  describe('the time of a line', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("is pino's ISO time, formatted again when the millisecond changes", () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-26T10:00:00.123Z'));
      expect(isoTime()).toBe(pino.stdTimeFunctions.isoTime());
      expect(isoTime()).toBe(',"time":"2026-11-26T10:00:00.123Z"');
      vi.setSystemTime(new Date('2026-11-26T10:00:00.124Z'));
      expect(isoTime()).toBe(',"time":"2026-11-26T10:00:00.124Z"');
      vi.setSystemTime(new Date('2027-01-01T00:00:00.124Z'));
      expect(isoTime()).toBe(pino.stdTimeFunctions.isoTime());
    });
  });
});
