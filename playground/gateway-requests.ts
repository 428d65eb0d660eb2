// What a person does on the page becomes the request Slack would send for it: an Events API envelope,
// an interaction payload or a slash command form, signed with the v0 scheme and posted to the
// gateway's real POST /slack/events. Answers the gateway gives in the HTTP response (a modal's
// response_action, a command's immediate reply) are applied as Slack applies them.
import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { v0Signature } from '../src/slack/transport/v0-signature.js';
import type {
  assistantContextSchema,
  assistantOpenedSchema,
  clickSchema,
  closeViewSchema,
  homeOpenedSchema,
  sendMessageSchema,
  shortcutSchema,
  submitViewSchema,
} from './page-actions.js';
import type { AssistantThread, StateValues } from './protocol.js';
import type { SlackStandIn } from './slack-stand-in/web-api.js';
import { type MrkdwnNode, parseMrkdwn } from './web/mrkdwn.js';
import { APP, dmOf, type Workspace } from './workspace.js';

type Json = Record<string, unknown>;

const SLACK_EVENTS_PATH = '/slack/events';
const BOT_MENTION = new RegExp(`@(?:helpdesk(?: robot)?|${APP.userId})\\b`, 'gi');

/** The outcome told to the page: fine, or what went wrong, in words. */
export type Outcome = { ok: true } | { ok: false; error: string };

export interface GatewayRequestsOptions {
  gatewayUrl: string;
  signingSecret: string;
  workspace: Workspace;
  standIn: SlackStandIn;
}

export class GatewayRequests {
  readonly #options: GatewayRequestsOptions;
  #eventCounter = 0;

  constructor(options: GatewayRequestsOptions) {
    this.#options = options;
  }

  /** A message typed in the composer: a post (and its events), or a slash command. */
  async send(input: z.infer<typeof sendMessageSchema>): Promise<Outcome> {
    const { workspace } = this.#options;
    const conversation = workspace.conversation(input.channel);
    if (!workspace.persona(input.userId) || !conversation)
      return { ok: false, error: 'unknown person or conversation' };
    if (input.text.startsWith('/')) return this.#command(input);
    const threadTs = input.threadTs;
    const parent = threadTs === undefined ? undefined : workspace.message(input.channel, threadTs);
    if (threadTs !== undefined && !parent) return { ok: false, error: 'no such thread' };
    // Slack takes a panel's suggested prompts away once the person writes there.
    const assistant = threadTs === undefined ? undefined : workspace.assistantThread(input.channel, threadTs);
    if (assistant) assistant.prompts = [];
    // Slack escapes what people type (&, <, >) and writes mentions as <@U…>.
    const text = withMentions(escapeTyped(input.text), workspace);
    const ts = workspace.nextTs();
    workspace.addMessage({
      channel: input.channel,
      ts,
      threadTs,
      userId: input.userId,
      text,
      blocks: richTextOf(text),
      edited: false,
      files: [],
      visibleTo: undefined,
      refusal: undefined,
    });
    const event: Json = {
      type: 'message',
      user: input.userId,
      text,
      ts,
      event_ts: ts,
      team: workspace.company.team.id,
      client_msg_id: randomUUID(),
      blocks: richTextOf(text),
      channel: input.channel,
      channel_type: conversation.kind === 'im' ? 'im' : 'channel',
      ...(threadTs === undefined ? {} : { thread_ts: threadTs, parent_user_id: parent?.userId }),
    };
    const deliveries = [this.#postEvent(event)];
    // A mention in a channel reaches the app twice, as Slack sends it: as app_mention and as a message.
    if (conversation.kind === 'channel' && text.includes(`<@${APP.userId}>`)) {
      const { channel_type: _channelType, ...mention } = event;
      deliveries.push(this.#postEvent({ ...mention, type: 'app_mention' }));
    }
    return firstFailure(await Promise.all(deliveries));
  }

  /** The workspace removes the app: Slack revokes its bot token, then tells it the app was uninstalled. */
  async uninstalled(): Promise<Outcome> {
    const { workspace } = this.#options;
    // Rounded up: an uninstall in the second of the install is not taken for a stale one sent before it.
    const eventTime = Math.ceil(Date.now() / 1000);
    const revoked = await this.#postEvent(
      { type: 'tokens_revoked', tokens: { oauth: [], bot: [APP.userId] }, event_ts: workspace.nextTs() },
      eventTime,
    );
    if (!revoked.ok) return revoked;
    return this.#postEvent({ type: 'app_uninstalled', event_ts: workspace.nextTs() }, eventTime);
  }

  async homeOpened(input: z.infer<typeof homeOpenedSchema>): Promise<Outcome> {
    const home = this.#options.workspace.home(input.userId);
    return this.#postEvent({
      type: 'app_home_opened',
      user: input.userId,
      channel: dmOf(input.userId),
      tab: 'home',
      event_ts: this.#options.workspace.nextTs(),
      ...(home ? { view: home.view } : {}),
    });
  }

  /** The panel opens on a new thread: Slack tells the app with assistant_thread_started. */
  async assistantOpened(input: z.infer<typeof assistantOpenedSchema>): Promise<Outcome> {
    const { workspace } = this.#options;
    if (!workspace.persona(input.userId)) return { ok: false, error: 'unknown person' };
    if (input.channel !== undefined && !workspace.conversation(input.channel))
      return { ok: false, error: 'unknown conversation' };
    const thread = workspace.startAssistantThread(input.userId, input.channel);
    return this.#postEvent({
      type: 'assistant_thread_started',
      assistant_thread: assistantThreadJson(thread, workspace.company.team.id),
      event_ts: workspace.nextTs(),
    });
  }

  /** With the panel open the person looked elsewhere: Slack tells the app with assistant_thread_context_changed. */
  async assistantContextChanged(input: z.infer<typeof assistantContextSchema>): Promise<Outcome> {
    const { workspace } = this.#options;
    const thread = workspace.latestAssistantThread(input.userId);
    if (!thread) return { ok: false, error: 'the assistant panel is not open' };
    if (input.channel !== undefined && !workspace.conversation(input.channel))
      return { ok: false, error: 'unknown conversation' };
    if (thread.contextChannel === input.channel) return { ok: true };
    thread.contextChannel = input.channel;
    workspace.changed();
    return this.#postEvent({
      type: 'assistant_thread_context_changed',
      assistant_thread: assistantThreadJson(thread, workspace.company.team.id),
      event_ts: workspace.nextTs(),
    });
  }

  async click(input: z.infer<typeof clickSchema>): Promise<Outcome> {
    const { workspace, standIn } = this.#options;
    const { source } = input;
    const action: Json = {
      action_id: input.actionId,
      block_id: input.blockId,
      action_ts: workspace.nextTs(),
      // Slack leaves out what an element does not have (a button without a value has no `value`).
      ...Object.fromEntries(
        Object.entries(input.element).filter(([, value]) => value !== null && value !== undefined),
      ),
    };
    const base = this.#interactionBase(input.userId);
    if (source.kind === 'view') {
      const view = workspace.findView(source.viewId);
      if (!view) return { ok: false, error: 'this view is closed' };
      return this.#postInteraction({
        ...base,
        type: 'block_actions',
        container: { type: 'view', view_id: view.id },
        view: view.view,
        actions: [action],
      });
    }
    const message = workspace.message(source.channel, source.ts);
    if (!message) return { ok: false, error: 'this message is gone' };
    const ephemeral = source.kind === 'ephemeral';
    const conversation = workspace.conversation(source.channel);
    return this.#postInteraction({
      ...base,
      type: 'block_actions',
      container: {
        type: 'message',
        message_ts: message.ts,
        channel_id: message.channel,
        is_ephemeral: ephemeral,
        ...(message.threadTs === undefined ? {} : { thread_ts: message.threadTs }),
      },
      channel: {
        id: message.channel,
        name: conversation?.kind === 'channel' ? conversation.name : 'directmessage',
      },
      // Slack sends no message with a click in an ephemeral message.
      ...(ephemeral ? {} : { message: this.#options.standIn.messageJson(message) }),
      state: { values: {} },
      response_url: standIn.responseUrl({
        userId: input.userId,
        channel: message.channel,
        threadTs: message.threadTs,
        messageTs: message.ts,
      }),
      actions: [action],
    });
  }

  async submit(input: z.infer<typeof submitViewSchema>): Promise<Outcome> {
    const { workspace, standIn } = this.#options;
    const stack = workspace.modalStack(input.userId);
    const view = stack.find((candidate) => candidate.id === input.viewId);
    if (!view) return { ok: false, error: 'this view is closed' };
    const response = await this.#post(
      interactionBody({
        ...this.#interactionBase(input.userId),
        type: 'view_submission',
        view: { ...view.view, state: { values: stateValues(input.values) } },
        response_urls: [],
      }),
      'application/x-www-form-urlencoded',
    );
    if (!response.ok) return response;
    const reply = parseJson(response.body);
    switch (reply?.response_action) {
      case 'errors':
        view.errors = stringRecord(reply.errors);
        workspace.changed();
        return { ok: true };
      case 'update': {
        const refusal = standIn.replaceView(view.id, reply.view);
        return refusal
          ? { ok: false, error: `${refusal.error}: ${refusal.problems.join('; ')}` }
          : { ok: true };
      }
      case 'push': {
        const refusal = standIn.pushView(input.userId, reply.view);
        return refusal
          ? { ok: false, error: `${refusal.error}: ${refusal.problems.join('; ')}` }
          : { ok: true };
      }
      case 'clear':
        stack.length = 0;
        workspace.changed();
        return { ok: true };
      default:
        // An empty acknowledgement closes the view that was submitted (and those pushed over it).
        stack.splice(stack.indexOf(view));
        workspace.changed();
        return { ok: true };
    }
  }

  /** Closing a modal goes back to the one under it; Slack tells the app only when it asked to be told. */
  close(input: z.infer<typeof closeViewSchema>): Outcome {
    const { workspace } = this.#options;
    const stack = workspace.modalStack(input.userId);
    const index = stack.findIndex((view) => view.id === input.viewId);
    if (index < 0) return { ok: false, error: 'this view is closed' };
    const closing = stack[index];
    stack.splice(closing?.view.clear_on_close === true ? 0 : index);
    workspace.changed();
    return { ok: true };
  }

  async shortcut(input: z.infer<typeof shortcutSchema>): Promise<Outcome> {
    const { workspace, standIn } = this.#options;
    const message = workspace.message(input.channel, input.ts);
    if (!message) return { ok: false, error: 'this message is gone' };
    const conversation = workspace.conversation(input.channel);
    return this.#postInteraction({
      ...this.#interactionBase(input.userId),
      type: 'message_action',
      callback_id: input.callbackId,
      message_ts: message.ts,
      channel: {
        id: message.channel,
        name: conversation?.kind === 'channel' ? conversation.name : 'directmessage',
      },
      message: this.#options.standIn.messageJson(message),
      response_url: standIn.responseUrl({
        userId: input.userId,
        channel: message.channel,
        threadTs: message.threadTs,
        messageTs: message.ts,
      }),
    });
  }

  async #command(input: z.infer<typeof sendMessageSchema>): Promise<Outcome> {
    const { workspace, standIn } = this.#options;
    const [command = '', ...words] = input.text.split(' ');
    const channelName = workspace.conversation(input.channel)?.name ?? '';
    if (command !== workspace.slashCommand) {
      // Slack itself answers a command no app offers, only to whoever typed it.
      workspace.addMessage({
        channel: input.channel,
        ts: workspace.nextTs(),
        threadTs: input.threadTs,
        userId: 'USLACKBOT',
        text: `\`${command}\` is not a valid command. In the playground the app's command is \`${workspace.slashCommand}\`.`,
        blocks: undefined,
        edited: false,
        files: [],
        visibleTo: input.userId,
        refusal: undefined,
      });
      return { ok: true };
    }
    const fields: Record<string, string> = {
      token: 'playground-verification-token',
      team_id: workspace.company.team.id,
      team_domain: workspace.company.team.domain,
      channel_id: input.channel,
      channel_name: channelName,
      user_id: input.userId,
      user_name: workspace.persona(input.userId)?.name ?? input.userId,
      command,
      text: escapeCommand(words.join(' '), workspace),
      api_app_id: APP.id,
      is_enterprise_install: 'false',
      response_url: standIn.responseUrl({
        userId: input.userId,
        channel: input.channel,
        threadTs: input.threadTs,
        messageTs: undefined,
      }),
      trigger_id: workspace.newTrigger(input.userId),
    };
    const response = await this.#post(
      new URLSearchParams(fields).toString(),
      'application/x-www-form-urlencoded',
    );
    if (!response.ok) return response;
    // A reply in the acknowledgement itself is shown like one sent to the response_url.
    const reply = parseJson(response.body);
    if (reply && (typeof reply.text === 'string' || Array.isArray(reply.blocks))) {
      const url = new URL(fields.response_url ?? '');
      standIn.respond(url.pathname.split('/').pop() ?? '', reply);
    }
    return { ok: true };
  }

  #interactionBase(userId: string): Json {
    const persona = this.#options.workspace.persona(userId);
    const { team } = this.#options.workspace.company;
    return {
      user: {
        id: userId,
        username: persona?.name ?? userId,
        name: persona?.name ?? userId,
        team_id: team.id,
      },
      api_app_id: APP.id,
      token: 'playground-verification-token',
      trigger_id: this.#options.workspace.newTrigger(userId),
      team: { id: team.id, domain: team.domain },
      enterprise: null,
      is_enterprise_install: false,
    };
  }

  #postEvent(event: Json, eventTime = Math.floor(Date.now() / 1000)): Promise<Outcome> {
    const teamId = this.#options.workspace.company.team.id;
    this.#eventCounter += 1;
    const eventId = `Ev0PLAY${String(this.#eventCounter).padStart(8, '0')}`;
    const envelope = {
      token: 'playground-verification-token',
      team_id: teamId,
      context_team_id: teamId,
      context_enterprise_id: null,
      api_app_id: APP.id,
      event,
      type: 'event_callback',
      event_id: eventId,
      event_time: eventTime,
      authorizations: [
        {
          enterprise_id: null,
          team_id: teamId,
          user_id: APP.userId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    };
    return this.#post(JSON.stringify(envelope), 'application/json');
  }

  #postInteraction(payload: Json): Promise<Outcome> {
    return this.#post(interactionBody(payload), 'application/x-www-form-urlencoded');
  }

  async #post(
    body: string,
    contentType: string,
  ): Promise<(Outcome & { ok: false }) | { ok: true; body: string }> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    try {
      const response = await fetch(new URL(SLACK_EVENTS_PATH, this.#options.gatewayUrl), {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': v0Signature(this.#options.signingSecret, timestamp, body),
        },
        body,
        // Slack gives up on an app after three seconds; the page is told the same.
        signal: AbortSignal.timeout(3_000),
      });
      const text = await response.text();
      if (response.status !== 200)
        return { ok: false, error: `the gateway answered HTTP ${response.status}: ${text.slice(0, 200)}` };
      return { ok: true, body: text };
    } catch (error) {
      return {
        ok: false,
        error: `the gateway did not answer in time (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
}

/** An assistant event's `assistant_thread`: whose, where, and the channel beside it (none on Home). */
function assistantThreadJson(thread: AssistantThread, teamId: string): Json {
  return {
    user_id: thread.userId,
    context: {
      ...(thread.contextChannel === undefined ? {} : { channel_id: thread.contextChannel }),
      team_id: teamId,
      enterprise_id: null,
    },
    channel_id: thread.channel,
    thread_ts: thread.threadTs,
  };
}

function interactionBody(payload: Json): string {
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function firstFailure(outcomes: Outcome[]): Outcome {
  return outcomes.find((outcome) => !outcome.ok) ?? { ok: true };
}

/** `@Helpdesk Robot`, `@Name` and `@group-handle` as Slack's client writes them: `<@U…>`, `<!subteam^S…>`. */
function withMentions(text: string, workspace: Workspace): string {
  let result = text.replace(BOT_MENTION, `<@${APP.userId}>`);
  for (const persona of workspace.company.personas) {
    const first = persona.name.split(' ')[0] ?? persona.name;
    // Not followed by a letter of a Latin name; Chinese names are matched as typed.
    result = result.replace(new RegExp(`@${escapeRegExp(first)}(?![A-Za-z0-9_])`, 'g'), `<@${persona.id}>`);
  }
  return result.replace(TYPED_NAME, (typed) => {
    const group = typed.startsWith('@') ? workspace.usergroupNamed(typed.slice(1)) : undefined;
    return group ? `<!subteam^${group.id}>` : typed;
  });
}

/** A `#name` or `@name` in a command: a name runs to a space, a comma or the end (Chinese names too). */
const TYPED_NAME = /(?<=^|[\s,:])[#@][\p{L}\p{N}._-]+/gu;

/**
 * A slash command's text as Slack sends it with should_escape (manifest.yml): &, < and > escaped, and
 * each channel, person and user group it knows by name written with its id; other names stay as typed.
 */
function escapeCommand(text: string, workspace: Workspace): string {
  return escapeTyped(text).replace(TYPED_NAME, (typed) => workspace.escapedName(typed) ?? typed);
}

function escapeTyped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeTyped(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Slack's rich_text rendering of what a person typed, mentions as user and usergroup elements. */
function richTextOf(text: string): unknown[] {
  const elements = text
    .split(/(<@[A-Z0-9]+>|<!subteam\^[A-Z0-9]+>)/)
    .filter((part) => part !== '')
    .flatMap((part) => {
      const mention = /^<@([A-Z0-9]+)>$/.exec(part);
      if (mention) return [{ type: 'user', user_id: mention[1] }];
      const group = /^<!subteam\^([A-Z0-9]+)>$/.exec(part);
      return group ? [{ type: 'usergroup', usergroup_id: group[1] }] : typedElements(part);
    });
  return [
    {
      type: 'rich_text',
      block_id: randomBytes(3).toString('base64url'),
      elements: [{ type: 'rich_text_section', elements }],
    },
  ];
}

type TypedStyle = Partial<Record<'bold' | 'italic' | 'strike' | 'code', true>>;

/**
 * Typed text (escaped) as Slack's composer sends it: *bold*, _italic_, ~strike~ and `code` as styles,
 * :emoji: and links as their own elements. Quotes and code blocks stay as typed.
 */
function typedElements(escaped: string): unknown[] {
  const elements: unknown[] = [];
  const styled = (style: TypedStyle) => (Object.keys(style).length > 0 ? { style } : {});
  const walk = (nodes: MrkdwnNode[], style: TypedStyle): boolean =>
    nodes.every((node) => {
      switch (node.kind) {
        case 'bold':
        case 'italic':
        case 'strike':
          return walk(node.children, { ...style, [node.kind]: true });
        case 'text':
          elements.push({ type: 'text', text: node.text, ...styled(style) });
          return true;
        case 'break':
          elements.push({ type: 'text', text: '\n', ...styled(style) });
          return true;
        case 'code':
          elements.push({ type: 'text', text: node.text, style: { ...style, code: true } });
          return true;
        case 'emoji':
          elements.push({ type: 'emoji', name: node.name, ...styled(style) });
          return true;
        case 'link':
          elements.push({ type: 'link', url: node.url, ...styled(style) });
          return true;
        default:
          return false;
      }
    });
  return walk(parseMrkdwn(escaped), {}) ? elements : [{ type: 'text', text: unescapeTyped(escaped) }];
}

/** view.state.values as Slack sends them: every element's value under its block and action ids. */
function stateValues(values: StateValues): Json {
  return Object.fromEntries(
    Object.entries(values).map(([blockId, actions]) => [
      blockId,
      Object.fromEntries(Object.entries(actions).map(([actionId, value]) => [actionId, { ...value }])),
    ]),
  );
}

function parseJson(text: string): Json | undefined {
  if (text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).map(([key, text]) => [key, String(text)]));
}
