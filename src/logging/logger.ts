// The one logger factory: JSON lines in production, pretty on a terminal, secrets redacted by path.
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import { isCodedError } from '../util/coded-error.js';

const SECRET_KEYS = [
  'access_token',
  'accessToken',
  'token',
  'botToken',
  'appToken',
  'appKey',
  'sign',
  'secret',
  'signingSecret',
  'clientSecret',
  'authorization',
  'password',
  'redisUrl',
];

/** Redaction paths for a secret key at the top level and up to three levels deep. */
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]).concat([
  'req.headers.authorization',
  'req.headers["x-slack-signature"]',
  'headers.authorization',
  'headers["x-slack-signature"]',
]);

export type { Logger };

const REQUEST_ID = Symbol('requestId');

/**
 * `logger` whose every line carries `requestId`. Not pino's `child({ requestId })`: that runs every
 * redaction path over the binding when the child is made, once per event (2% of an answer's CPU,
 * measured), where this adds it, through the mixin, only to a line that is written.
 */
export function withRequestId(logger: Logger, requestId: string): Logger {
  const child = logger.child({});
  Reflect.set(child, REQUEST_ID, requestId);
  return child;
}

/** The request id of `withRequestId`, found on the logger or the one it is a child of (pino's children inherit). */
function requestIdLine(_line: object, _level: number, logger: Logger): object {
  const requestId: unknown = Reflect.get(logger, REQUEST_ID);
  return typeof requestId === 'string' ? { requestId } : {};
}

export interface LoggerSettings {
  level: string;
  /** Pretty output for people at a terminal; JSON lines otherwise. */
  pretty?: boolean;
  /** Where lines go; tests pass a stream and parse the lines back. */
  destination?: DestinationStream;
}

/**
 * pino's error with its cause chain; a failure outside the app (CodedError.outside: the platform erred
 * or did not answer) without stacks, so it is one line with its context, not a trace of our code.
 */
function serializeError(error: unknown): unknown {
  const serialized: unknown = pino.stdSerializers.errWithCause(error as Error);
  if (!isCodedError(error) || !error.outside) return serialized;
  for (let node = serialized; isRecord(node); node = node.cause) delete node.stack;
  return serialized;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'cs-slack-gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError, error: serializeError },
    mixin: requestIdLine,
  };
  if (settings.destination) return pino(options, settings.destination);
  if (settings.pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  return pino(options);
}
