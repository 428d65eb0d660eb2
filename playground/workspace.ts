// The playground's Slack workspace: its people, conversations, messages, modals and Home tabs, kept
// in memory as the stand-in Web API changes them. Every change is announced, so the page sees it live.
import { randomBytes } from 'node:crypto';
import { SHORTCUT_EDIT_ANSWER } from '../src/slack/action-ids.js';
import type {
  ApiCall,
  Conversation,
  FaultKind,
  Persona,
  PlaygroundMessage,
  PlaygroundView,
  Snapshot,
} from './protocol.js';

export const TEAM = { id: 'T0PLAY', name: 'Acme (playground)', domain: 'acme-playground' } as const;
export const APP = { id: 'A0PLAY', botId: 'B0PLAY', userId: 'U0PLAYBOT', name: 'Helpdesk Robot' } as const;

export const PERSONAS: readonly Persona[] = [
  { id: 'U0ALICE', name: 'Alice Martin', locale: 'en-US', operator: false },
  { id: 'U0BOB', name: 'Bob Okafor', locale: 'en-GB', operator: false },
  { id: 'U0WANGFANG', name: '王芳', locale: 'zh-CN', operator: false },
  { id: 'U0LIWEI', name: '李伟', locale: 'zh-CN', operator: false },
  { id: 'U0OLIVIA', name: 'Olivia Reyes (operator)', locale: 'en-US', operator: true },
];

const HELP_CHANNEL = 'C0HELP';
export const REVIEW_CHANNEL = 'C0KBREVIEW';

/** Every person has a DM with the app: `D` + their id without its `U`. */
export function dmOf(userId: string): string {
  return `D${userId.slice(1)}`;
}

const CONVERSATIONS: readonly Conversation[] = [
  { id: HELP_CHANNEL, kind: 'channel', name: 'help', purpose: 'Mention @Helpdesk Robot with a question' },
  {
    id: REVIEW_CHANNEL,
    kind: 'channel',
    name: 'kb-review',
    purpose: 'Review cards: answers people disliked, questions the robot could not answer',
  },
  ...PERSONAS.map(
    (persona): Conversation => ({
      id: dmOf(persona.id),
      kind: 'im',
      name: persona.name,
      userId: persona.id,
      purpose: `${persona.name}'s direct messages with ${APP.name}`,
    }),
  ),
];

/** Messages kept per conversation: a playground session is short, and the page gets every one. */
const MESSAGES_PER_CONVERSATION_MAX = 300;
const CALLS_KEPT = 100;
/** Slack's trigger_id lives three seconds. */
const TRIGGER_LIFETIME_MS = 3_000;

export class Workspace {
  readonly #messages: PlaygroundMessage[] = [];
  readonly #modals = new Map<string, PlaygroundView[]>();
  readonly #homes = new Map<string, PlaygroundView>();
  readonly #calls: ApiCall[] = [];
  readonly #triggers = new Map<string, { userId: string; expires: number }>();
  readonly #listeners = new Set<() => void>();
  #tsCounter = 0;
  #viewCounter = 0;
  #fault: FaultKind = 'none';
  #changePending = false;

  constructor(readonly slashCommand: string) {}

  persona(userId: string): Persona | undefined {
    return PERSONAS.find((persona) => persona.id === userId);
  }

  conversation(id: string): Conversation | undefined {
    return CONVERSATIONS.find((conversation) => conversation.id === id);
  }

  /** A new message timestamp: the clock's seconds, with a counter so two are never equal. */
  nextTs(): string {
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
    if (!found) return { error: 'invalid_trigger_id' };
    if (Date.now() > found.expires) return { error: 'expired_trigger_id' };
    return { userId: found.userId };
  }

  message(channel: string, ts: string): PlaygroundMessage | undefined {
    return this.#messages.find((message) => message.channel === channel && message.ts === ts);
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

  recordCall(call: Omit<ApiCall, 'at'>): void {
    this.#calls.push({ at: Date.now(), ...call });
    if (this.#calls.length > CALLS_KEPT) this.#calls.shift();
    this.changed();
  }

  get fault(): FaultKind {
    return this.#fault;
  }

  set fault(kind: FaultKind) {
    this.#fault = kind;
    this.changed();
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

  snapshot(): Snapshot {
    return {
      team: { id: TEAM.id, name: TEAM.name },
      app: { userId: APP.userId, name: APP.name },
      slashCommand: this.slashCommand,
      // As manifest.yml names it.
      shortcuts: [{ callbackId: SHORTCUT_EDIT_ANSWER, name: 'Edit this answer' }],
      personas: [...PERSONAS],
      conversations: [...CONVERSATIONS],
      messages: [...this.#messages],
      modals: Object.fromEntries(this.#modals),
      homes: Object.fromEntries(this.#homes),
      calls: [...this.#calls],
      fault: this.#fault,
    };
  }
}
