// Payload factories shaped like the recorded payloads in test/fixtures; every field can be overridden.

export const IDS = {
  team: 'T1',
  teamDomain: 'acme',
  app: 'A1',
  botUser: 'UBOT',
  bot: 'BBOT',
  user: 'U061F7AUR',
  channel: 'C0LAN2Q65',
  dm: 'D024BE91L',
  verificationToken: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
} as const;

let counter = 0;
const next = (): number => {
  counter += 1;
  return counter;
};

/** A unique, increasing Slack-style timestamp (`seconds.micros`). */
export function nextTs(): string {
  const n = next();
  return `${1_700_001_000 + Math.floor(n / 1_000_000)}.${String(n % 1_000_000).padStart(6, '0')}`;
}

function nextEventId(): string {
  return `Ev${String(next()).padStart(10, '0')}`;
}

export type Block = Record<string, unknown>;

interface EventAuthorization {
  enterprise_id: string | null;
  /** Null for an org-wide install: the envelope's `team_id` names the workspace. */
  team_id: string | null;
  user_id: string;
  is_bot: boolean;
  is_enterprise_install: boolean;
}

export interface EventCallback<E> {
  token: string;
  team_id: string;
  context_team_id: string;
  context_enterprise_id: string | null;
  api_app_id: string;
  event: E;
  type: 'event_callback';
  event_id: string;
  event_time: number;
  authorizations: EventAuthorization[];
  is_ext_shared_channel: boolean;
  event_context: string;
}

export function eventCallback<E extends { type: string }>(
  event: E,
  overrides: Partial<Omit<EventCallback<E>, 'event'>> = {},
): EventCallback<E> {
  const eventId = overrides.event_id ?? nextEventId();
  return {
    token: IDS.verificationToken,
    team_id: IDS.team,
    context_team_id: IDS.team,
    context_enterprise_id: null,
    api_app_id: IDS.app,
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: IDS.team,
        user_id: IDS.botUser,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(JSON.stringify({ et: event.type, tid: IDS.team, eid: eventId })).toString('base64url')}`,
    ...overrides,
  };
}

/**
 * An Events API envelope from another workspace than IDS.team, where the app's bot user is `botUser`;
 * with `orgWide`, from a workspace of that enterprise, delivered to the org's org-wide install.
 */
export function eventFromTeam<E extends { type: string }>(
  event: E,
  team: string,
  botUser: string = IDS.botUser,
  orgWide?: string,
): EventCallback<E> {
  return eventCallback(event, {
    team_id: team,
    context_team_id: team,
    context_enterprise_id: orgWide ?? null,
    authorizations: [
      {
        enterprise_id: orgWide ?? null,
        team_id: orgWide ? null : team,
        user_id: botUser,
        is_bot: true,
        is_enterprise_install: orgWide !== undefined,
      },
    ],
  });
}

/** Slack's rich_text rendering of plain text, with `<@U…>` mentions turned into user elements. */
function richTextBlocks(text: string): Block[] {
  const elements: Block[] = [];
  for (const part of text.split(/(<@[A-Z0-9]+>)/)) {
    if (part === '') continue;
    const mention = /^<@([A-Z0-9]+)>$/.exec(part);
    elements.push(mention ? { type: 'user', user_id: mention[1] } : { type: 'text', text: part });
  }
  return [{ type: 'rich_text', block_id: 'rt01', elements: [{ type: 'rich_text_section', elements }] }];
}

export interface UserMessageFields {
  user?: string | undefined;
  text?: string | undefined;
  channel?: string | undefined;
  ts?: string | undefined;
  thread_ts?: string | undefined;
  team?: string | undefined;
}

export interface AppMentionEvent {
  user: string;
  type: 'app_mention';
  ts: string;
  client_msg_id: string;
  text: string;
  team: string;
  blocks: Block[];
  channel: string;
  event_ts: string;
  thread_ts?: string;
  parent_user_id?: string;
}

export function appMention(
  fields: UserMessageFields = {},
  overrides: Partial<AppMentionEvent> = {},
): AppMentionEvent {
  const ts = fields.ts ?? nextTs();
  const text = fields.text ?? `<@${IDS.botUser}> how do I reset my password?`;
  return {
    user: fields.user ?? IDS.user,
    type: 'app_mention',
    ts,
    client_msg_id: clientMsgId(),
    text,
    team: fields.team ?? IDS.team,
    blocks: richTextBlocks(text),
    channel: fields.channel ?? IDS.channel,
    event_ts: ts,
    ...(fields.thread_ts === undefined ? {} : { thread_ts: fields.thread_ts, parent_user_id: IDS.user }),
    ...overrides,
  };
}

type ChannelType = 'im' | 'channel' | 'group' | 'mpim' | 'app_home';

export interface UserMessageEvent {
  user: string;
  type: 'message';
  ts: string;
  client_msg_id: string;
  text: string;
  team: string;
  blocks: Block[];
  channel: string;
  event_ts: string;
  channel_type: ChannelType;
  thread_ts?: string;
  parent_user_id?: string;
}

/** A user's message in a DM with the app (`message.im`). */
export function directMessage(
  fields: UserMessageFields = {},
  overrides: Partial<UserMessageEvent> = {},
): UserMessageEvent {
  const ts = fields.ts ?? nextTs();
  const text = fields.text ?? 'What are your opening hours?';
  return {
    user: fields.user ?? IDS.user,
    type: 'message',
    ts,
    client_msg_id: clientMsgId(),
    text,
    team: fields.team ?? IDS.team,
    blocks: richTextBlocks(text),
    channel: fields.channel ?? IDS.dm,
    event_ts: ts,
    channel_type: 'im',
    ...(fields.thread_ts === undefined ? {} : { thread_ts: fields.thread_ts, parent_user_id: IDS.user }),
    ...overrides,
  };
}

/** A user's message in a channel (`message.channels`), e.g. a thread reply without a mention. */
export function channelMessage(
  fields: UserMessageFields = {},
  overrides: Partial<UserMessageEvent> = {},
): UserMessageEvent {
  return directMessage(
    { ...fields, channel: fields.channel ?? IDS.channel },
    { channel_type: 'channel', ...overrides },
  );
}

export interface BotMessageFields {
  bot_id?: string | undefined;
  text?: string | undefined;
  channel?: string | undefined;
  channel_type?: ChannelType | undefined;
  ts?: string | undefined;
  thread_ts?: string | undefined;
  username?: string | undefined;
}

export interface BotMessageEvent {
  type: 'message';
  subtype: 'bot_message';
  text: string;
  ts: string;
  bot_id: string;
  username: string;
  channel: string;
  event_ts: string;
  channel_type: ChannelType;
  thread_ts?: string;
}

/** A legacy/integration bot post (`subtype: bot_message`); Bolt's ignoreSelf drops it when bot_id is ours. */
export function botMessage(
  fields: BotMessageFields = {},
  overrides: Partial<BotMessageEvent> = {},
): BotMessageEvent {
  const ts = fields.ts ?? nextTs();
  return {
    type: 'message',
    subtype: 'bot_message',
    text: fields.text ?? 'Automated notice',
    ts,
    bot_id: fields.bot_id ?? 'B0OTHER',
    username: fields.username ?? 'notifier',
    channel: fields.channel ?? IDS.channel,
    event_ts: ts,
    channel_type: fields.channel_type ?? 'channel',
    ...(fields.thread_ts === undefined ? {} : { thread_ts: fields.thread_ts }),
    ...overrides,
  };
}

interface EditedMessage {
  type: 'message';
  user: string;
  text: string;
  ts: string;
  team: string;
  bot_id?: string;
  app_id?: string;
  thread_ts?: string;
  edited?: { user: string; ts: string };
  blocks?: Block[];
}

export interface MessageChangedFields {
  channel?: string | undefined;
  channel_type?: ChannelType | undefined;
  /** ts of the original message. */
  message_ts?: string | undefined;
  user?: string | undefined;
  text?: string | undefined;
  previous_text?: string | undefined;
  thread_ts?: string | undefined;
  /** Set to make the edited message look like one of the app's own posts. */
  bot_id?: string | undefined;
}

export interface MessageChangedEvent {
  type: 'message';
  subtype: 'message_changed';
  message: EditedMessage;
  previous_message: EditedMessage;
  channel: string;
  hidden: true;
  ts: string;
  event_ts: string;
  channel_type: ChannelType;
}

export function messageChanged(
  fields: MessageChangedFields = {},
  overrides: Partial<MessageChangedEvent> = {},
): MessageChangedEvent {
  const messageTs = fields.message_ts ?? nextTs();
  const ts = nextTs();
  const user = fields.user ?? IDS.user;
  const base: EditedMessage = {
    type: 'message',
    user,
    text: fields.previous_text ?? 'original text',
    ts: messageTs,
    team: IDS.team,
    ...(fields.bot_id === undefined ? {} : { bot_id: fields.bot_id, app_id: IDS.app }),
    ...(fields.thread_ts === undefined ? {} : { thread_ts: fields.thread_ts }),
  };
  return {
    type: 'message',
    subtype: 'message_changed',
    message: { ...base, text: fields.text ?? 'edited text', edited: { user, ts: ts } },
    previous_message: base,
    channel: fields.channel ?? IDS.channel,
    hidden: true,
    ts,
    event_ts: ts,
    channel_type: fields.channel_type ?? 'channel',
    ...overrides,
  };
}

export interface MessageDeletedFields {
  channel?: string | undefined;
  channel_type?: ChannelType | undefined;
  deleted_ts?: string | undefined;
  user?: string | undefined;
  previous_text?: string | undefined;
  thread_ts?: string | undefined;
}

export interface MessageDeletedEvent {
  type: 'message';
  subtype: 'message_deleted';
  previous_message: EditedMessage;
  channel: string;
  hidden: true;
  deleted_ts: string;
  event_ts: string;
  ts: string;
  channel_type: ChannelType;
}

export function messageDeleted(
  fields: MessageDeletedFields = {},
  overrides: Partial<MessageDeletedEvent> = {},
): MessageDeletedEvent {
  const deletedTs = fields.deleted_ts ?? nextTs();
  const ts = nextTs();
  return {
    type: 'message',
    subtype: 'message_deleted',
    previous_message: {
      type: 'message',
      user: fields.user ?? IDS.user,
      text: fields.previous_text ?? 'original text',
      ts: deletedTs,
      team: IDS.team,
      ...(fields.thread_ts === undefined ? {} : { thread_ts: fields.thread_ts }),
    },
    channel: fields.channel ?? IDS.channel,
    hidden: true,
    deleted_ts: deletedTs,
    event_ts: ts,
    ts,
    channel_type: fields.channel_type ?? 'channel',
    ...overrides,
  };
}

export interface UrlVerification {
  token: string;
  challenge: string;
  type: 'url_verification';
}

export function urlVerification(
  challenge = '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
): UrlVerification {
  return { token: IDS.verificationToken, challenge, type: 'url_verification' };
}

interface ButtonActionInput {
  action_id: string;
  block_id?: string | undefined;
  value?: string | undefined;
  text?: string | undefined;
  /** `feedback_buttons`: a click on one side of Slack's rating element, its value that side's. */
  type?: 'button' | 'feedback_buttons' | undefined;
}

interface ButtonAction {
  action_id: string;
  block_id: string;
  text: { type: 'plain_text'; text: string; emoji: boolean };
  value: string;
  type: 'button' | 'feedback_buttons';
  action_ts: string;
}

export interface BlockActionsFields {
  user?: string | undefined;
  userName?: string | undefined;
  channel?: string | undefined;
  channelName?: string | undefined;
  message?:
    | {
        ts?: string | undefined;
        thread_ts?: string | undefined;
        blocks?: Block[] | undefined;
        text?: string | undefined;
        user?: string | undefined;
      }
    | undefined;
  actions?: ButtonActionInput[] | undefined;
  response_url?: string | undefined;
  trigger_id?: string | undefined;
}

export interface BlockActionsPayload {
  type: 'block_actions';
  user: { id: string; username: string; name: string; team_id: string };
  api_app_id: string;
  token: string;
  container: {
    type: 'message';
    message_ts: string;
    channel_id: string;
    is_ephemeral: boolean;
    thread_ts?: string;
  };
  trigger_id: string;
  team: { id: string; domain: string };
  enterprise: null;
  is_enterprise_install: boolean;
  channel: { id: string; name: string };
  message: {
    user: string;
    type: 'message';
    ts: string;
    bot_id: string;
    app_id: string;
    text: string;
    team: string;
    blocks: Block[];
    thread_ts?: string;
    parent_user_id?: string;
  };
  state: { values: Record<string, unknown> };
  response_url: string;
  actions: ButtonAction[];
}

/** A button click on one of the app's messages, as Slack posts it (wrapped by `sendInteraction`). */
export function blockActionsPayload(
  fields: BlockActionsFields = {},
  overrides: Partial<BlockActionsPayload> = {},
): BlockActionsPayload {
  const userId = fields.user ?? IDS.user;
  const userName = fields.userName ?? 'jane.doe';
  const channel = fields.channel ?? IDS.channel;
  const messageTs = fields.message?.ts ?? nextTs();
  const threadTs = fields.message?.thread_ts;
  const actions = (fields.actions ?? [{ action_id: 'faq_feedback_helpful' }]).map(
    (a): ButtonAction => ({
      action_id: a.action_id,
      block_id: a.block_id ?? 'feedback',
      text: { type: 'plain_text', text: a.text ?? 'Helpful', emoji: true },
      value: a.value ?? '',
      type: a.type ?? 'button',
      action_ts: nextTs(),
    }),
  );
  const text = fields.message?.text ?? 'You can reset your password from Settings > Security.';
  return {
    type: 'block_actions',
    user: { id: userId, username: userName, name: userName, team_id: IDS.team },
    api_app_id: IDS.app,
    token: IDS.verificationToken,
    container: {
      type: 'message',
      message_ts: messageTs,
      channel_id: channel,
      is_ephemeral: false,
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
    },
    trigger_id: fields.trigger_id ?? `${next()}.1234567890.0123456789abcdef0123456789abcdef`,
    team: { id: IDS.team, domain: IDS.teamDomain },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel, name: fields.channelName ?? 'support' },
    message: {
      user: fields.message?.user ?? IDS.botUser,
      type: 'message',
      ts: messageTs,
      bot_id: IDS.bot,
      app_id: IDS.app,
      text,
      team: IDS.team,
      blocks: fields.message?.blocks ?? [
        { type: 'section', block_id: 'answer', text: { type: 'mrkdwn', text, verbatim: false } },
      ],
      ...(threadTs === undefined ? {} : { thread_ts: threadTs, parent_user_id: userId }),
    },
    state: { values: {} },
    response_url:
      fields.response_url ?? `https://hooks.slack.com/actions/${IDS.team}/${next()}/AbCdEfGhIjKlMnOpQrStUvWx`,
    actions,
    ...overrides,
  };
}

function clientMsgId(): string {
  const hex = String(next()).padStart(12, '0');
  return `c3b2a1d0-5e4f-4a3b-9c8d-${hex}`;
}

export interface AssistantThreadFields {
  user?: string | undefined;
  /** The app's DM with the person, where the panel's threads live. */
  channel?: string | undefined;
  threadTs?: string | undefined;
  /** The channel the person is looking at; undefined: none (a search, the Home tab). */
  contextChannel?: string | undefined;
}

export interface AssistantThreadEvent {
  type: 'assistant_thread_started' | 'assistant_thread_context_changed';
  assistant_thread: {
    user_id: string;
    context: { channel_id?: string; team_id: string; enterprise_id: null };
    channel_id: string;
    thread_ts: string;
  };
  event_ts: string;
}

/** A person opening Slack's assistant panel (`assistant_thread_started`), or moving beside it (`…_context_changed`). */
export function assistantThreadEvent(
  type: AssistantThreadEvent['type'],
  fields: AssistantThreadFields = {},
): AssistantThreadEvent {
  return {
    type,
    assistant_thread: {
      user_id: fields.user ?? IDS.user,
      context: {
        ...(fields.contextChannel === undefined ? {} : { channel_id: fields.contextChannel }),
        team_id: IDS.team,
        enterprise_id: null,
      },
      channel_id: fields.channel ?? IDS.dm,
      thread_ts: fields.threadTs ?? nextTs(),
    },
    event_ts: nextTs(),
  };
}
