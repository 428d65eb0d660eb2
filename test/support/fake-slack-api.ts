// A fake Slack Web API on loopback, speaking the wire format @slack/web-api uses (POST <slackApiUrl><method>).
// Slack's answers come from the playground's stand-in (one implementation of each method, over a
// directory that takes every id to exist); this wrapper records every call and can fail, delay or
// override the next ones.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { blockKitRefusal } from '../../playground/slack-stand-in/block-kit-checks.js';
import type { Identity } from '../../playground/slack-stand-in/directory.js';
import { OpenDirectory, type OpenPerson } from '../../playground/slack-stand-in/open-directory.js';
import { SlackStandIn } from '../../playground/slack-stand-in/web-api.js';
import {
  apiMethodOf,
  parseBody,
  readBody,
  tokenOf,
  uploadedBytes,
} from '../../playground/slack-stand-in/wire.js';
import { SlackWorkspace } from '../../playground/slack-stand-in/workspace.js';
import { listen } from '../../src/util/listen.js';
import { withTimeout } from './wait.js';

export { parseBody };

type JsonObject = Record<string, unknown>;

export interface RecordedCall {
  /** Web API method (`chat.postMessage`), or `response_url` for POSTs to a URL from `responseUrl()`. */
  method: string;
  /** Parsed body; JSON-valued form fields (`blocks`, `attachments`, ...) are parsed back into objects. */
  body: JsonObject;
  /** Bearer token from the Authorization header, else the `token` body field. */
  token: string | undefined;
  /** The request's Content-Type: a form, JSON, or a multipart upload. */
  contentType: string | undefined;
  /** HTTP status the fake answered with. */
  status: number;
  /** The JSON the fake answered with (undefined for a programmed HTTP failure), e.g. the ts it assigned. */
  response: JsonObject | undefined;
  at: number;
  /** The client's port: calls on one keep-alive connection share it. */
  remotePort: number | undefined;
}

type FakeFailure =
  | { error: string }
  | { status: 429; retryAfter: number }
  | { status: number; retryAfter?: never };

type FakeUser = OpenPerson;

/** Overrides the answer for one method; return the full JSON response (include `ok`). */
type MethodHandler = (call: RecordedCall) => JsonObject;

export interface FakeSlackApiOptions {
  users?: Record<string, FakeUser> | undefined;
  socketModeUrl?: string | undefined;
  handlers?: Record<string, MethodHandler> | undefined;
}

export interface FakeSlackApi {
  /** Pass as `clientOptions.slackApiUrl` (ends with `/api/`, the same shape as `https://slack.com/api/`). */
  readonly url: string;
  /** `http://127.0.0.1:PORT`, for building other URLs on this server. */
  readonly origin: string;
  /** All recorded calls, oldest first, optionally only those of one method. */
  calls(method?: string): RecordedCall[];
  /** Whether a call was recorded at or after `mark` (a `calls().length` read before what made it). */
  madeSince(mark: number): (call: RecordedCall) => boolean;
  /** Resolves with the first call (already recorded or future) of `method` matching `predicate`. */
  waitForCall(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  /** Makes the next `times` calls of `method` fail as described. */
  failNext(method: string, failure: FakeFailure, times?: number): void;
  /**
   * Answers `method`'s calls for `channel` with 429 for the next `seconds`, each with Slack's Retry-After
   * (the whole seconds left), as Slack does past a method's limit in one channel.
   */
  rateLimit(method: string, channel: string, seconds: number): void;
  /** Holds the next call of `method` for `ms` before taking it (recording it and answering), as a slow Slack would. */
  delayNext(method: string, ms: number): void;
  setUser(id: string, user: FakeUser): void;
  /**
   * A user group: its members for usergroups.users.list (unknown groups: no_such_subteam), and its
   * handle and name for usergroups.list (made up from the id when not given).
   */
  setUsergroup(id: string, members: string[], names?: { handle?: string; name?: string }): void;
  /** Whether the app is a member of a channel, as conversations.info says (it is of every one until told). */
  setAppMember(channel: string, member: boolean): void;
  setSocketModeUrl(url: string): void;
  setHandler(method: string, handler: MethodHandler): void;
  /** A URL to use as a payload's `response_url`; POSTs to it are recorded as method `response_url`. */
  responseUrl(key?: string): string;
  /** Forgets calls, pending failures and limits, users, memberships and handlers; keeps the socket mode URL and the ts counter. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 3_000;

const FAKE_IDENTITY: Identity = {
  team: { id: 'T1', name: 'Acme' },
  app: { id: 'A1', botId: 'BBOT', userId: 'UBOT', name: 'gateway', handle: 'gateway' },
};
const FAKE_WEB_URL = 'https://acme.slack.com';

export async function startFakeSlackApi(options: FakeSlackApiOptions = {}): Promise<FakeSlackApi> {
  const recorded: RecordedCall[] = [];
  const failures = new Map<string, FakeFailure[]>();
  const delays = new Map<string, number[]>();
  /** `method channel` to the epoch ms its limit ends. */
  const limitedUntil = new Map<string, number>();
  const directory = new OpenDirectory(FAKE_IDENTITY, options.users);
  const handlers = new Map<string, MethodHandler>(Object.entries(options.handlers ?? {}));
  const emitter = new EventEmitter();
  // A test may wait for many calls at once (a stream of questions), each with a listener of its own.
  emitter.setMaxListeners(0);
  let socketModeUrl = options.socketModeUrl;
  let tsCounter = 100;
  let origin = '';

  // Slack message timestamps are "seconds.micros"; a counter keeps them unique and ordered within a run.
  const nextTs = (): string => {
    const n = tsCounter++;
    return `${1_700_000_000 + Math.floor(n / 1_000_000)}.${String(n % 1_000_000).padStart(6, '0')}`;
  };
  // Every token is taken: the tests check which one was sent from the recorded calls.
  const newStandIn = (): SlackStandIn =>
    new SlackStandIn(new SlackWorkspace(directory, { nextTs }), {
      botToken: undefined,
      origin: () => origin,
      webUrl: () => FAKE_WEB_URL,
      socketModeUrl: () => socketModeUrl,
    });
  let standIn = newStandIn();

  const defaultAnswer = async (call: RecordedCall, upload: Buffer | undefined): Promise<JsonObject> => {
    switch (call.method) {
      case 'file_upload':
        // The stand-in keeps the bytes (already out of their form) for files.completeUploadExternal.
        if (upload !== undefined) await standIn.upload(String(call.body.file_id), upload, undefined);
        return { ok: true };
      case 'response_url':
        return { ok: true };
      default:
        return standIn.call(call.method, call.body, call.token);
    }
  };

  const record = (call: RecordedCall): void => {
    recorded.push(call);
    emitter.emit('call', call);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const uploadMatch = /^\/upload\/([A-Z0-9]+)$/.exec(path);
    const method =
      apiMethodOf(path) ??
      (path.startsWith('/response-url/') ? 'response_url' : uploadMatch ? 'file_upload' : undefined);
    const raw = (await readBody(req)) ?? Buffer.alloc(0);
    if (method === undefined || req.method !== 'POST') {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`fake slack api: no route for ${req.method} ${path}`);
      return;
    }
    const delayMs = delays.get(method)?.shift();
    if (delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // An upload's body is the file (files.uploadV2 posts it to the URL it was given), recorded as text
    // and, for binary files such as a chart's PNG, as base64.
    const contentType = req.headers['content-type'];
    const upload = uploadMatch ? await uploadedBytes(raw, contentType) : undefined;
    const body =
      uploadMatch && upload
        ? { file_id: uploadMatch[1], content: upload.toString('utf8'), base64: upload.toString('base64') }
        : parseBody(raw.toString('utf8'), contentType);
    const call: RecordedCall = {
      method,
      body,
      token: tokenOf(req.headers.authorization, body),
      contentType,
      status: 200,
      response: undefined,
      at: Date.now(),
      remotePort: req.socket.remotePort,
    };

    const until = limitedUntil.get(`${method} ${String(body.channel)}`) ?? 0;
    const failure: FakeFailure | undefined =
      until > call.at
        ? { status: 429, retryAfter: Math.ceil((until - call.at) / 1000) }
        : takeFailure(failures, method);
    if (failure !== undefined) {
      if ('error' in failure) {
        call.response = { ok: false, error: failure.error };
        record(call);
        sendJson(res, 200, call.response);
        return;
      }
      call.status = failure.status;
      record(call);
      if (failure.status === 429) {
        // web-api only retries a 429 that carries Retry-After (seconds)
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(failure.retryAfter ?? 1),
        });
        res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      res
        .writeHead(failure.status, { 'content-type': 'text/plain' })
        .end('fake slack api: programmed failure');
      return;
    }

    const handler = handlers.get(method);
    // An overriding handler answers after Slack's Block Kit checks, as the stand-in's own answers do;
    // a response_url is checked here (its answer is the fake's, not the stand-in's).
    const answer = handler
      ? (blockKitRefusal(method, body) ?? handler(call))
      : method === 'response_url'
        ? (blockKitRefusal(method, body) ?? (await defaultAnswer(call, upload)))
        : await defaultAnswer(call, upload);
    // Answer before recording, so a waiter sees the response (e.g. the ts a post was given).
    call.response = answer;
    record(call);
    sendJson(res, 200, answer);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the fake must show up as a failed call, not as a hung test.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake slack api crashed: ${String(error)}`);
    });
  });
  // Keep-alive as a real Web API offers it (a sub-second one advertises `timeout=0`, which makes
  // clients drop every connection); close() ends pooled connections itself.
  server.keepAliveTimeout = 5_000;
  const { port } = await listen(server, 0, '127.0.0.1');
  origin = `http://127.0.0.1:${port}`;

  const calls = (method?: string): RecordedCall[] =>
    method === undefined ? [...recorded] : recorded.filter((c) => c.method === method);

  return {
    url: `${origin}/api/`,
    origin,
    calls,
    madeSince: (mark) => (call) => recorded.indexOf(call) >= mark,
    waitForCall(method, predicate = () => true, timeoutMs = DEFAULT_WAIT_MS) {
      const matches = (c: RecordedCall): boolean => c.method === method && predicate(c);
      const existing = recorded.find(matches);
      if (existing) return Promise.resolve(existing);
      let listener: ((c: RecordedCall) => void) | undefined;
      const found = new Promise<RecordedCall>((resolve) => {
        listener = (c: RecordedCall) => {
          if (matches(c)) resolve(c);
        };
        emitter.on('call', listener);
      });
      const seen = (): string =>
        recorded.length === 0
          ? 'no calls were made'
          : `calls seen: ${recorded.map((c) => `${c.method} ${JSON.stringify(c.body)}`).join('; ')}`;
      return withTimeout(found, timeoutMs, `fake slack api: no matching ${method} call`)
        .catch((error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : String(error)}; ${seen()}`);
        })
        .finally(() => {
          if (listener) emitter.off('call', listener);
        });
    },
    failNext(method, failure, times = 1) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push(failure);
      failures.set(method, queue);
    },
    rateLimit(method, channel, seconds) {
      limitedUntil.set(`${method} ${channel}`, Date.now() + seconds * 1000);
    },
    delayNext(method, ms) {
      delays.set(method, [...(delays.get(method) ?? []), ms]);
    },
    setUsergroup(id, members, names) {
      directory.setUsergroup(id, members, names);
    },
    setUser(id, user) {
      directory.setPerson(id, user);
    },
    setAppMember(channel, member) {
      directory.setAppMember(channel, member);
    },
    setSocketModeUrl(url) {
      socketModeUrl = url;
    },
    setHandler(method, handler) {
      handlers.set(method, handler);
    },
    responseUrl(key = 'default') {
      return `${origin}/response-url/${encodeURIComponent(key)}`;
    },
    reset() {
      recorded.length = 0;
      failures.clear();
      delays.clear();
      limitedUntil.clear();
      directory.clear();
      handlers.clear();
      // Forgets the messages and views it saw too; the ts counter goes on.
      standIn = newStandIn();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function takeFailure(failures: Map<string, FakeFailure[]>, method: string): FakeFailure | undefined {
  const queue = failures.get(method);
  const next = queue?.shift();
  if (queue?.length === 0) failures.delete(method);
  return next;
}

function sendJson(res: ServerResponse, status: number, body: JsonObject): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
