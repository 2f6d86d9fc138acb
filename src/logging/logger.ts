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
