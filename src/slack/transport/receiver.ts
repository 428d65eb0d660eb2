// The HTTP server before Bolt: health routes, and in HTTP mode the checks Bolt 5 lacks on signed bodies.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type Receiver, type ReceiverEvent, ReceiverInconsistentStateError } from '@slack/bolt';
import { z } from 'zod';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { isRecord } from '../../util/json.js';
import { listen } from '../../util/listen.js';
import type { AcceptedRequests } from '../handling/surface.js';
import { HttpAck } from './http-ack.js';
import { hasValidSignature } from './v0-signature.js';

const SLACK_EVENTS_PATH = '/slack/events';
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const JSON_CONTENT_TYPE = 'application/json';
/** Slack's payloads are a few kilobytes; a megabyte is generous and keeps garbage from filling memory. */
const BODY_LIMIT_BYTES = 1024 * 1024;
/** Slack signs with the current time; a request more than five minutes off either way is a replay. */
const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

/** A JSON object (not null, not an array): Bolt reads properties of these fields without checking. */
const jsonObject = z.object({});
/** A field that must be absent: Bolt routes a body by which of these fields it has. */
const absent = z.never().optional();
/** An interaction payload carries none of the fields of an event or a slash command. */
const notEventOrCommand = { event: absent, command: absent, name: absent };

/** What the app handles: Bolt dereferences some fields unchecked (500, retried), stalls 3 s on others. */
function interactionEnvelopes(accepted: AcceptedRequests) {
  return [
    z.object({
      type: z.literal('event_callback'),
      event: z.object({
        type: z
          .string()
          .min(1)
          .refine((type) => type !== 'function_executed'),
        user: z.union([z.string(), jsonObject]).optional(),
        channel: z.union([z.string(), jsonObject]).optional(),
        item: jsonObject.optional(),
        subteam: jsonObject.optional(),
      }),
      authorizations: z.array(jsonObject).optional(),
    }),
    z.object({ type: z.literal('url_verification'), challenge: z.string() }),
    z.object({ type: z.literal('app_rate_limited') }),
    z.object({
      type: z.literal('block_actions'),
      user: z.object({ id: z.string() }),
      actions: z.array(z.object({ action_id: z.string() })).min(1),
      channel: jsonObject.optional(),
      response_urls: z.array(jsonObject).optional(),
      ...notEventOrCommand,
    }),
    z.object({
      type: z.literal('view_submission'),
      user: z.object({ id: z.string() }),
      view: z.object({
        id: z.string(),
        callback_id: oneOf(accepted.viewCallbackIds),
      }),
      ...notEventOrCommand,
    }),
    z.object({
      type: z.literal('message_action'),
      callback_id: oneOf(accepted.messageShortcutIds),
      user: z.object({ id: z.string() }),
      channel: jsonObject,
      message: jsonObject,
      ...notEventOrCommand,
    }),
  ] as const;
}

/** One of the ids a surface routes; none routed, nothing passes. */
function oneOf(ids: readonly string[]) {
  return z.string().refine((id) => ids.includes(id));
}

/** A slash command: form fields, no `type`; only the app's own command name is taken. */
function slashCommandEnvelope(command: string) {
  return z.object({
    command: z.literal(command),
    // Any length: a long one is told to the person in Slack (handling/command.ts), never answered 4xx.
    text: z.string(),
    user_id: z.string().min(1),
    channel_id: z.string().min(1),
    team_id: z.string().min(1),
    response_url: z.string().min(1),
    type: absent,
    event: absent,
    payload: absent,
  });
}

export function slackEnvelopeSchema(accepted: AcceptedRequests) {
  const interactions = interactionEnvelopes(accepted);
  // Compiled: nearly every request Slack sends meets it (docs/decisions/019).
  return z.compile(
    accepted.slashCommand === undefined
      ? z.union(interactions)
      : z.union([...interactions, slashCommandEnvelope(accepted.slashCommand)]),
  );
}

export interface Health {
  alive(): boolean;
  ready(): Promise<boolean>;
}

export interface MetricsSource {
  render(): Promise<{ contentType: string; body: string }>;
}

/** A page served on GET beside Slack's requests (the install page and OAuth redirect). */
export type PageRoute = readonly [
  path: string,
  serve: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
];

export interface ReceiverOptions {
  health: Health;
  metrics?: MetricsSource;
  pages?: readonly PageRoute[];
  logger: Logger;
  /** HTTP mode: the checks a request to /slack/events must pass before it reaches the app. */
  slack?: {
    signingSecret: string;
    now?: () => number;
    /** The modal callback ids, message shortcuts and slash command the surfaces route: all that is accepted. */
    accepted: AcceptedRequests;
  };
}

/** Bolt's `Receiver` for HTTP mode, like AwsLambdaReceiver; without `slack`, the health server alone. */
export class GatewayReceiver implements Receiver {
  readonly server: Server;
  readonly #options: ReceiverOptions;
  readonly #logger: Logger;
  readonly #envelopeSchema: ReturnType<typeof slackEnvelopeSchema>;
  #app: App | undefined;
  #draining = false;
  /** Slack requests begun before the drain: they are answered, not refused. */
  readonly #slackRequests = new Set<ServerResponse>();
  #slackRequestsAnswered: (() => void) | undefined;
  #drained: Promise<void> | undefined;

  constructor(options: ReceiverOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.#envelopeSchema = slackEnvelopeSchema(
      options.slack?.accepted ?? { viewCallbackIds: [], messageShortcutIds: [], slashCommand: undefined },
    );
    this.server = createServer((request, response) => {
      // A kept-alive connection would keep close() waiting for Node's keep-alive timeout.
      if (this.#draining) response.setHeader('connection', 'close');
      this.#handle(request, response).catch((error: unknown) => {
        this.#logger.error({ ...errorFields(error), path: request.url }, 'request handling failed');
        if (!response.headersSent) sendJson(response, 500, { error: 'internal_error' });
        else response.destroy();
      });
    });
    // Slack keeps connections open between requests; drop idle ones before a load balancer would.
    this.server.keepAliveTimeout = 65_000;
    this.server.headersTimeout = 66_000;
    this.server.requestTimeout = 30_000;
  }

  init(app: App): void {
    this.#app = app;
  }

  start(port: number, host: string): Promise<AddressInfo> {
    return listen(this.server, port, host);
  }

  /** New Slack requests get 503 (retried on another replica); resolves once those in flight are answered. */
  drain(): Promise<void> {
    if (this.#drained) return this.#drained;
    this.#draining = true;
    for (const response of this.#slackRequests) {
      if (!response.headersSent) response.setHeader('connection', 'close');
    }
    this.server.closeIdleConnections();
    this.#drained =
      this.#slackRequests.size === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            this.#slackRequestsAnswered = resolve;
          });
    return this.#drained;
  }

  /** Ends the drain: stops listening and closes every connection, whatever it is doing. */
  stop(): Promise<void> {
    this.#draining = true;
    return new Promise((resolve) => {
      // Not listening (start-up failed before listen) is as closed as it gets.
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { health, metrics, slack } = this.#options;
    const path = pathOf(request.url);
    if (path === '/healthz' || path === '/readyz') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendMethodNotAllowed(response, 'GET');
      if (path === '/healthz') {
        const alive = !this.#draining && health.alive();
        return sendJson(response, alive ? 200 : 503, { status: alive ? 'ok' : 'stopping' });
      }
      const ready = !this.#draining && (await health.ready().catch(() => false));
      return sendJson(response, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready' });
    }
    if (path === '/metrics' && metrics) {
      if (request.method !== 'GET') return sendMethodNotAllowed(response, 'GET');
      const { contentType, body } = await metrics.render();
      response.writeHead(200, { 'content-type': contentType });
      response.end(body);
      return;
    }
    const page = this.#options.pages?.find(([pagePath]) => pagePath === path);
    if (page) {
      if (request.method !== 'GET') return sendMethodNotAllowed(response, 'GET');
      if (this.#draining) return sendJson(response, 503, { error: 'shutting_down' });
      return page[1](request, response);
    }
    if (path === SLACK_EVENTS_PATH && slack) {
      // Slack retries a 503, and the retry reaches a replica that is not stopping.
      if (this.#draining) return sendJson(response, 503, { error: 'shutting_down' });
      if (request.method !== 'POST') return sendMethodNotAllowed(response, 'POST');
      this.#slackRequests.add(response);
      response.once('close', () => {
        this.#slackRequests.delete(response);
        if (this.#slackRequests.size === 0) this.#slackRequestsAnswered?.();
      });
      return this.#handleSlackRequest(request, response, slack);
    }
    sendJson(response, 404, { error: 'not_found' });
  }

  async #handleSlackRequest(
    request: IncomingMessage,
    response: ServerResponse,
    slack: NonNullable<ReceiverOptions['slack']>,
  ): Promise<void> {
    const logger = this.#logger;
    const rawBody = await readBody(request, BODY_LIMIT_BYTES);
    if (rawBody === 'too_large') {
      logger.warn({ limit: BODY_LIMIT_BYTES }, 'refused an oversized Slack request');
      response.setHeader('connection', 'close');
      return sendJson(response, 413, { error: 'payload_too_large' });
    }
    const body = rawBody.toString('utf8');
    const contentType = headerOf(request, 'content-type');

    // Slack's SSL check is unsigned by design, so nothing smuggled beside `ssl_check=1` goes on.
    if (contentType === FORM_CONTENT_TYPE && new URLSearchParams(body).get('ssl_check') === '1') {
      response.writeHead(200).end();
      return;
    }
    const signature = headerOf(request, 'x-slack-signature');
    const timestamp = Number(headerOf(request, 'x-slack-request-timestamp'));
    const nowSeconds = Math.floor((slack.now?.() ?? Date.now()) / 1000);
    const signed =
      signature !== undefined &&
      Number.isInteger(timestamp) &&
      Math.abs(nowSeconds - timestamp) <= MAX_CLOCK_SKEW_SECONDS &&
      hasValidSignature(slack.signingSecret, timestamp, rawBody, signature);
    if (!signed) {
      logger.warn(
        { path: SLACK_EVENTS_PATH, hasSignature: signature !== undefined },
        'refused an unsigned, forged or stale Slack request',
      );
      return sendJson(response, 401, { error: 'invalid_signature' });
    }
    const parsed = parseSlackBody(body, contentType);
    // Left alone: acknowledged as Bolt would (200, empty), before any schema guards Bolt.
    if (slack.accepted.preDispatch && isRecord(parsed) && parsed.type === 'event_callback') {
      const dispatched = slack.accepted.preDispatch(parsed);
      if (!(typeof dispatched === 'boolean' ? dispatched : await dispatched)) {
        response.writeHead(200).end();
        return;
      }
    }
    const envelope = this.#envelopeSchema.safeParse(parsed);
    if (!envelope.success || !isRecord(parsed)) {
      logger.warn({ contentType }, 'refused a signed Slack request of unknown shape');
      return sendJson(response, 400, { error: 'unrecognised_payload' });
    }
    switch (envelope.data.type) {
      case 'url_verification':
        return sendJson(response, 200, { challenge: envelope.data.challenge });
      case 'app_rate_limited':
        logger.warn({}, 'Slack reports that event deliveries to this app are being rate limited');
        return sendJson(response, 200, { ok: true });
    }
    // A signed JSON `ssl_check` body: Bolt's HTTPReceiver dropped it, and Slack sends none.
    if (parsed.ssl_check === '1') {
      response.writeHead(200).end();
      return;
    }
    await this.#dispatch(request, response, parsed);
  }

  /** Hands a verified request to Bolt as HTTPReceiver did: `body` is the very object that passed the checks. */
  async #dispatch(
    request: IncomingMessage,
    response: ServerResponse,
    body: Record<string, unknown>,
  ): Promise<void> {
    const ack = new HttpAck(response, this.#logger);
    const retryNum = headerOf(request, 'x-slack-retry-num');
    const retryReason = headerOf(request, 'x-slack-retry-reason');
    const event: ReceiverEvent = {
      body,
      ack: ack.ack,
      // Bolt's extractRetryNumFromHTTPRequest: parseInt, so a header that is not a number gives NaN.
      ...(retryNum === undefined ? {} : { retryNum: Number.parseInt(retryNum, 10) }),
      ...(retryReason === undefined ? {} : { retryReason }),
    };
    try {
      if (!this.#app) throw new ReceiverInconsistentStateError('no Bolt app has initialised the receiver');
      // With processBeforeResponse off this resolves once the listeners are done, long after the ack.
      await this.#app.processEvent(event);
    } catch (error) {
      ack.failed(error);
    }
  }
}

/** The body as Slack sends it: JSON, or a form whose `payload` field holds JSON. Undefined when neither. */
function parseSlackBody(body: string, contentType: string | undefined): unknown {
  try {
    if (contentType === JSON_CONTENT_TYPE) return JSON.parse(body);
    if (contentType === FORM_CONTENT_TYPE) {
      const form = new URLSearchParams(body);
      // Slack never repeats a field; a repeated one has no single meaning, so the body has none.
      if (new Set(form.keys()).size !== [...form.keys()].length) return undefined;
      const payload = form.get('payload');
      return payload === null ? Object.fromEntries(form) : JSON.parse(payload);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  const declared = Number(headerOf(request, 'content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        resolve('too_large');
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!settled) resolve(Buffer.concat(chunks));
    });
    request.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function sendJson(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function sendMethodNotAllowed(response: ServerResponse, allowed: string): void {
  response.setHeader('allow', allowed);
  sendJson(response, 405, { error: 'method_not_allowed' });
}
