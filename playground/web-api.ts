// The stand-in for Slack's Web API: the methods the gateway calls, answered as Slack answers them
// (same fields, same errors, Block Kit checked by the shared checks), applied to the workspace.
import { randomBytes } from 'node:crypto';
import { checkMessage, checkView, type Refusal, refusalResponse } from './block-kit-checks.js';
import type { FileShare, PlaygroundMessage, PlaygroundView } from './protocol.js';
import { APP, dmOf, TEAM, type Workspace } from './workspace.js';

type Json = Record<string, unknown>;

/** Where a response_url posts: who it answers, where, and the message it came from. */
export interface ResponseTarget {
  userId: string;
  channel: string;
  threadTs: string | undefined;
  messageTs: string | undefined;
}

const FILE_PREVIEW_BYTES = 4096;
const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export class SlackStandIn {
  readonly #workspace: Workspace;
  readonly #botToken: string;
  readonly #origin: () => string;
  readonly #uploads = new Map<string, { name: string; bytes: Buffer | undefined }>();
  readonly #responseTargets = new Map<string, ResponseTarget>();

  constructor(workspace: Workspace, options: { botToken: string; origin: () => string }) {
    this.#workspace = workspace;
    this.#botToken = options.botToken;
    this.#origin = options.origin;
  }

  /** Answers one Web API call; records it for the page's log of what the gateway sent. */
  call(method: string, body: Json, token: string | undefined): Json {
    const answer =
      token === this.#botToken ? this.#answer(method, body) : { ok: false, error: 'invalid_auth' };
    const error = answer.ok === true ? undefined : String(answer.error);
    this.#workspace.recordCall({ method, ok: answer.ok === true, error, summary: summarize(method, body) });
    return answer;
  }

  /** A new response_url for an interaction, answered by `respond`. */
  responseUrl(target: ResponseTarget): string {
    const key = randomBytes(12).toString('hex');
    this.#responseTargets.set(key, target);
    return `${this.#origin()}/response-url/${key}`;
  }

  /** A POST to a response_url: an ephemeral reply by default, or in the channel, or replacing the original. */
  respond(key: string, body: Json): { status: number; answer: Json } {
    const target = this.#responseTargets.get(key);
    if (!target) return { status: 404, answer: { ok: false, error: 'expired_url' } };
    const summary = summarize('response_url', body);
    const original =
      target.messageTs === undefined ? undefined : this.#workspace.message(target.channel, target.messageTs);
    if (body.delete_original === true || body.delete_original === 'true') {
      this.#workspace.recordCall({ method: 'response_url', ok: true, error: undefined, summary });
      if (original) this.#workspace.deleteMessage(original);
      return { status: 200, answer: { ok: true } };
    }
    const refusal = checkMessage(body);
    if (refusal) {
      this.#workspace.recordCall({ method: 'response_url', ok: false, error: refusal.error, summary });
      this.#showRefusal('response_url', refusal, target.channel, target.threadTs);
      return { status: 400, answer: refusalResponse(refusal) };
    }
    this.#workspace.recordCall({ method: 'response_url', ok: true, error: undefined, summary });
    if ((body.replace_original === true || body.replace_original === 'true') && original) {
      original.text = stringOr(body.text, '');
      original.blocks = blocksOf(body.blocks);
      original.edited = true;
      this.#workspace.changed();
      return { status: 200, answer: { ok: true } };
    }
    this.#workspace.addMessage({
      ...this.#newMessage(target.channel, target.threadTs, body),
      visibleTo: body.response_type === 'in_channel' ? undefined : target.userId,
    });
    return { status: 200, answer: { ok: true } };
  }

  /** The bytes of a files.getUploadURLExternal upload: the body itself, or a multipart form's file. */
  async upload(
    fileId: string,
    body: Buffer,
    contentType: string | undefined,
  ): Promise<{ status: number; text: string }> {
    const pending = this.#uploads.get(fileId);
    if (!pending) return { status: 404, text: 'unknown upload' };
    const bytes = contentType?.startsWith('multipart/form-data')
      ? await firstFormFile(body, contentType)
      : body;
    if (bytes.length > UPLOAD_MAX_BYTES) return { status: 413, text: 'too large' };
    pending.bytes = bytes;
    return { status: 200, text: `OK - ${bytes.length}` };
  }

  #answer(method: string, body: Json): Json {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: `${this.#origin()}/`,
          team: TEAM.name,
          user: 'helpdesk_robot',
          team_id: TEAM.id,
          user_id: APP.userId,
          bot_id: APP.botId,
          is_enterprise_install: false,
        };
      case 'chat.postMessage':
        return this.#postMessage(body);
      case 'chat.update':
        return this.#update(body);
      case 'chat.delete':
        return this.#delete(body);
      case 'chat.postEphemeral':
        return this.#postEphemeral(body);
      case 'chat.getPermalink': {
        const channel = String(body.channel);
        const ts = String(body.message_ts);
        if (!this.#workspace.message(channel, ts)) return { ok: false, error: 'message_not_found' };
        return {
          ok: true,
          channel,
          permalink: `${this.#origin()}/archives/${channel}/p${ts.replace('.', '')}`,
        };
      }
      case 'users.info':
        return this.#userInfo(body);
      case 'conversations.info': {
        const conversation = this.#workspace.conversation(String(body.channel));
        if (!conversation) return { ok: false, error: 'channel_not_found' };
        return {
          ok: true,
          channel: {
            id: conversation.id,
            ...(conversation.kind === 'channel'
              ? { name: conversation.name }
              : { user: conversation.userId }),
            is_channel: conversation.kind === 'channel',
            is_im: conversation.kind === 'im',
            is_private: conversation.kind === 'im',
            is_member: true,
            context_team_id: TEAM.id,
          },
        };
      }
      case 'conversations.open': {
        // The app's DM with a person (the playground has one per person).
        const user = String(body.users ?? '').split(',')[0] ?? '';
        return this.#workspace.persona(user)
          ? { ok: true, channel: { id: dmOf(user) } }
          : { ok: false, error: 'user_not_found' };
      }
      case 'usergroups.users.list':
        return { ok: false, error: 'no_such_subteam' };
      case 'reactions.add':
      case 'reactions.remove':
        return { ok: true };
      case 'views.open':
        return this.#openView(body, 'open');
      case 'views.push':
        return this.#openView(body, 'push');
      case 'views.update':
        return this.#updateView(body);
      case 'views.publish':
        return this.#publish(body);
      case 'files.getUploadURLExternal': {
        const fileId = `F0PLAY${randomBytes(4).toString('hex').toUpperCase()}`;
        this.#uploads.set(fileId, { name: stringOr(body.filename, 'file'), bytes: undefined });
        return { ok: true, upload_url: `${this.#origin()}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal':
        return this.#completeUpload(body);
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  #channelOf(body: Json): string | undefined {
    const channel = typeof body.channel === 'string' ? body.channel : undefined;
    if (channel === undefined) return undefined;
    // Posting to a user id posts to the app's DM with that person, as Slack does.
    if (channel.startsWith('U') && this.#workspace.persona(channel)) return dmOf(channel);
    return this.#workspace.conversation(channel) ? channel : undefined;
  }

  #newMessage(channel: string, threadTs: string | undefined, body: Json): PlaygroundMessage {
    return {
      channel,
      ts: this.#workspace.nextTs(),
      threadTs,
      userId: APP.userId,
      text: stringOr(body.text, ''),
      blocks: blocksOf(body.blocks),
      edited: false,
      files: [],
      visibleTo: undefined,
      refusal: undefined,
    };
  }

  /** What Slack refused is shown where the message would have gone, as the error Slack gave. */
  #showRefusal(method: string, refusal: Refusal, channel: string, threadTs: string | undefined): void {
    this.#workspace.addMessage({
      channel,
      ts: this.#workspace.nextTs(),
      threadTs,
      userId: APP.userId,
      text: '',
      blocks: undefined,
      edited: false,
      files: [],
      visibleTo: undefined,
      refusal: { method, error: refusal.error, problems: refusal.problems },
    });
  }

  #threadOf(channel: string, body: Json): string | undefined | { error: string } {
    if (typeof body.thread_ts !== 'string' || body.thread_ts === '') return undefined;
    const parent = this.#workspace.message(channel, body.thread_ts);
    if (!parent) return { error: 'thread_not_found' };
    // A reply to a reply goes to the thread it is in.
    return parent.threadTs ?? parent.ts;
  }

  #postMessage(body: Json): Json {
    const channel = this.#channelOf(body);
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const thread = this.#threadOf(channel, body);
    if (typeof thread === 'object') return { ok: false, error: thread.error };
    const refusal = checkMessage(body);
    if (refusal) {
      this.#showRefusal('chat.postMessage', refusal, channel, thread);
      return refusalResponse(refusal);
    }
    const message = this.#newMessage(channel, thread, body);
    this.#workspace.addMessage(message);
    return { ok: true, channel, ts: message.ts, message: messageJson(message) };
  }

  #update(body: Json): Json {
    const channel = this.#channelOf(body);
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const message = this.#workspace.message(channel, String(body.ts));
    if (!message || message.visibleTo !== undefined) return { ok: false, error: 'message_not_found' };
    if (message.userId !== APP.userId) return { ok: false, error: 'cant_update_message' };
    const refusal = checkMessage({ text: body.text ?? message.text, blocks: body.blocks });
    if (refusal) {
      this.#showRefusal('chat.update', refusal, channel, message.threadTs);
      return refusalResponse(refusal);
    }
    if (typeof body.text === 'string') message.text = body.text;
    if (body.blocks !== undefined) message.blocks = blocksOf(body.blocks);
    message.edited = true;
    this.#workspace.changed();
    return { ok: true, channel, ts: message.ts, text: message.text, message: messageJson(message) };
  }

  #delete(body: Json): Json {
    const channel = this.#channelOf(body);
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const message = this.#workspace.message(channel, String(body.ts));
    if (!message || message.visibleTo !== undefined) return { ok: false, error: 'message_not_found' };
    if (message.userId !== APP.userId) return { ok: false, error: 'cant_delete_message' };
    this.#workspace.deleteMessage(message);
    return { ok: true, channel, ts: message.ts };
  }

  #postEphemeral(body: Json): Json {
    const channel = this.#channelOf(body);
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const user = typeof body.user === 'string' ? this.#workspace.persona(body.user) : undefined;
    if (!user) return { ok: false, error: 'user_not_found' };
    const thread = this.#threadOf(channel, body);
    if (typeof thread === 'object') return { ok: false, error: thread.error };
    const refusal = checkMessage(body);
    if (refusal) {
      this.#showRefusal('chat.postEphemeral', refusal, channel, thread);
      return refusalResponse(refusal);
    }
    const message = { ...this.#newMessage(channel, thread, body), visibleTo: user.id };
    this.#workspace.addMessage(message);
    return { ok: true, message_ts: message.ts };
  }

  #userInfo(body: Json): Json {
    const id = String(body.user);
    if (id === APP.userId) {
      return {
        ok: true,
        user: { id, name: 'helpdesk_robot', real_name: APP.name, is_bot: true, deleted: false },
      };
    }
    const persona = this.#workspace.persona(id);
    if (!persona) return { ok: false, error: 'user_not_found' };
    const includeLocale = body.include_locale === true || body.include_locale === 'true';
    return {
      ok: true,
      user: {
        id,
        team_id: TEAM.id,
        name: persona.name.toLowerCase().replace(/\s+/g, '.'),
        real_name: persona.name,
        is_bot: false,
        deleted: false,
        tz: 'Asia/Shanghai',
        profile: { display_name: persona.name, real_name: persona.name, team: TEAM.id },
        ...(includeLocale ? { locale: persona.locale } : {}),
      },
    };
  }

  #openView(body: Json, how: 'open' | 'push'): Json {
    const trigger = this.#workspace.useTrigger(body.trigger_id);
    if ('error' in trigger) return { ok: false, error: trigger.error };
    const refusal = checkView(body.view);
    if (refusal) return refusalResponse(refusal);
    const stack = this.#workspace.modalStack(trigger.userId);
    if (how === 'push' && stack.length === 0) return { ok: false, error: 'not_found' };
    // Slack keeps at most three modals in a stack.
    if (how === 'push' && stack.length >= 3) return { ok: false, error: 'push_limit_reached' };
    const previous = stack.at(-1);
    const id = this.#workspace.nextViewId();
    const view = viewJson(asJson(body.view), {
      id,
      rootViewId: how === 'open' ? id : String(stack[0]?.id),
      previousViewId: how === 'push' ? previous?.id : undefined,
    });
    if (how === 'open') stack.length = 0;
    stack.push({ id, userId: trigger.userId, view, errors: {} });
    this.#workspace.changed();
    return { ok: true, view };
  }

  #updateView(body: Json): Json {
    const found =
      typeof body.view_id === 'string'
        ? this.#workspace.findView(body.view_id)
        : typeof body.external_id === 'string'
          ? this.#workspace.findViewByExternalId(body.external_id)
          : undefined;
    if (!found) return { ok: false, error: 'not_found' };
    if (typeof body.hash === 'string' && body.hash !== found.view.hash)
      return { ok: false, error: 'hash_conflict' };
    const refusal = checkView(body.view);
    if (refusal) return refusalResponse(refusal);
    this.#replaceView(found, asJson(body.view));
    return { ok: true, view: found.view };
  }

  /** Replaces a view in place, as views.update and `response_action: update` do. */
  replaceView(viewId: string, next: unknown): Refusal | undefined {
    const found = this.#workspace.findView(viewId);
    const refusal = checkView(next);
    if (refusal || !found) return refusal;
    this.#replaceView(found, asJson(next));
    return undefined;
  }

  /** Pushes a view over `viewId`, as `response_action: push` does. */
  pushView(userId: string, next: unknown): Refusal | undefined {
    const refusal = checkView(next);
    if (refusal) return refusal;
    const stack = this.#workspace.modalStack(userId);
    const id = this.#workspace.nextViewId();
    const view = viewJson(asJson(next), {
      id,
      rootViewId: String(stack[0]?.id ?? id),
      previousViewId: stack.at(-1)?.id,
    });
    stack.push({ id, userId, view, errors: {} });
    this.#workspace.changed();
    return undefined;
  }

  #replaceView(found: PlaygroundView, next: Json): void {
    found.view = viewJson(next, {
      id: found.id,
      rootViewId: String(found.view.root_view_id ?? found.id),
      previousViewId:
        typeof found.view.previous_view_id === 'string' ? found.view.previous_view_id : undefined,
    });
    found.errors = {};
    this.#workspace.changed();
  }

  #publish(body: Json): Json {
    const userId = typeof body.user_id === 'string' ? body.user_id : '';
    if (!this.#workspace.persona(userId)) return { ok: false, error: 'user_not_found' };
    const refusal = checkView(body.view);
    if (refusal) return refusalResponse(refusal);
    const existing = this.#workspace.home(userId);
    if (existing && typeof body.hash === 'string' && body.hash !== existing.view.hash) {
      return { ok: false, error: 'hash_conflict' };
    }
    const id = existing?.id ?? this.#workspace.nextViewId();
    const view = viewJson(asJson(body.view), { id, rootViewId: id, previousViewId: undefined });
    this.#workspace.setHome(userId, { id, userId, view, errors: {} });
    return { ok: true, view };
  }

  #completeUpload(body: Json): Json {
    const listed = parseJsonField(body.files);
    if (!Array.isArray(listed) || listed.length === 0) return { ok: false, error: 'invalid_arguments' };
    const shares: FileShare[] = [];
    for (const entry of listed) {
      const item = asJson(entry);
      const id = typeof item.id === 'string' ? item.id : '';
      const pending = this.#uploads.get(id);
      if (!pending?.bytes) return { ok: false, error: 'file_not_found' };
      this.#uploads.delete(id);
      shares.push({
        id,
        name: pending.name,
        title: stringOr(item.title, pending.name),
        size: pending.bytes.length,
        preview: pending.bytes.subarray(0, FILE_PREVIEW_BYTES).toString('utf8'),
      });
    }
    const channel =
      typeof body.channel_id === 'string' ? this.#channelOf({ channel: body.channel_id }) : undefined;
    if (channel) {
      const thread = this.#threadOf(channel, body);
      if (typeof thread === 'object') return { ok: false, error: thread.error };
      const message = this.#newMessage(channel, thread, { text: stringOr(body.initial_comment, '') });
      message.files = shares;
      this.#workspace.addMessage(message);
    }
    return {
      ok: true,
      files: shares.map((share) => ({ id: share.id, title: share.title, name: share.name })),
    };
  }
}

/** A message as Slack echoes it back in chat.* answers and interaction payloads. */
export function messageJson(message: PlaygroundMessage): Json {
  const isApp = message.userId === APP.userId;
  return {
    type: 'message',
    user: message.userId,
    ...(isApp ? { bot_id: APP.botId, app_id: APP.id } : {}),
    team: TEAM.id,
    text: message.text,
    ts: message.ts,
    ...(message.threadTs === undefined ? {} : { thread_ts: message.threadTs }),
    ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
  };
}

/**
 * A view as Slack returns it: ids filled in, every block given a block_id and every element an
 * action_id (Slack makes them up when the app gave none), empty state, a new hash.
 */
function viewJson(
  view: Json,
  ids: { id: string; rootViewId: string; previousViewId: string | undefined },
): Json {
  return {
    ...view,
    id: ids.id,
    team_id: TEAM.id,
    app_id: APP.id,
    bot_id: APP.botId,
    app_installed_team_id: TEAM.id,
    blocks: withIds(blocksOf(view.blocks) ?? []),
    private_metadata: stringOr(view.private_metadata, ''),
    callback_id: stringOr(view.callback_id, ''),
    external_id: stringOr(view.external_id, ''),
    state: { values: {} },
    hash: `${Date.now()}.${randomBytes(4).toString('hex')}`,
    clear_on_close: view.clear_on_close === true,
    notify_on_close: view.notify_on_close === true,
    root_view_id: ids.rootViewId,
    previous_view_id: ids.previousViewId ?? null,
  };
}

function withIds(blocks: unknown[]): unknown[] {
  return blocks.map((block) => {
    if (typeof block !== 'object' || block === null || Array.isArray(block)) return block;
    const json = block as Json;
    const withBlockId = typeof json.block_id === 'string' ? json : { ...json, block_id: shortId() };
    if (typeof json.element === 'object' && json.element !== null && !Array.isArray(json.element)) {
      const element = json.element as Json;
      if (typeof element.action_id !== 'string')
        return { ...withBlockId, element: { ...element, action_id: shortId() } };
    }
    return withBlockId;
  });
}

async function firstFormFile(body: Buffer, contentType: string): Promise<Buffer> {
  const form = await new Response(new Uint8Array(body), {
    headers: { 'content-type': contentType },
  }).formData();
  for (const value of form.values()) {
    if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  }
  return Buffer.alloc(0);
}

function shortId(): string {
  return randomBytes(3).toString('base64url');
}

/** Blocks as the app sent them: a JSON array, or the JSON string web-api sends in a form field. */
function blocksOf(value: unknown): unknown[] | undefined {
  const parsed = parseJsonField(value);
  return Array.isArray(parsed) ? withIds(parsed) : undefined;
}

function parseJsonField(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function asJson(value: unknown): Json {
  const parsed = parseJsonField(value);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : {};
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** One line for the page's log of calls: the method's target and the start of its text. */
function summarize(method: string, body: Json): string {
  const where = [body.channel, body.channel_id, body.ts, body.user, body.user_id, body.view_id]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');
  const text = typeof body.text === 'string' ? body.text.replace(/\s+/g, ' ').slice(0, 80) : '';
  return `${method} ${where}${text ? ` “${text}”` : ''}`.trim();
}
