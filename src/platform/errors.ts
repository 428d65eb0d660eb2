// The platform client's errors: each class has a literal `code`, so `switch (error.code)` narrows the union.
import { CodedError } from '../util/coded-error.js';

type PlatformErrorCode =
  | 'PLATFORM_REQUEST_INVALID'
  | 'PLATFORM_TRANSPORT'
  | 'PLATFORM_HTTP_STATUS'
  | 'PLATFORM_CODE'
  | 'PLATFORM_MALFORMED_RESPONSE'
  | 'PLATFORM_TOKEN'
  | 'PLATFORM_BUSY';

export type TransportFailure = 'connect' | 'timeout' | 'reset' | 'aborted' | 'other';

abstract class PlatformFailure extends CodedError<PlatformErrorCode> {
  override readonly outside: boolean = true;

  constructor(
    /** The operation that failed: an open-platform `action` or a ticket endpoint name. */
    readonly action: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The caller's request broke a rule of the spec; it was never sent. */
export class RequestInvalidError extends PlatformFailure {
  readonly code = 'PLATFORM_REQUEST_INVALID' as const;
  // Our request broke the spec: a bug of ours, whose stack says where.
  override readonly outside = false;

  constructor(
    action: string,
    readonly field: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(action, `${action}: invalid request field "${field}": ${reason}`, options);
  }
}

/** No HTTP answer came back: connection refused, timed out, reset or aborted. */
export class TransportError extends PlatformFailure {
  readonly code = 'PLATFORM_TRANSPORT' as const;

  constructor(
    action: string,
    readonly failure: TransportFailure,
    /** True when the request never reached the platform, so a retry cannot repeat a side effect. */
    readonly beforeRequestSent: boolean,
    options?: { cause?: unknown },
  ) {
    super(action, `${action}: transport failure (${failure})`, options);
  }
}

/** The platform answered with a non-2xx HTTP status. */
export class HttpStatusError extends PlatformFailure {
  readonly code = 'PLATFORM_HTTP_STATUS' as const;
  /** How long the platform asked to wait before another call (a 429's or 503's Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(
    action: string,
    readonly status: number,
    /** The start of the response body, for logs. */
    readonly bodySnippet: string,
    options?: { cause?: unknown; retryAfterMs?: number | undefined },
  ) {
    super(action, `${action}: HTTP ${status}`, options);
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** The platform answered, and its answer was "no": a non-success `code`, `retCode` or `data.status`. */
export class PlatformCodeError extends PlatformFailure {
  readonly code = 'PLATFORM_CODE' as const;

  constructor(
    action: string,
    /** The code the platform returned, e.g. "1001", "1002", or a knowledge-update retCode. */
    readonly platformCode: string,
    readonly platformMessage?: string,
    options?: { cause?: unknown },
  ) {
    super(
      action,
      `${action}: platform returned code ${platformCode}${platformMessage ? ` (${platformMessage})` : ''}`,
      options,
    );
  }
}

/** The platform answered 2xx with a body that is not the JSON the spec describes. */
export class MalformedResponseError extends PlatformFailure {
  readonly code = 'PLATFORM_MALFORMED_RESPONSE' as const;

  constructor(
    action: string,
    /** What was wrong, without any of the body: "body is not JSON", "data.item: ...". */
    readonly detail: string,
    readonly bodySnippet: string,
    options?: { cause?: unknown },
  ) {
    super(action, `${action}: malformed response: ${detail}`, options);
  }
}

/** The access token could not be obtained or renewed. */
export class AccessTokenError extends PlatformFailure {
  readonly code = 'PLATFORM_TOKEN' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super('getAccessToken', message, options);
  }
}

/** Why a question was not sent: its account's queue was full, or its turn would come past its deadline. */
export type BusyReason = 'queue_full' | 'deadline';

/** A question to an account over PLATFORM_QUESTION_RATE that could not be sent in time; never sent. */
export class PlatformBusyError extends PlatformFailure {
  readonly code = 'PLATFORM_BUSY' as const;

  constructor(
    action: string,
    readonly reason: BusyReason,
  ) {
    super(action, `${action}: not sent, over the platform question rate (${reason})`);
  }
}

export type PlatformError =
  | RequestInvalidError
  | TransportError
  | HttpStatusError
  | PlatformCodeError
  | MalformedResponseError
  | AccessTokenError
  | PlatformBusyError;

export function isPlatformError(error: unknown): error is PlatformError {
  return error instanceof PlatformFailure;
}

/** A failed call as the person it reaches tells it apart; one kit table words each kind. */
export type PlatformFailureKind =
  | 'refused'
  | 'unavailable'
  | 'malformed'
  | 'timeout'
  | 'unreachable'
  | 'busy';

export function platformFailureKind(error: PlatformError): PlatformFailureKind {
  switch (error.code) {
    case 'PLATFORM_CODE':
    case 'PLATFORM_REQUEST_INVALID':
      return 'refused';
    case 'PLATFORM_TRANSPORT':
      return error.failure === 'timeout' ? 'timeout' : 'unreachable';
    case 'PLATFORM_HTTP_STATUS':
      return 'unavailable';
    case 'PLATFORM_MALFORMED_RESPONSE':
      return 'malformed';
    case 'PLATFORM_BUSY':
      return 'busy';
    case 'PLATFORM_TOKEN': {
      // As its token call failed; a token refused (the gateway's credentials) refused the person nothing.
      const cause = isPlatformError(error.cause) ? platformFailureKind(error.cause) : 'unavailable';
      return cause === 'refused' ? 'unavailable' : cause;
    }
  }
}

/** The code the platform uses when the access token failed its check. */
export const TOKEN_REJECTED_CODE = '1002';
