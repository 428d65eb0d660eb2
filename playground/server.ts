// The playground's one HTTP server on 127.0.0.1: the page and its script, the live feed of the
// workspace (Server-Sent Events), the page's actions, and the stand-in for Slack (Web API,
// response_urls, file uploads) that the gateway is pointed at.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { z } from 'zod';
import { listen } from '../src/util/listen.js';
import type { DigestControlOutcome } from './digest-control.js';
import type { GatewayRequests, Outcome } from './gateway-requests.js';
import type { InstallPage, InstallRoutes } from './install-routes.js';
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
import { API_PREFIX, EVENTS_PATH, type FaultKind, WORKSPACE_PARAM } from './protocol.js';
import { apiMethodOf, parseBody, readBody, tokenOf } from './slack-stand-in/wire.js';
import type { PlaygroundSpace } from './space.js';

type Json = Record<string, unknown>;

/** The page's actions are small; Slack's own payloads stay under a megabyte. */
const BODY_LIMIT_BYTES = 1024 * 1024;
const UPLOAD_LIMIT_BYTES = 6 * 1024 * 1024;

export interface PlaygroundServerOptions {
  /** The first is the one the page shows unless its address names another (`?workspace=T…`). */
  spaces: readonly [PlaygroundSpace, ...PlaygroundSpace[]];
  /** In distributed mode: Slack's install steps, and the gateway's own install routes behind them. */
  distributed?: InstallRoutes | undefined;
  assets: PageAssets;
  /** Breaks or mends the platform of the workspace the page shows (each company has its own). */
  setFault(kind: FaultKind, space: PlaygroundSpace): void;
  /** The gateway's statistics digest, posted now to the digest channel of the workspace the page shows. */
  postDigest(space: PlaygroundSpace): Promise<DigestControlOutcome>;
  port: number;
}

export interface PlaygroundServer {
  origin: string;
  close(): Promise<void>;
}

export async function startPlaygroundServer(options: PlaygroundServerOptions): Promise<PlaygroundServer> {
  const feeds = new Map<ServerResponse, PlaygroundSpace>();
  const { spaces } = options;
  // Every feed hears every change: a workspace's install shows in the others' switchers too.
  const unsubscribes = spaces.map(({ workspace }) =>
    workspace.onChange(() => {
      for (const [feed, space] of feeds)
        feed.write(`data: ${JSON.stringify(space.workspace.snapshot())}\n\n`);
    }),
  );
  const spaceOf = (url: URL): PlaygroundSpace | undefined => {
    const named = url.searchParams.get(WORKSPACE_PARAM);
    return named === null ? spaces[0] : spaces.find((space) => space.workspace.company.team.id === named);
  };

  const actions: Record<string, (space: PlaygroundSpace, body: unknown) => Promise<Outcome> | Outcome> = {
    send: (space, body) => withRequests(space, (requests) => requests.send(parse(sendMessageSchema, body))),
    click: (space, body) => withRequests(space, (requests) => requests.click(parse(clickSchema, body))),
    submit: (space, body) =>
      withRequests(space, (requests) => requests.submit(parse(submitViewSchema, body))),
    close: (space, body) => withRequests(space, (requests) => requests.close(parse(closeViewSchema, body))),
    shortcut: (space, body) =>
      withRequests(space, (requests) => requests.shortcut(parse(shortcutSchema, body))),
    home: (space, body) =>
      withRequests(space, (requests) => requests.homeOpened(parse(homeOpenedSchema, body))),
    'assistant-open': (space, body) =>
      withRequests(space, (requests) => requests.assistantOpened(parse(assistantOpenedSchema, body))),
    'assistant-context': (space, body) =>
      withRequests(space, (requests) =>
        requests.assistantContextChanged(parse(assistantContextSchema, body)),
      ),
    fault: (space, body) => {
      const { kind } = parse(faultSchema, body);
      options.setFault(kind, space);
      space.workspace.fault = kind;
      return { ok: true };
    },
    digest: (space) => options.postDigest(space),
    uninstall: (space) => {
      const routes = options.distributed;
      if (!routes) return { ok: false, error: 'only a distributed playground uninstalls' };
      return withRequests(space, (requests) => routes.uninstall(space, requests));
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const space = spaceOf(url);
    if (req.method === 'GET') {
      if (path === '/') return send(res, 200, 'text/html; charset=utf-8', options.assets.html);
      if (path === '/playground/app.js')
        return send(res, 200, 'text/javascript; charset=utf-8', options.assets.script);
      if (path === '/playground/app.css')
        return send(res, 200, 'text/css; charset=utf-8', options.assets.styles);
      if (path === '/favicon.ico') return send(res, 200, 'image/svg+xml', options.assets.icon);
      if (path === EVENTS_PATH)
        return space ? openFeed(req, res, space) : send(res, 404, 'text/plain', 'no such workspace');
      const page = await options.distributed?.page(url, req.headers.cookie);
      if (page) return sendPage(res, page);
      return send(res, 404, 'text/plain', 'not found');
    }
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'method not allowed');

    if (path.startsWith('/upload/')) {
      const bytes = await readBody(req, UPLOAD_LIMIT_BYTES);
      if (bytes === undefined) return send(res, 413, 'text/plain', 'too large');
      const fileId = decodeURIComponent(path.slice('/upload/'.length));
      let result = { status: 404, text: 'unknown upload' };
      // Each workspace knows its own uploads.
      for (const { standIn } of spaces) {
        if (result.status !== 404) break;
        result = await standIn.upload(fileId, bytes, req.headers['content-type']);
      }
      return send(res, result.status, 'text/plain', result.text);
    }
    const raw = await readBody(req, BODY_LIMIT_BYTES);
    if (raw === undefined) return sendJson(res, 413, { ok: false, error: 'request_too_large' });
    const body = parseBody(raw.toString('utf8'), req.headers['content-type']);

    const apiMethod = apiMethodOf(path);
    if (apiMethod !== undefined) {
      const token = tokenOf(req.headers.authorization, body);
      const routes = options.distributed;
      if (!routes) return sendJson(res, 200, spaces[0].standIn.call(apiMethod, body, token));
      if (apiMethod === 'oauth.v2.access') return sendJson(res, 200, routes.oauth.access(body));
      // A token names its workspace, as Slack's do; one revoked or never issued is refused.
      const teamId = routes.oauth.teamOf(token);
      const owner = spaces.find((candidate) => candidate.workspace.company.team.id === teamId);
      if (!owner) return sendJson(res, 200, { ok: false, error: 'invalid_auth' });
      return sendJson(res, 200, owner.standIn.call(apiMethod, body, token));
    }
    if (path.startsWith('/response-url/')) {
      let result = { status: 404, answer: { ok: false, error: 'expired_url' } as Json };
      for (const { standIn } of spaces) {
        if (result.status !== 404) break;
        result = standIn.respond(path.slice('/response-url/'.length), body);
      }
      return sendJson(res, result.status, result.answer);
    }
    if (path.startsWith(API_PREFIX)) {
      const action = actions[path.slice(API_PREFIX.length)];
      if (!action) return sendJson(res, 404, { ok: false, error: 'no such action' });
      if (!space) return sendJson(res, 404, { ok: false, error: 'no such workspace' });
      try {
        const outcome = await action(space, body);
        return sendJson(res, outcome.ok ? 200 : 502, outcome);
      } catch (error) {
        if (error instanceof InvalidAction) return sendJson(res, 400, { ok: false, error: error.message });
        throw error;
      }
    }
    return send(res, 404, 'text/plain', 'not found');
  };

  const openFeed = (req: IncomingMessage, res: ServerResponse, space: PlaygroundSpace): void => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`data: ${JSON.stringify(space.workspace.snapshot())}\n\n`);
    feeds.set(res, space);
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
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const feed of feeds.keys()) feed.end();
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
  space: PlaygroundSpace,
  act: (requests: GatewayRequests) => Promise<Outcome> | Outcome,
): Promise<Outcome> | Outcome {
  const requests = space.requests();
  return requests ? act(requests) : { ok: false, error: 'the gateway is still starting' };
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
}

function sendPage(res: ServerResponse, page: InstallPage): void {
  res.writeHead(page.status, {
    'content-type': page.contentType,
    'cache-control': 'no-store',
    ...(page.location === undefined ? {} : { location: page.location }),
    ...(page.setCookie.length === 0 ? {} : { 'set-cookie': page.setCookie }),
  });
  res.end(page.body);
}

function sendJson(res: ServerResponse, status: number, body: Json | Outcome): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}
