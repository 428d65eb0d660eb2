// A stand-in Slack workspace's state: its messages, modals, Home tabs, triggers and the Web API calls
// made to it, kept in memory as the stand-in's Web API changes them, over a directory of who and what
// exists. Every change is announced, so the playground's page sees it live.
import { randomBytes } from 'node:crypto';
import type { ApiCall, AssistantThread, PlaygroundMessage, PlaygroundView } from '../protocol.js';
import { type Directory, dmOf } from './directory.js';

/** Messages kept per conversation: a session is short, and the playground's page gets every one. */
const MESSAGES_PER_CONVERSATION_MAX = 300;
const CALLS_KEPT = 100;
/** Slack's trigger_id lives three seconds. */
const TRIGGER_LIFETIME_MS = 3_000;
/** Whose modals a view opened by a trigger the stand-in never gave out belongs to. */
const UNSEEN_USER = '';

export interface SlackWorkspaceOptions {
  /** Message timestamps; by default the clock's seconds with a counter, so two are never equal. */
  nextTs?: (() => string) | undefined;
}

export class SlackWorkspace {
  readonly directory: Directory;
  readonly #messages: PlaygroundMessage[] = [];
  readonly #modals = new Map<string, PlaygroundView[]>();
  readonly #homes = new Map<string, PlaygroundView>();
  readonly #calls: ApiCall[] = [];
  readonly #assistantThreads: AssistantThread[] = [];
  readonly #triggers = new Map<string, { userId: string; expires: number }>();
  readonly #listeners = new Set<() => void>();
  readonly #nextTs: () => string;
  #tsCounter = 0;
  #viewCounter = 0;
  #changePending = false;

  constructor(directory: Directory, options: SlackWorkspaceOptions = {}) {
    this.directory = directory;
    this.#nextTs = options.nextTs ?? (() => this.#clockTs());
  }

  /** A new message timestamp. */
  nextTs(): string {
    return this.#nextTs();
  }

  #clockTs(): string {
    this.#tsCounter += 1;
    const seconds = Math.floor(Date.now() / 1000);
    return `${seconds}.${String(this.#tsCounter % 1_000_000).padStart(6, '0')}`;
  }

  nextViewId(): string {
    this.#viewCounter += 1;
    return `V0PLAY${String(this.#viewCounter).padStart(6, '0')}`;
  }

  newTrigger(userId: string): string {
    const trigger = `${Date.now()}.${randomBytes(6).toString('hex')}`;
    this.#triggers.set(trigger, { userId, expires: Date.now() + TRIGGER_LIFETIME_MS });
    return trigger;
  }

  /** The person a live trigger was given to; an unknown or expired trigger is refused, as Slack does. */
  useTrigger(trigger: unknown): { userId: string } | { error: 'invalid_trigger_id' | 'expired_trigger_id' } {
    const found = typeof trigger === 'string' ? this.#triggers.get(trigger) : undefined;
    if (!found)
      return this.directory.assumesUnseen ? { userId: UNSEEN_USER } : { error: 'invalid_trigger_id' };
    if (Date.now() > found.expires) return { error: 'expired_trigger_id' };
    return { userId: found.userId };
  }

  message(channel: string, ts: string): PlaygroundMessage | undefined {
    return this.#messages.find((message) => message.channel === channel && message.ts === ts);
  }

  /** A message the Web API names: one it has, or, when the directory assumes the unseen, the app's own. */
  namedMessage(channel: string, ts: string): PlaygroundMessage | undefined {
    const found = this.message(channel, ts);
    if (found || !this.directory.assumesUnseen) return found;
    const assumed: PlaygroundMessage = {
      channel,
      ts,
      threadTs: undefined,
      userId: this.directory.identity.app.userId,
      text: '',
      blocks: undefined,
      edited: false,
      files: [],
      visibleTo: undefined,
      refusal: undefined,
    };
    this.addMessage(assumed);
    return assumed;
  }

  addMessage(message: PlaygroundMessage): void {
    this.#messages.push(message);
    const inConversation = this.#messages.filter((m) => m.channel === message.channel);
    if (inConversation.length > MESSAGES_PER_CONVERSATION_MAX) {
      const oldest = inConversation[0];
      if (oldest) this.#messages.splice(this.#messages.indexOf(oldest), 1);
    }
    this.changed();
  }

  deleteMessage(message: PlaygroundMessage): void {
    const index = this.#messages.indexOf(message);
    if (index >= 0) this.#messages.splice(index, 1);
    this.changed();
  }

  modalStack(userId: string): PlaygroundView[] {
    let stack = this.#modals.get(userId);
    if (!stack) {
      stack = [];
      this.#modals.set(userId, stack);
    }
    return stack;
  }

  /** A modal or Home view by id, wherever it is. */
  findView(viewId: string): PlaygroundView | undefined {
    for (const stack of this.#modals.values()) {
      const found = stack.find((view) => view.id === viewId);
      if (found) return found;
    }
    return [...this.#homes.values()].find((home) => home.id === viewId);
  }

  /** A view the Web API names: one it has, or, when the directory assumes the unseen, an empty modal. */
  namedView(viewId: string): PlaygroundView | undefined {
    const found = this.findView(viewId);
    if (found || !this.directory.assumesUnseen) return found;
    const assumed: PlaygroundView = { id: viewId, userId: UNSEEN_USER, view: { id: viewId }, errors: {} };
    this.modalStack(UNSEEN_USER).push(assumed);
    return assumed;
  }

  findViewByExternalId(externalId: string): PlaygroundView | undefined {
    for (const stack of this.#modals.values()) {
      const found = stack.find((view) => view.view.external_id === externalId);
      if (found) return found;
    }
    return undefined;
  }

  home(userId: string): PlaygroundView | undefined {
    return this.#homes.get(userId);
  }

  setHome(userId: string, view: PlaygroundView): void {
    this.#homes.set(userId, view);
    this.changed();
  }

  /**
   * Opens a person's assistant panel on a new thread, as Slack does: a root message from the app (which
   * apps reply under) in the person's DM with it, and the channel they are looking at as its context.
   */
  startAssistantThread(userId: string, contextChannel: string | undefined): AssistantThread {
    const channel = dmOf(userId);
    const threadTs = this.nextTs();
    this.addMessage({
      channel,
      ts: threadTs,
      threadTs: undefined,
      userId: this.directory.identity.app.userId,
      text: '',
      blocks: undefined,
      edited: false,
      files: [],
      visibleTo: undefined,
      refusal: undefined,
      subtype: 'assistant_app_thread',
    });
    return this.#addAssistantThread(channel, threadTs, userId, contextChannel);
  }

  /** A new assistant thread, with no status, prompts or title yet. */
  #addAssistantThread(
    channel: string,
    threadTs: string,
    userId: string,
    contextChannel: AssistantThread['contextChannel'],
  ): AssistantThread {
    const thread: AssistantThread = {
      channel,
      threadTs,
      userId,
      contextChannel,
      status: '',
      loadingMessages: [],
      prompts: [],
      promptsTitle: undefined,
      title: undefined,
    };
    this.#assistantThreads.push(thread);
    return thread;
  }

  /** The assistant thread the Web API names: one it has, or, when the directory assumes the unseen, a new one. */
  namedAssistantThread(channel: string, threadTs: string): AssistantThread | undefined {
    const found = this.assistantThread(channel, threadTs);
    if (found || !this.directory.assumesUnseen) return found;
    return this.#addAssistantThread(channel, threadTs, UNSEEN_USER, undefined);
  }

  assistantThread(channel: string, threadTs: string): AssistantThread | undefined {
    return this.#assistantThreads.find(
      (thread) => thread.channel === channel && thread.threadTs === threadTs,
    );
  }

  /** A person's latest assistant thread: the one their panel shows. */
  latestAssistantThread(userId: string): AssistantThread | undefined {
    return this.#assistantThreads.findLast((thread) => thread.userId === userId);
  }

  recordCall(call: Omit<ApiCall, 'at'>): void {
    this.#calls.push({ at: Date.now(), ...call });
    if (this.#calls.length > CALLS_KEPT) this.#calls.shift();
    this.changed();
  }

  /** Copies of what it holds, for a snapshot of the whole workspace. */
  contents(): {
    messages: PlaygroundMessage[];
    modals: Record<string, PlaygroundView[]>;
    homes: Record<string, PlaygroundView>;
    calls: ApiCall[];
    assistantThreads: AssistantThread[];
  } {
    return {
      messages: [...this.#messages],
      modals: Object.fromEntries(this.#modals),
      homes: Object.fromEntries(this.#homes),
      calls: [...this.#calls],
      assistantThreads: this.#assistantThreads.map((thread) => ({ ...thread })),
    };
  }

  /** Announces a change once per turn of the event loop, however many changes the turn made. */
  changed(): void {
    if (this.#changePending) return;
    this.#changePending = true;
    setImmediate(() => {
      this.#changePending = false;
      for (const listener of this.#listeners) listener();
    });
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
