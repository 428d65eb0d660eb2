// JSON-over-POST through an undici dispatcher, turning every wire failure into one of our error classes.
import { Agent, type Dispatcher, request } from 'undici';
import { retryAfterMs as retryAfterMsOf } from '../util/retry-after.js';
import { wellFormedJson } from '../util/well-formed.js';
import { HttpStatusError, MalformedResponseError, TransportError, type TransportFailure } from './errors.js';

export interface TransportTimeouts {
  /** Applies to the dispatcher the transport creates itself. */
  connectMs: number;
  /** From writing the request until the response headers arrive. */
  headersMs: number;
  /** Between two chunks of the response body. */
  bodyMs: number;
}

export interface JsonTransportOptions {
  /** The transport never closes it. */
  dispatcher?: Dispatcher;
  timeouts: TransportTimeouts;
  /** Tests pass a short one. */
  keepAliveTimeoutMs?: number;
  /** The platform never sends anything close to it. */
  maxResponseBytes?: number;
}

/** `snippet` is the start of the raw text, for errors and logs. */
export interface JsonResponse {
  status: number;
  body: unknown;
  readonly snippet: string;
}

const SNIPPET_LENGTH = 300;
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 4_000;

/** `secret` (the access token, should a platform echo it) blanked. */
function snippetOf(text: string, secret?: string): string {
  const start = text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}…` : text;
  return secret && start.includes(secret) ? start.replaceAll(secret, '[redacted]') : start;
}

export class JsonTransport {
  readonly #dispatcher: Dispatcher;
  readonly #owned: Agent | undefined;
  readonly #timeouts: TransportTimeouts;
  readonly #maxResponseBytes: number;

  constructor(options: JsonTransportOptions) {
    this.#timeouts = options.timeouts;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher;
      this.#owned = undefined;
    } else {
      // One keep-alive pool per origin; `keepAliveTimeoutMs` applies when the server sends no Keep-Alive hint.
      const keepAliveTimeoutMs = options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_MS;
      this.#owned = new Agent({
        keepAliveTimeout: keepAliveTimeoutMs,
        keepAliveMaxTimeout: Math.max(keepAliveTimeoutMs, 60_000),
        headersTimeout: options.timeouts.headersMs,
        bodyTimeout: options.timeouts.bodyMs,
        connect: { timeout: options.timeouts.connectMs },
      });
      this.#dispatcher = this.#owned;
    }
  }

  /** `secret` never appears in an error's snippet, even if the answer echoes it. */
  async postJson(
    action: string,
    url: string,
    body: unknown,
    options: { signal?: AbortSignal | undefined; secret?: string } = {},
  ): Promise<JsonResponse> {
    const { signal, secret } = options;
    // JSON.stringify would escape a lone surrogate as \ud83d, which the platform decodes into one.
    const payload = wellFormedJson(body);
    let text: string;
    let status: number;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await request(url, {
        dispatcher: this.#dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: payload,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
        ...(signal ? { signal } : {}),
      });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      text = await readText(response.body, this.#maxResponseBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw new MalformedResponseError(action, error.message, snippetOf(error.partial, secret), {
          cause: error,
        });
      }
      throw toTransportError(action, error, signal);
    }

    if (status < 200 || status >= 300) {
      const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
      const retryAfterMs = retryAfterMsOf(header, Date.now());
      throw new HttpStatusError(action, status, snippetOf(text, secret), { retryAfterMs });
    }
    if (text.trim() === '') throw new MalformedResponseError(action, 'empty body', snippetOf(text, secret));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON.parse's error as the cause: its message quotes the body, which may echo the secret.
      throw new MalformedResponseError(action, 'body is not JSON', snippetOf(text, secret));
    }
    // Only an answer that fails its schema needs the snippet: none is cut for the rest.
    return {
      status,
      body: parsed,
      get snippet() {
        return snippetOf(text, secret);
      },
    };
  }

  /** A dispatcher passed in belongs to its owner. */
  async close(): Promise<void> {
    if (this.#owned && !this.#owned.closed) await this.#owned.close();
  }
}

class BodyTooLargeError extends Error {
  constructor(
    limit: number,
    readonly partial: string,
  ) {
    super(`body exceeds ${limit} bytes`);
  }
}

async function readText(body: AsyncIterable<Buffer | Uint8Array>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    chunks.push(buffer);
    if (size > limit) {
      // Leaving the loop destroys the stream, so the connection is not reused with unread bytes.
      throw new BodyTooLargeError(
        limit,
        Buffer.concat(chunks)
          .subarray(0, SNIPPET_LENGTH * 4)
          .toString('utf8'),
      );
    }
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

const RESET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
// Before a connection exists: the platform cannot have seen the request.
const CONNECT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/** `beforeRequestSent` only when no connection was made. */
function toTransportError(action: string, error: unknown, signal?: AbortSignal): TransportError {
  if (error instanceof TransportError) return error;
  const classify = (failure: TransportFailure, beforeRequestSent: boolean) =>
    new TransportError(action, failure, beforeRequestSent, { cause: error });
  // undici rejects with the signal's reason, which can be any value.
  if (signal?.aborted) return classify('aborted', false);
  let current: unknown = error;
  // undici and Node sometimes wrap the socket error.
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code: rawCode, syscall, name, cause } = current as Record<string, unknown>;
    const code = typeof rawCode === 'string' ? rawCode : '';
    if (name === 'AbortError' || code === 'UND_ERR_ABORTED') return classify('aborted', false);
    if (CONNECT_CODES.has(code)) return classify('connect', true);
    if (syscall === 'connect' || syscall === 'getaddrinfo') return classify('connect', true);
    if (TIMEOUT_CODES.has(code)) return classify('timeout', false);
    if (RESET_CODES.has(code)) return classify('reset', false);
    current = cause;
  }
  return classify('other', false);
}
