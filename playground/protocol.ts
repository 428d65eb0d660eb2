// What the playground page and its server say to each other: the page's actions (checked on arrival
// by page-actions.ts) and the workspace snapshot the server pushes over Server-Sent Events. No imports:
// the page's bundle includes this file.
export const API_PREFIX = '/playground/api/';
export const EVENTS_PATH = '/playground/events';
/** The page's address names the workspace it shows (`?workspace=T0GLOBEX`); its feed and actions carry it on. */
export const WORKSPACE_PARAM = 'workspace';

export const FAULT_KINDS = ['none', 'http500', 'slow', 'malformed'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

interface OptionValue {
  text: unknown;
  value: string;
}

/** What an element holds, as a block_actions payload and view.state.values carry it. */
export interface ElementValue {
  type: string;
  value?: string | null | undefined;
  /** The clicked side's text, as a feedback_buttons action carries it. */
  text?: { type: 'plain_text'; text: string } | undefined;
  selected_option?: OptionValue | null | undefined;
  selected_options?: OptionValue[] | undefined;
  selected_date?: string | null | undefined;
  selected_time?: string | null | undefined;
  selected_user?: string | null | undefined;
  selected_users?: string[] | undefined;
  selected_conversation?: string | null | undefined;
  selected_conversations?: string[] | undefined;
  selected_channel?: string | null | undefined;
  selected_channels?: string[] | undefined;
}

/** view.state.values: every input's value under its block and action ids. */
export type StateValues = Record<string, Record<string, ElementValue>>;

export interface Persona {
  id: string;
  name: string;
  /** Slack's locale string (`en-US`, `zh-CN`), as users.info returns it. */
  locale: string;
  /** Slack's `tz`, as users.info returns it: the zone the page shows this person's times in. */
  timeZone: string;
  operator: boolean;
  /** What the page's person picker adds after the name ("operator"): the playground's, never Slack's. */
  role?: string;
}

export interface Conversation {
  id: string;
  kind: 'im' | 'channel';
  /** `#help`, or the person's name for their DM with the app. */
  name: string;
  /** For a DM: whose DM with the app it is. */
  userId?: string;
  purpose: string;
  /** A channel's: whether the app answers there on its own, and for whom, as its settings say now. */
  answers?: AnswerMode;
  askers?: 'anyone' | { users: string[]; groups: string[] };
}

/** The gateway's answer modes: only when mentioned, questions on its own, or every message. */
export type AnswerMode = 'mention' | 'questions' | 'all';

interface PlaygroundUsergroup {
  id: string;
  handle: string;
  name: string;
  members: string[];
}

export interface FileShare {
  id: string;
  name: string;
  title: string;
  size: number;
  /** The first few kilobytes, for a text file's preview. */
  preview: string | undefined;
  /** An image Slack would show inline (PNG, JPEG or GIF), as a data URL, with its alt text. */
  image?: { url: string; altText: string | undefined } | undefined;
}

export interface PlaygroundMessage {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  /** Who wrote it: a persona's id, or the app's bot user. */
  userId: string;
  text: string;
  blocks: unknown[] | undefined;
  edited: boolean;
  files: FileShare[];
  /** Only for an ephemeral message: who sees it. */
  visibleTo: string | undefined;
  /** Set when Slack refused what the app sent: the message shows Slack's error instead. */
  refusal: { method: string; error: string; problems: string[] } | undefined;
  /** `assistant_app_thread`: the root Slack makes for an assistant thread, drawn as the panel, not as a message. */
  subtype?: 'assistant_app_thread';
}

/** A suggested prompt: the chip's title and the message a click sends. */
export interface AssistantPrompt {
  title: string;
  message: string;
}

/** An assistant thread (the app's side panel), as the assistant.threads.* methods leave it. */
export interface AssistantThread {
  /** The person's DM with the app, where the thread lives. */
  channel: string;
  threadTs: string;
  userId: string;
  /** The channel the person was looking at when it opened, or switched to since. */
  contextChannel: string | undefined;
  /** "is looking this up…" while the app works; empty when it has none. */
  status: string;
  loadingMessages: string[];
  prompts: AssistantPrompt[];
  promptsTitle: string | undefined;
  title: string | undefined;
}

export interface PlaygroundView {
  id: string;
  userId: string;
  /** The view as Slack returns it: with block_ids, state and hash filled in. */
  view: Record<string, unknown>;
  /** Inline errors from a `response_action: errors`, by block_id. */
  errors: Record<string, string>;
}

export interface ApiCall {
  at: number;
  method: string;
  ok: boolean;
  error: string | undefined;
  summary: string;
}

export interface Snapshot {
  /** `url`: the workspace's web address, where its permalinks point. */
  team: { id: string; name: string; url: string };
  app: { userId: string; name: string };
  slashCommand: string;
  /** The app's message shortcuts, in each message's menu. */
  shortcuts: Array<{ callbackId: string; name: string }>;
  personas: Persona[];
  conversations: Conversation[];
  /** The workspace's user groups: mentions of them are drawn as @handle. */
  usergroups: PlaygroundUsergroup[];
  messages: PlaygroundMessage[];
  /** Each person's stack of open modals, bottom first. */
  modals: Record<string, PlaygroundView[]>;
  homes: Record<string, PlaygroundView>;
  calls: ApiCall[];
  /** Every assistant thread, oldest first: a person's panel shows their latest. */
  assistantThreads: AssistantThread[];
  fault: FaultKind;
  /** In distributed mode only: the switcher's workspaces, and whether the app is installed in this one. */
  distributed?: DistributedView | undefined;
}

/** A platform account, as its installer types it in the Home tab's set-up form. */
export interface PlatformAccount {
  url: string;
  sysNum: string;
  appId: string;
  appKey: string;
}

export interface DistributedView {
  workspaces: Array<{ id: string; name: string; installed: boolean }>;
  installed: boolean;
  /** The company's own account on its simulator, shown as a hint to whoever sets the workspace up. */
  account: PlatformAccount | undefined;
}
