// Bolt's HTTPResponseAck under processBeforeResponse: false: the first ack answers Slack at once.
import type { ServerResponse } from 'node:http';
import { AuthorizationError, ReceiverMultipleAckError } from '@slack/bolt';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';

/** Slack stops waiting after 3 s; an unacknowledged request is then answered 404, as Bolt does. */
const UNHANDLED_REQUEST_TIMEOUT_MS = 3_001;

/** `answered`: the receiver answered for it (the 3 s timeout, or processEvent failing first). */
export class HttpAck {
  #state: 'waiting' | 'acknowledged' | 'answered' = 'waiting';
  readonly #response: ServerResponse;
  readonly #logger: Logger;
  readonly #timer: NodeJS.Timeout;

  constructor(response: ServerResponse, logger: Logger) {
    this.#response = response;
    this.#logger = logger;
    this.#timer = setTimeout(() => this.#unhandled(), UNHANDLED_REQUEST_TIMEOUT_MS);
    // The 404 is for Slack's sake; a stopping process need not wait for it.
    this.#timer.unref();
  }

  /** Bolt's AckFn semantics. */
  readonly ack = async (body?: unknown): Promise<void> => {
    if (this.#state === 'acknowledged') throw new ReceiverMultipleAckError();
    if (this.#state === 'answered') {
      // Bolt would throw ERR_HTTP_HEADERS_SENT into the listener here; the answer is gone either way.
      this.#logger.warn({}, 'ack() came after the receiver had answered the Slack request');
      return;
    }
    this.#settle('acknowledged');
    writeAckResponse(this.#response, body);
  };

  /** Bolt's defaultProcessEventErrorHandler. */
  failed(error: unknown): void {
    if (this.#response.headersSent) {
      this.#logger.error(errorFields(error), 'an unhandled error occurred after ack() in a Slack listener');
      return;
    }
    this.#settle('answered');
    if (error instanceof AuthorizationError) {
      this.#response.writeHead(401).end();
      return;
    }
    this.#logger.error(
      errorFields(error),
      'an unhandled error occurred while Bolt processed a Slack request',
    );
    this.#response.writeHead(500).end();
  }

  #unhandled(): void {
    if (this.#state !== 'waiting') return;
    this.#settle('answered');
    this.#logger.error(
      { timeoutMs: UNHANDLED_REQUEST_TIMEOUT_MS },
      'a Slack request was not acknowledged within 3 seconds; answered 404 (no listener called ack())',
    );
    if (!this.#response.headersSent) this.#response.writeHead(404).end();
  }

  #settle(state: 'acknowledged' | 'answered'): void {
    this.#state = state;
    clearTimeout(this.#timer);
  }
}

/** Falsy is an empty 200, as Bolt tests it. */
function writeAckResponse(response: ServerResponse, body: unknown): void {
  if (!body) response.writeHead(200).end();
  else if (typeof body === 'string') response.writeHead(200).end(body);
  else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
