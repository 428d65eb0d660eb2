// The one logger factory: JSON lines in production, pretty on a terminal, secrets redacted by path.
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import { CodedError } from '../util/coded-error.js';
import { isRecord } from '../util/json.js';

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
  'sentinelPassword',
  'redisUrl',
];

/** Top level and up to three levels deep. */
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]).concat([
  'req.headers.authorization',
  'req.headers["x-slack-signature"]',
  'headers.authorization',
  'headers["x-slack-signature"]',
]);

export type { Logger };

const REQUEST_ID = Symbol('requestId');

/** Not pino's `child()`, which redacts per child; a mixin adds it per written line (docs/decisions/002). */
export function withRequestId(logger: Logger, requestId: string): Logger {
  const child = logger.child({});
  Reflect.set(child, REQUEST_ID, requestId);
  return child;
}

/** Found on the logger or its parent (pino's children inherit). */
function requestIdLine(_line: object, _level: number, logger: Logger): object {
  const requestId: unknown = Reflect.get(logger, REQUEST_ID);
  return typeof requestId === 'string' ? { requestId } : {};
}

export interface LoggerSettings {
  level: string;
  pretty?: boolean;
  /** Tests pass a stream and parse the lines back. */
  destination?: DestinationStream;
  /** With tracing on: the trace_id and span_id each line carries. */
  traceFields?: () => object;
}

/** A failure outside the app (CodedError.outside) without stacks: one line, not a trace of our code. */
function serializeError(error: unknown): unknown {
  const serialized: unknown = pino.stdSerializers.errWithCause(error as Error);
  if (!(error instanceof CodedError) || !error.outside) return serialized;
  for (let node = serialized; isRecord(node); node = node.cause) delete node.stack;
  return serialized;
}

/** Chosen at creation: with tracing off, the lines pay for nothing of it. */
function withTraceFields(traceFields: () => object): NonNullable<LoggerOptions['mixin']> {
  return (line, level, logger) => ({ ...requestIdLine(line, level, logger), ...traceFields() });
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'cs-slack-gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError, error: serializeError },
    mixin: settings.traceFields ? withTraceFields(settings.traceFields) : requestIdLine,
  };
  if (settings.destination) return pino(options, settings.destination);
  if (settings.pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  return pino(options);
}
