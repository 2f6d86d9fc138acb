import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths pino blanks out wherever they appear in a log object. The service never logs request bodies
 * or headers wholesale; this is the second line of defence if someone adds such a line.
 */
export const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'headers.authorization',
  'token',
  '*.token',
  'socialSecurityNumber',
  '*.socialSecurityNumber',
  '*.*.socialSecurityNumber',
  'documentLocatorNumber',
  '*.documentLocatorNumber',
  '*.*.documentLocatorNumber',
  'body',
  '*.body',
  'variables',
  '*.variables',
];

export interface LoggerOptions {
  level: string;
  pretty: boolean;
  /** Where lines go; tests pass a stream to capture them. Defaults to stdout. */
  destination?: pino.DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const base = {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    base: { service: 'customer-account-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } });
  return pino(base);
}

const LEVEL_METHODS = new Set<PropertyKey>(['fatal', 'error', 'warn', 'info', 'debug', 'trace']);
const noop = () => undefined;

/**
 * `parent.child(bindings)`, made only when a line is actually written. Per-request loggers are created
 * on every request but most write nothing above the configured level, and pino's child() is not free
 * (the bindings are serialised and redacted at creation). Children of a deferred child stay deferred,
 * with the bindings merged, as pino would merge them.
 */
export function deferredChild(parent: Logger, bindings: pino.Bindings): Logger {
  let child: Logger | undefined;
  const real = () => (child ??= parent.child(bindings));
  return new Proxy(parent, {
    get(_target, property) {
      if (LEVEL_METHODS.has(property) && child === undefined && !parent.isLevelEnabled(property as pino.Level)) return noop;
      if (property === 'child' && child === undefined) {
        return (more: pino.Bindings, options?: pino.ChildLoggerOptions) =>
          options === undefined ? deferredChild(parent, { ...bindings, ...more }) : real().child(more, options);
      }
      const instance = real();
      const value: unknown = Reflect.get(instance, property, instance);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(instance) : value;
    },
  });
}
