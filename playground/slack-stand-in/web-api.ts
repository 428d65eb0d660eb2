// The stand-in for Slack's Web API, the one the playground and the tests both talk to: each method
// the gateway calls is answered here once, as Slack answers it (same fields, same errors, Block Kit
// checked by the shared checks), applied to a workspace. A new method is taught here, once.
import { randomBytes } from 'node:crypto';
import type {
  AssistantPrompt,
  AssistantThread,
  FileShare,
  PlaygroundMessage,
  PlaygroundView,
} from '../protocol.js';
import { checkMessage, checkUpdate, checkView, type Refusal, refusalResponse } from './block-kit-checks.js';
import { dmOf, type Identity } from './directory.js';
import { uploadedBytes } from './wire.js';
import type { SlackWorkspace } from './workspace.js';

type Json = Record<string, unknown>;

/** Where a response_url posts: who it answers, where, and the message it came from. */
export interface ResponseTarget {
  userId: string;
  channel: string;
  threadTs: string | undefined;
  messageTs: string | undefined;
}

const FILE_PREVIEW_BYTES = 4096;
/** assistant.threads.setSuggestedPrompts takes up to four prompts. */
const SUGGESTED_PROMPTS_MAX = 4;
/** assistant.threads.setStatus rotates through up to ten loading messages. */
const LOADING_MESSAGES_MAX = 10;
const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** files.getUploadURLExternal's limit on an image's description. */
const ALT_TEXT_MAX = 1000;
/** The image types Slack shows inline, by their first bytes. */
const IMAGE_SIGNATURES: readonly [mimetype: string, signature: Buffer][] = [
  ['image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['image/jpeg', Buffer.from([0xff, 0xd8, 0xff])],
  ['image/gif', Buffer.from('GIF8', 'latin1')],
];

function imageOf(bytes: Buffer, altText: string | undefined): FileShare['image'] {
  const found = IMAGE_SIGNATURES.find(([, signature]) =>
    bytes.subarray(0, signature.length).equals(signature),
  );
  return found ? { url: `data:${found[0]};base64,${bytes.toString('base64')}`, altText } : undefined;
}

interface PendingUpload {
  name: string;
  bytes: Buffer | undefined;
  altText?: string | undefined;
}

export interface SlackStandInOptions {
  /** The one token it accepts; undefined accepts any (the tests check which token was sent themselves). */
  botToken: string | undefined;
  /** Where the server it sits behind is reached: upload and response_url addresses start with it. */
  origin: () => string;
  /** The workspace's web address (auth.test's url, permalinks); the origin when not given. */
  webUrl?: (() => string) | undefined;
  /** What apps.connections.open hands out; undefined while there is none. */
  socketModeUrl?: (() => string | undefined) | undefined;
}

export class SlackStandIn {
  readonly #workspace: SlackWorkspace;
  readonly #identity: Identity;
  readonly #options: SlackStandInOptions;
  readonly #uploads = new Map<string, PendingUpload>();
  /** Files shared in a conversation: an image block may name them by slack_file. */
  readonly #sharedFiles = new Set<string>();
  readonly #responseTargets = new Map<string, ResponseTarget>();
  /** What a URL belonging to no message (a slash command's) last posted, by its key. */
  readonly #commandPosts = new Map<string, string>();

  constructor(workspace: SlackWorkspace, options: SlackStandInOptions) {
    this.#workspace = workspace;
    this.#identity = workspace.directory.identity;
    this.#options = options;
  }

  #origin(): string {
    return this.#options.origin();
  }

  #webUrl(): string {
    return (this.#options.webUrl ?? this.#options.origin)();
  }

  /** Answers one Web API call; records it for the page's log of what the gateway sent. */
  call(method: string, body: Json, token: string | undefined): Json {
    const { botToken } = this.#options;
    const answer =
      botToken === undefined || token === botToken
        ? this.#answer(method, body)
        : { ok: false, error: 'invalid_auth' };
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
    // A command's URL belongs to no message: Slack's replace_original changes what it last posted.
    const originalTs = target.messageTs ?? this.#commandPosts.get(key);
    const original =
      originalTs === undefined ? undefined : this.#workspace.message(target.channel, originalTs);
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
    const posted = {
      ...this.#newMessage(target.channel, target.threadTs, body),
      visibleTo: body.response_type === 'in_channel' ? undefined : target.userId,
    };
    this.#workspace.addMessage(posted);
    if (target.messageTs === undefined) this.#commandPosts.set(key, posted.ts);
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
    const bytes = await uploadedBytes(body, contentType);
    if (bytes.length > UPLOAD_MAX_BYTES) return { status: 413, text: 'too large' };
    pending.bytes = bytes;
    return { status: 200, text: `OK - ${bytes.length}` };
  }

  #answer(method: string, body: Json): Json {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: `${this.#webUrl()}/`,
          team: this.#identity.team.name,
          user: this.#identity.app.handle,
          team_id: this.#identity.team.id,
          user_id: this.#identity.app.userId,
          bot_id: this.#identity.app.botId,
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
        if (!this.#workspace.namedMessage(channel, ts)) return { ok: false, error: 'message_not_found' };
        return {
          ok: true,
          channel,
          permalink: `${this.#webUrl()}/archives/${channel}/p${ts.replace('.', '')}`,
        };
      }
      case 'users.info':
        return this.#userInfo(body);
      case 'conversations.info': {
        const place = this.#workspace.directory.place(String(body.channel));
        if (!place) return { ok: false, error: 'channel_not_found' };
        return {
          ok: true,
          channel: {
            id: place.id,
            ...(place.name === undefined ? {} : { name: place.name }),
            ...(place.userId === undefined ? {} : { user: place.userId }),
            is_channel: place.kind === 'channel',
            is_group: place.kind === 'group',
            is_im: place.kind === 'im',
            is_private: place.kind !== 'channel',
            is_member: place.appIsMember,
            context_team_id: this.#identity.team.id,
          },
        };
      }
      case 'conversations.replies':
        return this.#replies(body);
      case 'conversations.open': {
        // The app's DM with a person: one per person, named after them, as Slack keeps one IM per pair.
        const user = String(body.users ?? '').split(',')[0] ?? '';
        return this.#workspace.directory.person(user)
          ? { ok: true, channel: { id: dmOf(user) } }
          : { ok: false, error: 'user_not_found' };
      }
      case 'usergroups.users.list': {
        const group = this.#workspace.directory.usergroups().find(({ id }) => id === String(body.usergroup));
        return group === undefined
          ? { ok: false, error: 'no_such_subteam' }
          : { ok: true, users: [...group.members] };
      }
      case 'usergroups.list':
        return this.#usergroupsList(body);
      case 'apps.connections.open': {
        const url = this.#options.socketModeUrl?.();
        return url === undefined ? { ok: false, error: 'fake_socket_mode_url_not_set' } : { ok: true, url };
      }
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
        // Slack documents `alt_txt`; @slack/web-api's files.uploadV2 sends `alt_text`: either is kept.
        const altText = typeof body.alt_txt === 'string' ? body.alt_txt : body.alt_text;
        if (typeof altText === 'string' && [...altText].length > ALT_TEXT_MAX) {
          return { ok: false, error: 'alt_txt_too_large' };
        }
        const fileId = `F0STAND${randomBytes(4).toString('hex').toUpperCase()}`;
        this.#uploads.set(fileId, {
          name: stringOr(body.filename, 'file'),
          bytes: undefined,
          altText: typeof altText === 'string' ? altText : undefined,
        });
        return { ok: true, upload_url: `${this.#origin()}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal':
        return this.#completeUpload(body);
      case 'assistant.threads.setStatus':
        return this.#setAssistantStatus(body);
      case 'assistant.threads.setSuggestedPrompts':
        return this.#setSuggestedPrompts(body);
      case 'assistant.threads.setTitle':
        return this.#setAssistantTitle(body);
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  #channelOf(body: Json): string | undefined {
    const channel = typeof body.channel === 'string' ? body.channel : undefined;
    if (channel === undefined) return undefined;
    const { directory } = this.#workspace;
    if (directory.place(channel)) return channel;
    // Posting to a user id posts to the app's DM with that person, as Slack does.
    return channel.startsWith('U') && directory.person(channel) ? dmOf(channel) : undefined;
  }

  #newMessage(channel: string, threadTs: string | undefined, body: Json): PlaygroundMessage {
    return {
      channel,
      ts: this.#workspace.nextTs(),
      threadTs,
      userId: this.#identity.app.userId,
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
      userId: this.#identity.app.userId,
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
    const parent = this.#workspace.namedMessage(channel, body.thread_ts);
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
    // The app's reply in an assistant thread ends its "is looking this up…", as in Slack.
    const assistant = thread === undefined ? undefined : this.#workspace.assistantThread(channel, thread);
    if (assistant) assistant.status = '';
    return { ok: true, channel, ts: message.ts, message: this.messageJson(message) };
  }

  /** The assistant thread an assistant.threads.* call names, or Slack's error for it. */
  #assistantThreadOf(body: Json): AssistantThread | { error: string; problems?: string[] } {
    const problems: string[] = [];
    if (typeof body.channel_id !== 'string' || body.channel_id === '') problems.push(missing('/channel_id'));
    if (typeof body.thread_ts !== 'string' || body.thread_ts === '') problems.push(missing('/thread_ts'));
    if (problems.length > 0) return { error: 'invalid_arguments', problems };
    const channel = String(body.channel_id);
    if (!this.#workspace.directory.place(channel)) return { error: 'channel_not_found' };
    // Not a message timestamp at all: no thread can have it, even where unseen threads are assumed.
    if (!/^\d+\.\d+$/.test(String(body.thread_ts))) return { error: 'invalid_thread_ts' };
    const thread = this.#workspace.namedAssistantThread(channel, String(body.thread_ts));
    return thread ?? { error: 'invalid_thread_ts' };
  }

  #setAssistantStatus(body: Json): Json {
    const thread = this.#assistantThreadOf(body);
    if ('error' in thread) return failure(thread);
    if (typeof body.status !== 'string')
      return failure({ error: 'invalid_arguments', problems: [missing('/status')] });
    const loading = parseJsonField(body.loading_messages);
    const loadingMessages = Array.isArray(loading) ? loading.filter((line) => typeof line === 'string') : [];
    const problems: string[] = [];
    if (loadingMessages.length > LOADING_MESSAGES_MAX)
      problems.push(
        `[ERROR] must be less than ${LOADING_MESSAGES_MAX + 1} items [json-pointer:/loading_messages]`,
      );
    if (problems.length > 0) return failure({ error: 'invalid_arguments', problems });
    thread.status = body.status;
    thread.loadingMessages = body.status === '' ? [] : loadingMessages;
    this.#workspace.changed();
    return { ok: true };
  }

  /** Slack's checks: up to four prompts, each with a title and the message it sends. */
  #setSuggestedPrompts(body: Json): Json {
    const thread = this.#assistantThreadOf(body);
    if ('error' in thread) return failure(thread);
    const prompts = parseJsonField(body.prompts);
    if (!Array.isArray(prompts))
      return failure({ error: 'invalid_arguments', problems: [missing('/prompts')] });
    const problems: string[] = [];
    if (prompts.length > SUGGESTED_PROMPTS_MAX)
      problems.push(`[ERROR] must be less than ${SUGGESTED_PROMPTS_MAX + 1} items [json-pointer:/prompts]`);
    const checked: AssistantPrompt[] = [];
    prompts.forEach((prompt, index) => {
      const item = asJson(prompt);
      for (const field of ['title', 'message'] as const) {
        const value = item[field];
        if (typeof value !== 'string' || value.trim() === '')
          problems.push(`[ERROR] must be more than 0 characters [json-pointer:/prompts/${index}/${field}]`);
      }
      checked.push({ title: stringOr(item.title, ''), message: stringOr(item.message, '') });
    });
    if (problems.length > 0) return failure({ error: 'invalid_arguments', problems });
    thread.prompts = checked;
    thread.promptsTitle = typeof body.title === 'string' && body.title !== '' ? body.title : undefined;
    this.#workspace.changed();
    return { ok: true };
  }

  #setAssistantTitle(body: Json): Json {
    const thread = this.#assistantThreadOf(body);
    if ('error' in thread) return failure(thread);
    if (typeof body.title !== 'string' || body.title.trim() === '')
      return failure({ error: 'invalid_arguments', problems: [missing('/title')] });
    thread.title = body.title;
    this.#workspace.changed();
    return { ok: true };
  }

  #update(body: Json): Json {
    const channel = this.#channelOf(body);
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const message = this.#workspace.namedMessage(channel, String(body.ts));
    if (!message || message.visibleTo !== undefined) return { ok: false, error: 'message_not_found' };
    if (message.userId !== this.#identity.app.userId) return { ok: false, error: 'cant_update_message' };
    const refusal = checkUpdate(body);
    if (refusal) {
      this.#showRefusal('chat.update', refusal, channel, message.threadTs);
      return refusalResponse(refusal);
    }
    if (typeof body.text === 'string') message.text = body.text;
    if (body.blocks !== undefined) message.blocks = blocksOf(body.blocks);
    message.edited = true;
    this.#workspace.changed();
    return { ok: true, channel, ts: message.ts, text: message.text, message: this.messageJson(message) };
  }

  /**
   * A thread by the ts of its parent or of any reply, as Slack answers: the parent first, then the
   * replies between oldest and latest (inclusive: the app reads one message back by its own ts).
   */
  #replies(body: Json): Json {
    const channel = String(body.channel ?? '');
    if (!this.#workspace.directory.place(channel)) return { ok: false, error: 'channel_not_found' };
    const named = this.#workspace.message(channel, String(body.ts ?? ''));
    if (!named || named.visibleTo !== undefined) return { ok: false, error: 'thread_not_found' };
    const parentTs = named.threadTs ?? named.ts;
    const oldest = typeof body.oldest === 'string' ? body.oldest : '0';
    const latest = typeof body.latest === 'string' ? body.latest : '9999999999.999999';
    const { messages } = this.#workspace.contents();
    const parent = messages.find((message) => message.channel === channel && message.ts === parentTs);
    const replies = messages.filter(
      (message) =>
        message.channel === channel &&
        message.threadTs === parentTs &&
        message.visibleTo === undefined &&
        Number(message.ts) >= Number(oldest) &&
        Number(message.ts) <= Number(latest),
    );
    return {
      ok: true,
      messages: [...(parent ? [parent] : []), ...replies].map((message) => this.messageJson(message)),
      has_more: false,
    };
  }

  #delete(body: Json): Json {
    const channel = this.#channelOf(body);
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const message = this.#workspace.namedMessage(channel, String(body.ts));
    if (!message || message.visibleTo !== undefined) return { ok: false, error: 'message_not_found' };
    if (message.userId !== this.#identity.app.userId) return { ok: false, error: 'cant_delete_message' };
    this.#workspace.deleteMessage(message);
    return { ok: true, channel, ts: message.ts };
  }

  #postEphemeral(body: Json): Json {
    const channel = this.#channelOf(body);
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const user = typeof body.user === 'string' ? this.#workspace.directory.person(body.user) : undefined;
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

  /** Every user group, in Slack's shape: `users` only with include_users, `user_count` only with include_count. */
  #usergroupsList(body: Json): Json {
    const withUsers = body.include_users === true || body.include_users === 'true';
    const withCount = body.include_count === true || body.include_count === 'true';
    const { team, app } = this.#identity;
    return {
      ok: true,
      usergroups: this.#workspace.directory.usergroups().map((group) => ({
        id: group.id,
        team_id: team.id,
        is_usergroup: true,
        is_subteam: true,
        name: group.name,
        description: '',
        handle: group.handle,
        is_external: false,
        date_create: 1_700_000_000,
        date_update: 1_700_000_000,
        date_delete: 0,
        auto_type: null,
        auto_provision: false,
        enterprise_subteam_id: '',
        created_by: app.userId,
        updated_by: app.userId,
        deleted_by: null,
        prefs: { channels: [], groups: [] },
        ...(withUsers ? { users: [...group.members] } : {}),
        ...(withCount ? { user_count: group.members.length } : {}),
      })),
    };
  }

  #userInfo(body: Json): Json {
    const person = this.#workspace.directory.person(String(body.user));
    if (!person) return { ok: false, error: 'user_not_found' };
    const includeLocale = body.include_locale === true || body.include_locale === 'true';
    return {
      ok: true,
      user: {
        id: person.id,
        team_id: person.teamId,
        name: person.handle,
        real_name: person.realName,
        is_bot: person.isBot,
        deleted: false,
        tz: person.timeZone,
        profile: { display_name: person.displayName, real_name: person.realName, team: person.teamId },
        ...(includeLocale && person.locale !== undefined ? { locale: person.locale } : {}),
      },
    };
  }

  #openView(body: Json, how: 'open' | 'push'): Json {
    const trigger = this.#workspace.useTrigger(body.trigger_id);
    if ('error' in trigger) return { ok: false, error: trigger.error };
    const refusal = this.#checkView(body.view);
    if (refusal) return refusalResponse(refusal);
    const stack = this.#workspace.modalStack(trigger.userId);
    if (how === 'push' && stack.length === 0) return { ok: false, error: 'not_found' };
    // Slack keeps at most three modals in a stack.
    if (how === 'push' && stack.length >= 3) return { ok: false, error: 'push_limit_reached' };
    const previous = stack.at(-1);
    const id = this.#workspace.nextViewId();
    const view = this.#viewJson(asJson(body.view), {
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
        ? this.#workspace.namedView(body.view_id)
        : typeof body.external_id === 'string'
          ? this.#workspace.findViewByExternalId(body.external_id)
          : undefined;
    if (!found) return { ok: false, error: 'not_found' };
    if (typeof body.hash === 'string' && body.hash !== found.view.hash)
      return { ok: false, error: 'hash_conflict' };
    const refusal = this.#checkView(body.view);
    if (refusal) return refusalResponse(refusal);
    this.#replaceView(found, asJson(body.view));
    return { ok: true, view: found.view };
  }

  /** Replaces a view in place, as views.update and `response_action: update` do. */
  replaceView(viewId: string, next: unknown): Refusal | undefined {
    const found = this.#workspace.findView(viewId);
    const refusal = this.#checkView(next);
    if (refusal || !found) return refusal;
    this.#replaceView(found, asJson(next));
    return undefined;
  }

  /** Pushes a view over `viewId`, as `response_action: push` does. */
  pushView(userId: string, next: unknown): Refusal | undefined {
    const refusal = this.#checkView(next);
    if (refusal) return refusal;
    const stack = this.#workspace.modalStack(userId);
    const id = this.#workspace.nextViewId();
    const view = this.#viewJson(asJson(next), {
      id,
      rootViewId: String(stack[0]?.id ?? id),
      previousViewId: stack.at(-1)?.id,
    });
    stack.push({ id, userId, view, errors: {} });
    this.#workspace.changed();
    return undefined;
  }

  #replaceView(found: PlaygroundView, next: Json): void {
    found.view = this.#viewJson(next, {
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
    if (!this.#workspace.directory.person(userId)) return { ok: false, error: 'user_not_found' };
    const refusal = this.#checkView(body.view);
    if (refusal) return refusalResponse(refusal);
    const existing = this.#workspace.home(userId);
    if (existing && typeof body.hash === 'string' && body.hash !== existing.view.hash) {
      return { ok: false, error: 'hash_conflict' };
    }
    const id = existing?.id ?? this.#workspace.nextViewId();
    const view = this.#viewJson(asJson(body.view), { id, rootViewId: id, previousViewId: undefined });
    this.#workspace.setHome(userId, { id, userId, view, errors: {} });
    return { ok: true, view };
  }

  /** Block Kit as Slack checks it, and every slack_file a file shared where people can see it. */
  #checkView(view: unknown): Refusal | undefined {
    const refusal = checkView(view);
    const blocks = asJson(view).blocks;
    if (refusal || !Array.isArray(blocks)) return refusal;
    const problems: string[] = [];
    blocks.forEach((block, index) => {
      const named = asJson(block).slack_file;
      const file = named === undefined ? undefined : asJson(named);
      // An upload shared nowhere is its uploader's alone: Slack shows it to nobody else.
      if (file && !(typeof file.id === 'string' && this.#sharedFiles.has(file.id))) {
        problems.push(`invalid slack file [json-pointer:/blocks/${index}/slack_file]`);
      }
    });
    return problems.length === 0 ? undefined : { error: 'invalid_blocks', problems };
  }

  #completeUpload(body: Json): Json {
    const listed = parseJsonField(body.files);
    if (!Array.isArray(listed) || listed.length === 0) return { ok: false, error: 'invalid_arguments' };
    const shares: FileShare[] = [];
    for (const entry of listed) {
      const item = asJson(entry);
      const id = typeof item.id === 'string' ? item.id : '';
      const pending = this.#uploadOf(id);
      if (!pending?.bytes) return { ok: false, error: 'file_not_found' };
      const image = imageOf(pending.bytes, pending.altText);
      this.#uploads.delete(id);
      shares.push({
        id,
        name: pending.name,
        title: stringOr(item.title, pending.name),
        size: pending.bytes.length,
        ...(image
          ? { image, preview: undefined }
          : { preview: pending.bytes.subarray(0, FILE_PREVIEW_BYTES).toString('utf8') }),
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
      for (const share of shares) this.#sharedFiles.add(share.id);
    }
    return {
      ok: true,
      files: shares.map((share) => ({ id: share.id, title: share.title, name: share.name })),
    };
  }

  /** An upload it gave the address for, or, when the directory assumes the unseen, an empty one. */
  #uploadOf(fileId: string): PendingUpload | undefined {
    const pending = this.#uploads.get(fileId);
    if (pending || !this.#workspace.directory.assumesUnseen) return pending;
    return { name: 'file', bytes: Buffer.alloc(0) };
  }

  /** A message as Slack echoes it back in chat.* answers and interaction payloads. */
  messageJson(message: PlaygroundMessage): Json {
    const { app, team } = this.#identity;
    const isApp = message.userId === app.userId;
    return {
      type: 'message',
      user: message.userId,
      ...(isApp ? { bot_id: app.botId, app_id: app.id } : {}),
      team: team.id,
      text: message.text,
      ts: message.ts,
      ...(message.threadTs === undefined ? {} : { thread_ts: message.threadTs }),
      ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
      ...(message.subtype === undefined ? {} : { subtype: message.subtype }),
    };
  }

  /**
   * A view as Slack returns it: ids filled in, every block given a block_id and every element an
   * action_id (Slack makes them up when the app gave none), empty state, a new hash.
   */
  #viewJson(view: Json, ids: { id: string; rootViewId: string; previousViewId: string | undefined }): Json {
    const { app, team } = this.#identity;
    return {
      ...view,
      id: ids.id,
      team_id: team.id,
      app_id: app.id,
      bot_id: app.botId,
      app_installed_team_id: team.id,
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

/** A required argument left out, worded as Slack words it. */
function missing(pointer: string): string {
  return `[ERROR] missing required field [json-pointer:${pointer}]`;
}

/** Slack's answer to an argument it refuses: the error, and each problem under response_metadata. */
function failure(refused: { error: string; problems?: string[] }): Json {
  return refused.problems === undefined || refused.problems.length === 0
    ? { ok: false, error: refused.error }
    : { ok: false, error: refused.error, response_metadata: { messages: refused.problems } };
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** One line for the page's log of calls: the method's target and the start of its text. */
function summarize(method: string, body: Json): string {
  const where = [
    body.channel,
    body.channel_id,
    body.ts,
    body.thread_ts,
    body.user,
    body.user_id,
    body.view_id,
  ]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');
  const said = body.text ?? body.status ?? body.title;
  const text = typeof said === 'string' ? said.replace(/\s+/g, ' ').slice(0, 80) : '';
  return `${method} ${where}${text ? ` “${text}”` : ''}`.trim();
}
