// The playground's one HTTP server on 127.0.0.1: the page and its script, the live feed of the
// workspace (Server-Sent Events), the page's actions, and the stand-in for Slack (Web API,
// response_urls, file uploads) that the gateway is pointed at.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { z } from 'zod';
import { listen } from '../src/util/listen.js';
import type { GatewayRequests, Outcome } from './gateway-requests.js';
import type { PageAssets } from './page.js';
import {
  assistantContextSchema,
  assistantOpenedSchema,
  clickSchema,
  closeViewSchema,
  faultSchema,
  homeOpenedSchema,
  sendMessageSchema,
  shortcutSchema,
  submitViewSchema,
} from './page-actions.js';
import { API_PREFIX, EVENTS_PATH, type FaultKind } from './protocol.js';
import type { SlackStandIn } from './slack-stand-in/web-api.js';
import { apiMethodOf, parseBody, readBody, tokenOf } from './slack-stand-in/wire.js';
import type { Workspace } from './workspace.js';

type Json = Record<string, unknown>;

/** The page's actions are small; Slack's own payloads stay under a megabyte. */
const BODY_LIMIT_BYTES = 1024 * 1024;
const UPLOAD_LIMIT_BYTES = 6 * 1024 * 1024;

export interface PlaygroundServerOptions {
  workspace: Workspace;
  standIn: SlackStandIn;
  /** Set once the gateway is up: the page's actions go through it. */
  requests: () => GatewayRequests | undefined;
  assets: PageAssets;
  setFault(kind: FaultKind): void;
  port: number;
}

export interface PlaygroundServer {
  origin: string;
  close(): Promise<void>;
}

export async function startPlaygroundServer(options: PlaygroundServerOptions): Promise<PlaygroundServer> {
  const feeds = new Set<ServerResponse>();
  const { workspace } = options;
  const unsubscribe = workspace.onChange(() => {
    const data = `data: ${JSON.stringify(workspace.snapshot())}\n\n`;
    for (const feed of feeds) feed.write(data);
  });

  const actions: Record<string, (body: unknown) => Promise<Outcome> | Outcome> = {
    send: (body) => withRequests(options, (requests) => requests.send(parse(sendMessageSchema, body))),
    click: (body) => withRequests(options, (requests) => requests.click(parse(clickSchema, body))),
    submit: (body) => withRequests(options, (requests) => requests.submit(parse(submitViewSchema, body))),
    close: (body) => withRequests(options, (requests) => requests.close(parse(closeViewSchema, body))),
    shortcut: (body) => withRequests(options, (requests) => requests.shortcut(parse(shortcutSchema, body))),
    home: (body) => withRequests(options, (requests) => requests.homeOpened(parse(homeOpenedSchema, body))),
    'assistant-open': (body) =>
      withRequests(options, (requests) => requests.assistantOpened(parse(assistantOpenedSchema, body))),
    'assistant-context': (body) =>
      withRequests(options, (requests) =>
        requests.assistantContextChanged(parse(assistantContextSchema, body)),
      ),
    fault: (body) => {
      const { kind } = parse(faultSchema, body);
      options.setFault(kind);
      workspace.fault = kind;
      return { ok: true };
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (req.method === 'GET') {
      if (path === '/') return send(res, 200, 'text/html; charset=utf-8', options.assets.html);
      if (path === '/playground/app.js')
        return send(res, 200, 'text/javascript; charset=utf-8', options.assets.script);
      if (path === '/playground/app.css')
        return send(res, 200, 'text/css; charset=utf-8', options.assets.styles);
      if (path === EVENTS_PATH) return openFeed(req, res);
      return send(res, 404, 'text/plain', 'not found');
    }
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'method not allowed');

    if (path.startsWith('/upload/')) {
      const bytes = await readBody(req, UPLOAD_LIMIT_BYTES);
      if (bytes === undefined) return send(res, 413, 'text/plain', 'too large');
      const result = await options.standIn.upload(
        decodeURIComponent(path.slice('/upload/'.length)),
        bytes,
        req.headers['content-type'],
      );
      return send(res, result.status, 'text/plain', result.text);
    }
    const raw = await readBody(req, BODY_LIMIT_BYTES);
    if (raw === undefined) return sendJson(res, 413, { ok: false, error: 'request_too_large' });
    const body = parseBody(raw.toString('utf8'), req.headers['content-type']);

    const apiMethod = apiMethodOf(path);
    if (apiMethod !== undefined) {
      return sendJson(
        res,
        200,
        options.standIn.call(apiMethod, body, tokenOf(req.headers.authorization, body)),
      );
    }
    if (path.startsWith('/response-url/')) {
      const result = options.standIn.respond(path.slice('/response-url/'.length), body);
      return sendJson(res, result.status, result.answer);
    }
    if (path.startsWith(API_PREFIX)) {
      const action = actions[path.slice(API_PREFIX.length)];
      if (!action) return sendJson(res, 404, { ok: false, error: 'no such action' });
      try {
        const outcome = await action(body);
        return sendJson(res, outcome.ok ? 200 : 502, outcome);
      } catch (error) {
        if (error instanceof InvalidAction) return sendJson(res, 400, { ok: false, error: error.message });
        throw error;
      }
    }
    return send(res, 404, 'text/plain', 'not found');
  };

  const openFeed = (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`data: ${JSON.stringify(workspace.snapshot())}\n\n`);
    feeds.add(res);
    req.on('close', () => feeds.delete(res));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`playground error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  const { port } = await listen(server, options.port, '127.0.0.1');
  return {
    origin: `http://127.0.0.1:${port}`,
    close() {
      unsubscribe();
      for (const feed of feeds) feed.end();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

class InvalidAction extends Error {}

function parse<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new InvalidAction(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  }
  return parsed.data;
}

function withRequests(
  options: PlaygroundServerOptions,
  act: (requests: GatewayRequests) => Promise<Outcome> | Outcome,
): Promise<Outcome> | Outcome {
  const requests = options.requests();
  return requests ? act(requests) : { ok: false, error: 'the gateway is still starting' };
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
}

function sendJson(res: ServerResponse, status: number, body: Json | Outcome): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}
