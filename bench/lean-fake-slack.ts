// A lean fake Slack Web API for the load bench: it records nothing, reads only the fields it needs, and
// reports when the answer to a question reaches Slack. test/support/fake-slack-api.ts keeps every call
// with its parsed blocks for ever (tens of thousands of objects in a run) and emits each one to
// listeners, which would put its GC and lookup costs into the latencies of both systems under test.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../src/util/listen.js';

export const LEAN_BOT = { userId: 'UBOT', botId: 'BBOT', teamId: 'T1' } as const;

export interface LeanFakeSlackOptions {
  /** True for a "working on it" placeholder: the answer comes later, as a chat.update of that message. */
  isPlaceholder(text: string): boolean;
  /**
   * Called once per reply that carries an answer. `key` is `channel:thread_ts` for a reply in a
   * thread, else `channel` (a top-level DM reply).
   */
  onAnswer(key: string, at: number): void;
  /** Channels whose posts answer no question (the review channel, say): not counted as answers. */
  quietChannels?: readonly string[];
}

export interface LeanFakeSlack {
  /** Pass as the Web API base URL (ends with `/api/`). */
  url: string;
  /**
   * Web API calls per method since the last reset; with `token`, only those made with it (each system
   * under test has a token of its own, so a late call of one is not counted against another).
   */
  counts(token?: string): Record<string, number>;
  resetCounts(): void;
  close(): Promise<void>;
}

export async function startLeanFakeSlack(options: LeanFakeSlackOptions): Promise<LeanFakeSlack> {
  let tsCounter = 0;
  // Calls per bot token, then per method.
  let counts = new Map<string, Map<string, number>>();
  // `channel:ts` of each placeholder → the question's key; deleted when the answer replaces it.
  const placeholders = new Map<string, string>();

  const nextTs = (): string => {
    tsCounter += 1;
    return `${1_800_000_000 + Math.floor(tsCounter / 1_000_000)}.${String(tsCounter % 1_000_000).padStart(6, '0')}`;
  };

  const answer = (method: string, fields: URLSearchParams, at: number): Record<string, unknown> => {
    const channel = fields.get('channel') ?? '';
    const text = fields.get('text') ?? '';
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          team_id: LEAN_BOT.teamId,
          user_id: LEAN_BOT.userId,
          bot_id: LEAN_BOT.botId,
          team: 'Acme',
          user: 'gateway',
        };
      case 'users.info': {
        const id = fields.get('user') ?? '';
        const name = `Bench User ${id}`;
        return {
          ok: true,
          user: {
            id,
            name: id.toLowerCase(),
            real_name: name,
            locale: 'en-US',
            profile: { display_name: name, real_name: name },
          },
        };
      }
      case 'chat.postMessage': {
        const ts = nextTs();
        const threadTs = fields.get('thread_ts');
        const key = threadTs ? `${channel}:${threadTs}` : channel;
        if (options.isPlaceholder(text)) placeholders.set(`${channel}:${ts}`, key);
        // Review cards and the like go to channels of their own, not in answer to a question.
        else if (!options.quietChannels?.includes(channel)) options.onAnswer(key, at);
        return {
          ok: true,
          channel,
          ts,
          message: { type: 'message', bot_id: LEAN_BOT.botId, user: LEAN_BOT.userId, text, ts },
        };
      }
      case 'oauth.v2.access': {
        // The bench's install codes name the workspace and the token to issue: `T0WS007.xoxb-…`.
        const [team = '', issued = ''] = (fields.get('code') ?? '').split('.');
        if (!team || !issued) return { ok: false, error: 'invalid_code' };
        return {
          ok: true,
          app_id: 'A0BENCH',
          authed_user: { id: 'U0BENCHADMIN' },
          scope: 'chat:write',
          token_type: 'bot',
          access_token: issued,
          bot_user_id: LEAN_BOT.userId,
          team: { id: team, name: `Workspace ${team}` },
          enterprise: null,
          is_enterprise_install: false,
        };
      }
      case 'chat.update': {
        const ts = fields.get('ts') ?? '';
        const key = placeholders.get(`${channel}:${ts}`);
        if (key !== undefined && !options.isPlaceholder(text)) {
          placeholders.delete(`${channel}:${ts}`);
          options.onAnswer(key, at);
        }
        return { ok: true, channel, ts, text };
      }
      default:
        return { ok: true };
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const at = performance.now();
    const method = /^\/api\/([A-Za-z0-9_.]+)$/.exec(req.url ?? '')?.[1] ?? 'unknown';
    // @slack/web-api posts form fields; a JSON body is read too, in case a client sends one.
    const fields = req.headers['content-type']?.startsWith('application/json')
      ? jsonFields(raw)
      : new URLSearchParams(raw);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? fields.get('token') ?? '';
    let byMethod = counts.get(token);
    if (!byMethod) {
      byMethod = new Map();
      counts.set(token, byMethod);
    }
    byMethod.set(method, (byMethod.get(method) ?? 0) + 1);
    const body = JSON.stringify(answer(method, fields, at));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.keepAliveTimeout = 5_000;
  const { port } = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}/api/`,
    counts(token) {
      const total: Record<string, number> = {};
      for (const [caller, byMethod] of counts) {
        // A system installed in many workspaces has a token per workspace: `<its token>/<team>`.
        if (token !== undefined && caller !== token && !caller.startsWith(`${token}/`)) continue;
        for (const [method, count] of byMethod) total[method] = (total[method] ?? 0) + count;
      }
      return total;
    },
    resetCounts() {
      counts = new Map();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function jsonFields(raw: string): URLSearchParams {
  const fields = new URLSearchParams();
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [key, value] of Object.entries(parsed)) {
        if (typeof value === 'string') fields.set(key, value);
      }
    }
  } catch {
    // Not JSON: no fields.
  }
  return fields;
}
