import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AGENT_LIST_PATH,
  OPEN_API_PATH,
  TICKET_LIST_PATH,
  TICKET_LIST_SAMPLE_PATH,
  TOKEN_PATH,
} from '../platform/schemas.js';
import { isRecord } from '../util/json.js';
import { listen } from '../util/listen.js';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_TOKEN_TTL_SECONDS,
  MAX_BODY_BYTES,
  MAX_RECEIVED,
} from './defaults.js';
import { type Fault, Faults, TOKEN_ACTION } from './faults.js';
import {
  agentList,
  CODES,
  count,
  getAccessToken,
  type HandlerContext,
  openPlatform,
  TokenRejected,
  ticketList,
} from './handlers.js';
import { Robot } from './robot.js';
import { Robots } from './robots.js';
import { Statistics } from './statistics.js';
import { seedTickets } from './tickets.js';
import { TokenStore } from './tokens.js';
import { type Body, ParamError } from './validation.js';

export interface SimulatorOptions {
  /** 0 = a random free port. */
  port?: number;
  host?: string;
  /** Stays valid unless the `expiredToken` fault is set. */
  accessToken: string;
  appId?: string;
  appKey?: string;
  /** When the request carries no `expire`. */
  tokenTtlSeconds?: number;
  now?: () => Date;
  /** Another platform's own figures and tickets (the playground's second workspace); unset, the usual ones. */
  seed?: string;
  logger?: { info(obj: object, msg: string): void };
}

interface ReceivedRequest {
  path: string;
  body: unknown;
  at: number;
}

export interface Simulator {
  /** Serves both {open_url} and {base_url}. */
  url: string;
  close(): Promise<void>;
  faults: { set(fault: Fault): void; clear(): void };
  /** Newest last. */
  received: ReceivedRequest[];
  issueToken(): string;
  /** The configured static token keeps working. */
  expireTokens(): void;
  stats(): Record<string, unknown>;
}

interface Route {
  action(body: Body): string;
  /** Its answer goes out with HTTP 200. */
  handle(context: HandlerContext, body: Body): Body;
}

const ROUTES: Record<string, Route | undefined> = {
  [OPEN_API_PATH]: {
    action: (body) => (typeof body.action === 'string' ? body.action : ''),
    handle: openPlatform,
  },
  [TOKEN_PATH]: { action: () => TOKEN_ACTION, handle: getAccessToken },
  [TICKET_LIST_PATH]: { action: () => 'getTicketInfoList', handle: ticketList },
  // The spec's sample request uses this path.
  [TICKET_LIST_SAMPLE_PATH]: { action: () => 'getTicketList', handle: ticketList },
  [AGENT_LIST_PATH]: { action: () => 'queryServiceList', handle: agentList },
};

const MALFORMED_BODY = '{"code":"1000","data":{"answer":"trunc';
const TOKEN_CHECK_FAILED = { code: CODES.token, msg: 'access_token check failed' };

type BodyResult = { kind: 'ok'; text: string } | { kind: 'tooLarge' } | { kind: 'aborted' };

function readBody(request: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining so the client can still read the 413.
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(tooLarge ? { kind: 'tooLarge' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }),
    );
    request.on('error', () => resolve({ kind: 'aborted' }));
    request.on('aborted', () => resolve({ kind: 'aborted' }));
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  sendText(response, status, JSON.stringify(body));
}

function sendText(response: ServerResponse, status: number, text: string): void {
  if (response.destroyed || response.writableEnded) return;
  response.writeHead(status, {
    'content-type': 'application/json;charset=UTF-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const now = options.now ?? (() => new Date());
  const startedAt = now().getTime();
  const tokens = new TokenStore(options.accessToken, now);
  const robots = new Robots();
  const counters: Record<string, number> = {};
  const context: HandlerContext = {
    appId: options.appId ?? DEFAULT_SIMULATOR_APP_ID,
    appKey: options.appKey ?? DEFAULT_SIMULATOR_APP_KEY,
    tokenTtlSeconds: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    now,
    tokens,
    robots,
    robot: new Robot(robots, now),
    statistics: new Statistics(now, startedAt, options.seed),
    tickets: seedTickets(startedAt, options.seed),
    counters,
  };
  const faults = new Faults();
  const received: ReceivedRequest[] = [];
  // Aborted on close, which ends every injected delay at once.
  const closing = new AbortController();
  const sockets = new Set<Socket>();

  const record = (path: string, body: unknown) => {
    received.push({ path, body, at: now().getTime() });
    if (received.length > MAX_RECEIVED) received.splice(0, received.length - MAX_RECEIVED);
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://simulator.invalid').pathname;
    count(context, 'requests');
    const finish = (status: number, body: Record<string, unknown>, action?: string) => {
      options.logger?.info(
        { method: request.method, path, action, status, code: body.code },
        'simulator request',
      );
      sendJson(response, status, body);
    };
    if (request.method !== 'POST') {
      record(path, undefined);
      request.resume();
      finish(405, { code: CODES.methodNotAllowed, msg: 'only POST is allowed' });
      return;
    }
    const result = await readBody(request);
    if (result.kind === 'aborted') return;
    if (result.kind === 'tooLarge') {
      record(path, undefined);
      finish(413, { code: CODES.badRequest, msg: `body exceeds ${MAX_BODY_BYTES} bytes` });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(result.text);
    } catch {
      body = undefined;
    }
    record(path, body ?? result.text);
    const route = ROUTES[path];
    if (!route) {
      finish(404, { code: CODES.notFound, msg: `no such interface: ${path}` });
      return;
    }
    // Malformed requests get HTTP 400: a client bug should be loud, not look like a business answer.
    if (!(request.headers['content-type'] ?? '').toLowerCase().includes('application/json')) {
      finish(400, { code: CODES.badRequest, msg: 'content-type must be application/json' });
      return;
    }
    if (!isRecord(body)) {
      finish(400, { code: CODES.badRequest, msg: 'body must be a JSON object' });
      return;
    }
    const action = route.action(body);
    count(context, `action:${action}`);
    const fault = faults.take(action);
    if (fault) {
      count(context, 'faultsApplied');
      switch (fault.kind) {
        case 'http500':
          finish(500, { code: CODES.serverError, msg: 'internal server error (injected)' }, action);
          return;
        case 'code':
          finish(200, { code: fault.code, msg: 'injected failure' }, action);
          return;
        case 'drop':
          options.logger?.info({ path, action }, 'simulator dropped a request (injected)');
          request.socket.destroy();
          return;
        case 'malformed':
          options.logger?.info({ path, action }, 'simulator sent a malformed body (injected)');
          sendText(response, 200, MALFORMED_BODY);
          return;
        case 'expiredToken':
          finish(200, TOKEN_CHECK_FAILED, action);
          return;
        case 'delay':
          await sleep(fault.ms, undefined, { signal: closing.signal }).catch(() => {});
          if (closing.signal.aborted) return;
          break;
      }
    }
    try {
      finish(200, route.handle(context, body), action);
    } catch (error) {
      if (error instanceof TokenRejected) {
        finish(200, TOKEN_CHECK_FAILED, action);
      } else if (error instanceof ParamError) {
        finish(200, { code: CODES.failure, msg: error.message }, action);
      } else {
        options.logger?.info({ path, action, error: String(error) }, 'simulator handler failed');
        finish(500, { code: CODES.serverError, msg: 'internal server error' }, action);
      }
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent)
        sendJson(response, 500, { code: CODES.serverError, msg: 'internal server error' });
    });
  });
  // undici keeps 2 s below the server's hint: long enough to reuse sockets as with a real platform.
  server.keepAliveTimeout = 5000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    faults: { set: (fault) => faults.set(fault), clear: () => faults.clear() },
    received,
    issueToken: () => {
      count(context, 'tokensIssued');
      return tokens.issue(context.tokenTtlSeconds);
    },
    expireTokens: () => tokens.expireAll(),
    stats: () => ({
      ...counters,
      tokensIssued: counters.tokensIssued ?? 0,
      receivedCount: received.length,
      knowledgeEntries: robots.entryCount(),
      tickets: context.tickets.length,
    }),
    close: async () => {
      if (closing.signal.aborted) return;
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
