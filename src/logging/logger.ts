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
  // A business's tax id (docs/adr/0090), sealed as an SSN is.
  'taxId',
  '*.taxId',
  '*.*.taxId',
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

let isoMillisecond = Number.NaN;
let isoField = '';
/**
 * pino.stdTimeFunctions.isoTime, formatted once per millisecond: a busy instance writes several lines in the
 * same millisecond, and each would format the same date again.
 */
export function isoTime(): string {
  const now = Date.now();
  if (now !== isoMillisecond) {
    isoMillisecond = now;
    isoField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoField;
}

export function createLogger(options: LoggerOptions): Logger {
  const base = {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    base: { service: 'customer-account-service' },
    timestamp: isoTime,
  };
  if (options.destination) return withRedactionFastPath(pino(base, options.destination));
  if (options.pretty)
    return withRedactionFastPath(
      pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } }),
    );
  return withRedactionFastPath(pino(base, batchedStdout()));
}

/**
 * stdout, written synchronously in batches. A batch goes when it holds STDOUT_BATCH_BYTES, or at the latest
 * after STDOUT_FLUSH_MS, and what is left is written when the process exits (process.exit, a handled signal
 * that exits, an uncaught error). Synchronous, because an asynchronous write still in the thread pool when the
 * process exits lands after the lines the exit flush writes, or not at all (sonic-boom's flushSync skips the
 * write in flight): the last lines before a crash are the ones that must come out, and in order. One stdout per
 * process, so one exit listener: main creates this logger once.
 */
function batchedStdout(): pino.DestinationStream {
  const stream = pino.destination({
    dest: 1,
    sync: true,
    minLength: STDOUT_BATCH_BYTES,
    periodicFlush: STDOUT_FLUSH_MS,
  });
  process.once('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // An ended or broken stdout takes nothing more, and there is nowhere left to say so: throwing in an exit
      // listener would only replace the process's exit code.
    }
  });
  return stream;
}

/**
 * Lines to stdout go out in batches: pino's default destination writes each line on its own, and a busy
 * instance's access lines then cost a write each. What a SIGKILL or a V8 out-of-memory abort can lose grows
 * from the line being written to at most this window's lines: the records that matter (audit trail,
 * events) are in the database, in the transaction of the change. docs/adr/0077-access-log-batching.md.
 */
const STDOUT_BATCH_BYTES = 4096;
const STDOUT_FLUSH_MS = 100;

/** The wildcard-first paths; the fast path below understands `*.x` and `*.*.x` only, and stays off for any other. */
const WILDCARD_FIRST_PATHS = REDACTED_PATHS.filter((p) => p.startsWith('*'));
const FAST_PATH_UNDERSTANDS_PATHS = WILDCARD_FIRST_PATHS.every((p) => /^\*\.(\*\.)?[^.*[\]]+$/.test(p));
/** The keys the wildcard-first paths (`*.x`, `*.*.x`) end in, one level below a top-level value, and two levels. */
const WILDCARD_CHILD_KEYS = new Set(REDACTED_PATHS.filter((p) => /^\*\.[^.*]+$/.test(p)).map((p) => p.slice(2)));
const WILDCARD_GRANDCHILD_KEYS = new Set(
  REDACTED_PATHS.filter((p) => /^\*\.\*\.[^.*]+$/.test(p)).map((p) => p.slice(4)),
);

/** Whether redacting `value` with the wildcard-first paths could change anything (for...in: inherited keys count too). */
function mayHoldRedactedPath(value: object): boolean {
  for (const key in value) {
    if (WILDCARD_CHILD_KEYS.has(key)) return true;
    const inner = (value as Record<string, unknown>)[key];
    if (typeof inner === 'object' && inner !== null)
      for (const innerKey in inner) if (WILDCARD_GRANDCHILD_KEYS.has(innerKey)) return true;
  }
  return false;
}

/**
 * Pino runs the redaction of the wildcard-first paths (`*.authorization`, …) on every value of every line
 * and binding, primitives included, and @pinojs/redact parses each path again on each call: a request's
 * access line cost more in redaction than in the rest of pino. The same function is kept for the values it
 * could change and skipped for the others (a primitive, or an object with none of the paths' keys where they
 * would be), whose serialisation it leaves as it is: the lines are byte for byte the same
 * (test/logging/logger.test.ts). `pino.symbols` is pino's documented door for such integrations; a pino
 * without that slot is left as it is.
 */
function withRedactionFastPath(logger: Logger): Logger {
  type Stringify = (value: unknown, safe?: unknown) => string;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stringifiers = internals[pino.symbols.stringifiersSym] as Record<symbol, unknown> | undefined;
  const stringify = internals[pino.symbols.stringifySym];
  const wildcardSym = (pino.symbols as Record<string, symbol | undefined>).wildcardFirstSym;
  if (
    !FAST_PATH_UNDERSTANDS_PATHS ||
    !stringifiers ||
    !wildcardSym ||
    typeof stringify !== 'function' ||
    typeof stringifiers[wildcardSym] !== 'function'
  )
    return logger;
  const redact = stringifiers[wildcardSym] as Stringify;
  stringifiers[wildcardSym] = (value: unknown, safe?: unknown) =>
    typeof value === 'object' && value !== null && mayHoldRedactedPath(value)
      ? redact(value, safe)
      : (stringify as Stringify)(value, safe);
  return logger;
}

const LEVEL_METHODS = new Set<PropertyKey>(['fatal', 'error', 'warn', 'info', 'debug', 'trace']);
const noop = () => undefined;
/** Keys pino leaves out of a child's bindings (asChindings). */
const NOT_BINDINGS = new Set(['level', 'serializers', 'formatters', 'customLevels']);
/** Integer-like keys come first in an object's key order, so merging would move them. */
const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

/**
 * Whether `parent.<level>({ ...bindings, ...object }, ...rest)` writes the line `parent.child(bindings)` would
 * write for `(object, ...rest)`: pino writes a child's bindings, then the object's keys, each through the same
 * serialisers and redaction, so it does for a plain object that repeats no binding and has no integer-like key.
 */
function mergesInto(bindings: pino.Bindings, object: unknown): object is Record<string, unknown> {
  if (typeof object !== 'object' || object === null) return false;
  const prototype: unknown = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in object) if (Object.hasOwn(bindings, key) || INDEX_LIKE.test(key)) return false;
  return true;
}

/**
 * `parent.child(bindings)`, made only when it must be. Per-request loggers are created on every request,
 * most write nothing but the access line, and pino's child() is not free (the bindings are serialised and
 * redacted at creation): a line with a plain object is written by the parent with the bindings merged in,
 * byte for byte the child's line (test/logging/logger.test.ts), and anything else makes the child. Children
 * of a deferred child stay deferred, with the bindings merged, as pino would merge them.
 */
export function deferredChild(parent: Logger, bindings: pino.Bindings): Logger {
  let child: Logger | undefined;
  const real = () => (child ??= parent.child(bindings));
  const mergeable = Object.keys(bindings).every((key) => !NOT_BINDINGS.has(key) && !INDEX_LIKE.test(key));
  return new Proxy(parent, {
    get(_target, property) {
      if (LEVEL_METHODS.has(property) && child === undefined) {
        const level = property as pino.Level;
        if (!parent.isLevelEnabled(level)) return noop;
        if (mergeable) {
          return (first: unknown, ...rest: unknown[]) => {
            if (child === undefined && mergesInto(bindings, first))
              (parent[level] as (...args: unknown[]) => void)({ ...bindings, ...first }, ...rest);
            else (real()[level] as (...args: unknown[]) => void)(first, ...rest);
          };
        }
      }
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
