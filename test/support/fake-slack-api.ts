// A fake Slack Web API on loopback, speaking the wire format @slack/web-api uses (POST <slackApiUrl><method>).
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { blockKitRefusal } from '../../playground/block-kit-checks.js';
import { listen } from '../../src/util/listen.js';
import { withTimeout } from './wait.js';

export type JsonObject = Record<string, unknown>;

export interface RecordedCall {
  /** Web API method (`chat.postMessage`), or `response_url` for POSTs to a URL from `responseUrl()`. */
  method: string;
  /** Parsed body; JSON-valued form fields (`blocks`, `attachments`, ...) are parsed back into objects. */
  body: JsonObject;
  /** Bearer token from the Authorization header, else the `token` body field. */
  token: string | undefined;
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

interface FakeUser {
  displayName?: string | undefined;
  realName?: string | undefined;
  name?: string | undefined;
  /** Only returned when the caller passes include_locale=true, as Slack does. */
  locale?: string | undefined;
  teamId?: string | undefined;
  isBot?: boolean | undefined;
  /** Slack's `tz`; Asia/Tokyo when not given. */
  timeZone?: string | undefined;
}

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
  /** Resolves with the first call (already recorded or future) of `method` matching `predicate`. */
  waitForCall(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  /** Makes the next `times` calls of `method` fail as described. */
  failNext(method: string, failure: FakeFailure, times?: number): void;
  /** Holds the next call of `method` for `ms` before taking it (recording it and answering), as a slow Slack would. */
  delayNext(method: string, ms: number): void;
  setUser(id: string, user: FakeUser): void;
  /** Members usergroups.users.list answers for a user group (unknown groups: no_such_subteam). */
  setUsergroup(id: string, members: string[]): void;
  setSocketModeUrl(url: string): void;
  setHandler(method: string, handler: MethodHandler): void;
  /** A URL to use as a payload's `response_url`; POSTs to it are recorded as method `response_url`. */
  responseUrl(key?: string): string;
  /** Forgets calls, pending failures, users and handlers; keeps the socket mode URL and the ts counter. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 3_000;

const FAKE_BOT = {
  userId: 'UBOT',
  botId: 'BBOT',
  appId: 'A1',
  teamId: 'T1',
  user: 'gateway',
  team: 'Acme',
} as const;

export async function startFakeSlackApi(options: FakeSlackApiOptions = {}): Promise<FakeSlackApi> {
  const recorded: RecordedCall[] = [];
  const failures = new Map<string, FakeFailure[]>();
  const delays = new Map<string, number[]>();
  const users = new Map<string, FakeUser>(Object.entries(options.users ?? {}));
  const handlers = new Map<string, MethodHandler>(Object.entries(options.handlers ?? {}));
  const usergroups = new Map<string, string[]>();
  let viewCounter = 0;
  let uploadCounter = 0;
  const emitter = new EventEmitter();
  let socketModeUrl = options.socketModeUrl;
  let tsCounter = 100;

  // Slack message timestamps are "seconds.micros"; a counter keeps them unique and ordered within a run.
  const nextTs = (): string => {
    const n = tsCounter++;
    return `${1_700_000_000 + Math.floor(n / 1_000_000)}.${String(n % 1_000_000).padStart(6, '0')}`;
  };

  const userInfo = (id: string, includeLocale: boolean): JsonObject => {
    const u = users.get(id) ?? {};
    const displayName = u.displayName ?? `User ${id}`;
    const realName = u.realName ?? displayName;
    const user: JsonObject = {
      id,
      team_id: u.teamId ?? FAKE_BOT.teamId,
      name: u.name ?? id.toLowerCase(),
      real_name: realName,
      is_bot: u.isBot ?? false,
      deleted: false,
      tz: u.timeZone ?? 'Asia/Tokyo',
      profile: { display_name: displayName, real_name: realName, team: u.teamId ?? FAKE_BOT.teamId },
    };
    if (includeLocale && u.locale !== undefined) user.locale = u.locale;
    return { ok: true, user };
  };

  const messageEcho = (body: JsonObject, ts: string): JsonObject => {
    const message: JsonObject = {
      type: 'message',
      user: FAKE_BOT.userId,
      bot_id: FAKE_BOT.botId,
      app_id: FAKE_BOT.appId,
      team: FAKE_BOT.teamId,
      text: body.text ?? '',
      ts,
    };
    if (body.blocks !== undefined) message.blocks = body.blocks;
    if (body.thread_ts !== undefined) message.thread_ts = body.thread_ts;
    if (body.metadata !== undefined) message.metadata = body.metadata;
    return message;
  };

  const defaultAnswer = (call: RecordedCall): JsonObject => {
    const { body } = call;
    switch (call.method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://acme.slack.com/',
          team: FAKE_BOT.team,
          user: FAKE_BOT.user,
          team_id: FAKE_BOT.teamId,
          user_id: FAKE_BOT.userId,
          bot_id: FAKE_BOT.botId,
          is_enterprise_install: false,
        };
      case 'chat.postMessage': {
        const ts = nextTs();
        return { ok: true, channel: body.channel, ts, message: messageEcho(body, ts) };
      }
      case 'chat.update':
        return {
          ok: true,
          channel: body.channel,
          ts: body.ts,
          text: body.text ?? '',
          message: messageEcho(body, String(body.ts)),
        };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: nextTs() };
      case 'chat.delete':
        return { ok: true, channel: body.channel, ts: body.ts };
      case 'reactions.add':
      case 'reactions.remove':
        return { ok: true };
      case 'users.info':
        return userInfo(String(body.user), body.include_locale === true || body.include_locale === 'true');
      case 'conversations.info': {
        const id = String(body.channel);
        const isIm = id.startsWith('D');
        return {
          ok: true,
          channel: {
            id,
            name: isIm ? undefined : `channel-${id.toLowerCase()}`,
            is_channel: id.startsWith('C'),
            is_group: id.startsWith('G'),
            is_im: isIm,
            is_private: !id.startsWith('C'),
            is_member: true,
            context_team_id: FAKE_BOT.teamId,
          },
        };
      }
      case 'chat.getPermalink': {
        const channel = String(body.channel);
        const ts = String(body.message_ts);
        return {
          ok: true,
          channel,
          permalink: `https://acme.slack.com/archives/${channel}/p${ts.replace('.', '')}`,
        };
      }
      case 'views.open': {
        viewCounter += 1;
        const view = typeof body.view === 'object' && body.view !== null ? body.view : {};
        return {
          ok: true,
          view: { ...view, id: `V${String(viewCounter).padStart(8, '0')}`, hash: `h${viewCounter}` },
        };
      }
      case 'views.update': {
        const view = typeof body.view === 'object' && body.view !== null ? body.view : {};
        return { ok: true, view: { ...view, id: body.view_id } };
      }
      case 'views.publish': {
        viewCounter += 1;
        const view = typeof body.view === 'object' && body.view !== null ? body.view : {};
        return { ok: true, view: { ...view, id: `V${String(viewCounter).padStart(8, '0')}` } };
      }
      case 'conversations.open': {
        // One DM per user, named after them, as Slack keeps one IM per pair.
        const user = String(body.users ?? '').split(',')[0] ?? '';
        return { ok: true, channel: { id: `D${user.replace(/^[UW]/, '')}` } };
      }
      case 'files.getUploadURLExternal': {
        uploadCounter += 1;
        const fileId = `F${String(uploadCounter).padStart(8, '0')}`;
        return { ok: true, upload_url: `${origin}/upload/${fileId}`, file_id: fileId };
      }
      case 'file_upload':
        return { ok: true };
      case 'files.completeUploadExternal': {
        const files = Array.isArray(body.files) ? body.files : [];
        return { ok: true, files };
      }
      case 'usergroups.users.list': {
        const members = usergroups.get(String(body.usergroup));
        return members === undefined ? { ok: false, error: 'no_such_subteam' } : { ok: true, users: members };
      }
      case 'apps.connections.open':
        return socketModeUrl === undefined
          ? { ok: false, error: 'fake_socket_mode_url_not_set' }
          : { ok: true, url: socketModeUrl };
      case 'response_url':
        return { ok: true };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  };

  const record = (call: RecordedCall): void => {
    recorded.push(call);
    emitter.emit('call', call);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const apiMatch = /^\/api\/([A-Za-z0-9_.]+)$/.exec(path);
    const uploadMatch = /^\/upload\/([A-Z0-9]+)$/.exec(path);
    const method =
      apiMatch?.[1] ??
      (path.startsWith('/response-url/') ? 'response_url' : uploadMatch ? 'file_upload' : undefined);
    const raw = await readBody(req);
    if (method === undefined || req.method !== 'POST') {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`fake slack api: no route for ${req.method} ${path}`);
      return;
    }
    const delayMs = delays.get(method)?.shift();
    if (delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // An upload's body is the file (files.uploadV2 posts it to the URL it was given), recorded as text.
    const body = uploadMatch
      ? { file_id: uploadMatch[1], content: await uploadedText(raw, req.headers['content-type']) }
      : parseBody(raw, req.headers['content-type']);
    const call: RecordedCall = {
      method,
      body,
      token: bearer(req.headers.authorization) ?? (typeof body.token === 'string' ? body.token : undefined),
      status: 200,
      response: undefined,
      at: Date.now(),
      remotePort: req.socket.remotePort,
    };

    const failure = takeFailure(failures, method);
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
    // Slack checks Block Kit before anything else, with the same checks as the playground's stand-in.
    const refused = blockKitRefusal(method, body);
    // Answer before recording, so a waiter sees the response (e.g. the ts a post was given).
    const answer = refused ?? (handler ? handler(call) : defaultAnswer(call));
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
  const origin = `http://127.0.0.1:${port}`;

  const calls = (method?: string): RecordedCall[] =>
    method === undefined ? [...recorded] : recorded.filter((c) => c.method === method);

  return {
    url: `${origin}/api/`,
    origin,
    calls,
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
    delayNext(method, ms) {
      delays.set(method, [...(delays.get(method) ?? []), ms]);
    },
    setUsergroup(id, members) {
      usergroups.set(id, [...members]);
    },
    setUser(id, user) {
      users.set(id, user);
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
      users.clear();
      handlers.clear();
      usergroups.clear();
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

function bearer(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: JsonObject): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Exported for the self-tests: form fields that web-api JSON-encoded come back as objects. */
/** The file's text, sent raw or as the one file of a multipart form (as the SDK's upload does). */
async function uploadedText(raw: string, contentType: string | undefined): Promise<string> {
  if (!contentType?.startsWith('multipart/form-data')) return raw;
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  for (const value of form.values()) {
    // Blob.text() would drop a byte-order mark: decode the bytes as they came.
    if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer()).toString('utf8');
  }
  return '';
}

export function parseBody(raw: string, contentType: string | undefined): JsonObject {
  if (raw === '') return {};
  if (contentType?.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return isJsonObject(parsed) ? parsed : { _json: parsed };
    } catch {
      return { _raw: raw };
    }
  }
  const out: JsonObject = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    out[key] = parseFormValue(value);
  }
  return out;
}

function parseFormValue(value: string): unknown {
  // web-api JSON.stringifies objects and arrays; other values arrive as plain strings.
  if (value.startsWith('{') || value.startsWith('[')) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}
