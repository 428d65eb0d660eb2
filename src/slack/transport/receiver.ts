// The receiver: the HTTP server in front of Bolt. It owns the health routes in both modes and, in HTTP mode,
// checks every request to /slack/events before Bolt sees it: Bolt 5 crashes on a signed `null`
// body, stalls 3 s on signed bodies it cannot classify, and answers 500 (which Slack retries) to an
// event without an event. Slack's SSL check and the url_verification handshake are answered here;
// Bolt, with its own signature check off, sees only signed requests, parsed as they were checked.

import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { z } from 'zod';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { AcceptedRequests } from '../handling/surface.js';
import { hasValidSignature } from './v0-signature.js';

export const SLACK_EVENTS_PATH = '/slack/events';
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const JSON_CONTENT_TYPE = 'application/json';
/** Slack's payloads are a few kilobytes; a megabyte is generous and keeps garbage from filling memory. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Slack signs with the current time; a request more than five minutes off either way is a replay. */
const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

/** A JSON object (not null, not an array): Bolt reads properties of these fields without checking. */
const jsonObject = z.object({});
/** A field that must be absent: Bolt routes a body by which of these fields it has. */
const absent = z.never().optional();

/**
 * The envelopes Slack sends to a request URL and the app handles; anything else is refused before
 * Bolt sees it. Bolt dereferences some fields without checking them (App.js buildSource, helpers.js
 * getTypeAndConversation), so those are checked here: a null there answers 500, which Slack retries.
 * Interactions other than block_actions, the app's own modals and its message shortcut have no
 * listener in this app (nor have function_executed events): Bolt would hold them unacknowledged for
 * 3 s and answer 404.
 */
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
      event: absent,
      command: absent,
      name: absent,
    }),
    z.object({
      type: z.literal('view_submission'),
      user: z.object({ id: z.string() }),
      view: z.object({
        id: z.string(),
        callback_id: oneOf(accepted.viewCallbackIds),
      }),
      event: absent,
      command: absent,
      name: absent,
    }),
    z.object({
      type: z.literal('message_action'),
      callback_id: oneOf(accepted.messageShortcutIds),
      user: z.object({ id: z.string() }),
      channel: jsonObject,
      message: jsonObject,
      event: absent,
      command: absent,
      name: absent,
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
    text: z.string().max(4000),
    user_id: z.string().min(1),
    channel_id: z.string().min(1),
    team_id: z.string().min(1),
    response_url: z.string().min(1),
    type: absent,
    event: absent,
    payload: absent,
  });
}

function slackEnvelopeSchema(accepted: AcceptedRequests) {
  const interactions = interactionEnvelopes(accepted);
  return accepted.slashCommand === undefined
    ? z.union(interactions)
    : z.union([...interactions, slashCommandEnvelope(accepted.slashCommand)]);
}

export interface Health {
  alive(): boolean;
  ready(): Promise<boolean>;
}

export interface MetricsSource {
  render(): Promise<{ contentType: string; body: string }>;
}

export interface ReceiverOptions {
  health: Health;
  metrics?: MetricsSource;
  logger: Logger;
  /** HTTP mode: where signed Slack requests go once they pass the checks. */
  slack?: {
    signingSecret: string;
    requestListener: RequestListener;
    now?: () => number;
    /** The modal callback ids, message shortcuts and slash command the surfaces route: all that is accepted. */
    accepted: AcceptedRequests;
  };
}

export interface ReceiverServer {
  readonly server: Server;
  /**
   * Starts the drain: new Slack requests get 503 (Slack retries them, on another replica), the health
   * routes keep answering (503), idle connections are closed now, and the answers to new requests and
   * to the Slack requests in flight close theirs. Resolves once the Slack requests in flight are answered.
   */
  drain(): Promise<void>;
  /** Ends the drain: stops listening and closes every connection, whatever it is doing. */
  close(): Promise<void>;
}

export function createReceiver(options: ReceiverOptions): ReceiverServer {
  const { health, logger } = options;
  const envelopeSchema = slackEnvelopeSchema(
    options.slack?.accepted ?? { viewCallbackIds: [], messageShortcutIds: [], slashCommand: undefined },
  );
  let draining = false;
  /** Slack requests begun before the drain: they are answered, not refused. */
  const slackRequests = new Set<ServerResponse>();
  let slackRequestsAnswered: (() => void) | undefined;
  let drained: Promise<void> | undefined;

  const server = createServer((request, response) => {
    // A kept-alive connection would keep close() waiting for Node's keep-alive timeout.
    if (draining) response.setHeader('connection', 'close');
    handle(request, response).catch((error: unknown) => {
      logger.error({ ...errorFields(error), path: request.url }, 'request handling failed');
      if (!response.headersSent) sendJson(response, 500, { error: 'internal_error' });
      else response.destroy();
    });
  });
  // Slack keeps connections open between requests; drop idle ones before a load balancer would.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = pathOf(request.url);
    if (path === '/healthz' || path === '/readyz') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendMethodNotAllowed(response, 'GET');
      if (path === '/healthz') {
        const alive = !draining && health.alive();
        return sendJson(response, alive ? 200 : 503, { status: alive ? 'ok' : 'stopping' });
      }
      const ready = !draining && (await health.ready().catch(() => false));
      return sendJson(response, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready' });
    }
    if (path === '/metrics' && options.metrics) {
      if (request.method !== 'GET') return sendMethodNotAllowed(response, 'GET');
      const { contentType, body } = await options.metrics.render();
      response.writeHead(200, { 'content-type': contentType });
      response.end(body);
      return;
    }
    if (path === SLACK_EVENTS_PATH && options.slack) {
      // Slack retries a 503, and the retry reaches a replica that is not stopping.
      if (draining) return sendJson(response, 503, { error: 'shutting_down' });
      if (request.method !== 'POST') return sendMethodNotAllowed(response, 'POST');
      slackRequests.add(response);
      response.once('close', () => {
        slackRequests.delete(response);
        if (slackRequests.size === 0) slackRequestsAnswered?.();
      });
      return handleSlackRequest(request, response, options.slack);
    }
    sendJson(response, 404, { error: 'not_found' });
  }

  async function handleSlackRequest(
    request: IncomingMessage,
    response: ServerResponse,
    slack: NonNullable<ReceiverOptions['slack']>,
  ): Promise<void> {
    const rawBody = await readBody(request, BODY_LIMIT_BYTES);
    if (rawBody === 'too_large') {
      logger.warn({ limit: BODY_LIMIT_BYTES }, 'refused an oversized Slack request');
      response.setHeader('connection', 'close');
      return sendJson(response, 413, { error: 'payload_too_large' });
    }
    const body = rawBody.toString('utf8');
    const contentType = headerOf(request, 'content-type');

    // Slack's SSL check carries no signature by design. It is answered here and nothing of it goes
    // on: Bolt, with its own check off, would act on anything smuggled beside `ssl_check=1`.
    if (contentType === FORM_CONTENT_TYPE && new URLSearchParams(body).get('ssl_check') === '1') {
      response.writeHead(200);
      response.end();
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
    const envelope = envelopeSchema.safeParse(parsed);
    if (!envelope.success) {
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
    // Bolt parses the body again by its own rules (node:querystring for forms, where a repeated field
    // becomes an array); a form is handed on as the JSON of what was checked here, so both read one
    // value. A JSON body goes on as the verified bytes: Bolt's JSON.parse reads them as this one did.
    if (contentType === FORM_CONTENT_TYPE) {
      request.headers['content-type'] = JSON_CONTENT_TYPE;
      Object.assign(request, { rawBody: Buffer.from(JSON.stringify(parsed)) });
    } else {
      Object.assign(request, { rawBody });
    }
    slack.requestListener(request, response);
  }

  return {
    server,
    drain() {
      if (drained) return drained;
      draining = true;
      for (const response of slackRequests) {
        if (!response.headersSent) response.setHeader('connection', 'close');
      }
      server.closeIdleConnections();
      drained =
        slackRequests.size === 0
          ? Promise.resolve()
          : new Promise((resolve) => {
              slackRequestsAnswered = resolve;
            });
      return drained;
    },
    close() {
      draining = true;
      return new Promise((resolve) => {
        // Not listening (start-up failed before listen) is as closed as it gets.
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
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
