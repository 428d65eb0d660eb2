// The playground's Slack workspace: its people and conversations (a closed list: anything else is
// refused as Slack refuses it), the stand-in workspace's state over them, and what the page is shown.
import { SHORTCUT_EDIT_ANSWER } from '../src/slack/review/ids.js';
import type { Conversation, FaultKind, Persona, Snapshot } from './protocol.js';
import { type Directory, dmOf, type Person, type Place } from './slack-stand-in/directory.js';
import { SlackWorkspace } from './slack-stand-in/workspace.js';

export { dmOf };

export const TEAM = { id: 'T0PLAY', name: 'Acme (playground)', domain: 'acme-playground' } as const;
/**
 * The workspace's web address, as Slack's is: permalinks start with it. The gateway links only Slack's
 * https permalinks; the page opens these at their message itself.
 */
export const WORKSPACE_URL = `https://${TEAM.domain}.slack.com`;
export const APP = {
  id: 'A0PLAY',
  botId: 'B0PLAY',
  userId: 'U0PLAYBOT',
  name: 'Helpdesk Robot',
  handle: 'helpdesk_robot',
} as const;

export const PERSONAS: readonly Persona[] = [
  { id: 'U0ALICE', name: 'Alice Martin', locale: 'en-US', operator: false },
  { id: 'U0BOB', name: 'Bob Okafor', locale: 'en-GB', operator: false },
  { id: 'U0WANGFANG', name: '王芳', locale: 'zh-CN', operator: false },
  { id: 'U0LIWEI', name: '李伟', locale: 'zh-CN', operator: false },
  { id: 'U0OLIVIA', name: 'Olivia Reyes (operator)', locale: 'en-US', operator: true },
];

const HELP_CHANNEL = 'C0HELP';
export const REVIEW_CHANNEL = 'C0KBREVIEW';
/** A channel with settings of its own (set at start, playground.ts): IT's robot, answering on its own. */
export const IT_HELP_CHANNEL = 'C0ITHELP';
/** The people IT's channel calls when the robot cannot help. */
export const IT_ONCALL_GROUP = { id: 'S0ITONCALL', handle: 'it-oncall', members: ['U0OLIVIA'] } as const;

const CONVERSATIONS: readonly Conversation[] = [
  { id: HELP_CHANNEL, kind: 'channel', name: 'help', purpose: 'Mention @Helpdesk Robot with a question' },
  {
    id: IT_HELP_CHANNEL,
    kind: 'channel',
    name: 'it-help',
    purpose: 'Ask IT anything: questions are answered on their own from the IT knowledge base',
  },
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

/** The playground's people and conversations, as the stand-in's Web API looks them up. */
const ACME: Directory = {
  identity: { team: TEAM, app: APP },
  assumesUnseen: false,
  person(id): Person | undefined {
    if (id === APP.userId) return personOf(id, APP.name, APP.handle, undefined, true);
    const persona = PERSONAS.find((candidate) => candidate.id === id);
    return persona && personOf(id, persona.name, handleOf(persona.name), persona.locale, false);
  },
  place(id): Place | undefined {
    const conversation = CONVERSATIONS.find((candidate) => candidate.id === id);
    return (
      conversation && {
        id,
        kind: conversation.kind,
        name: conversation.kind === 'channel' ? conversation.name : undefined,
        userId: conversation.userId,
        // The app was invited to every channel of the playground.
        appIsMember: true,
      }
    );
  },
  usergroup: (id) => (id === IT_ONCALL_GROUP.id ? IT_ONCALL_GROUP.members : undefined),
};

function personOf(
  id: string,
  name: string,
  handle: string,
  locale: string | undefined,
  isBot: boolean,
): Person {
  return {
    id,
    handle,
    realName: name,
    displayName: name,
    locale,
    teamId: TEAM.id,
    isBot,
    timeZone: 'Asia/Shanghai',
  };
}

function handleOf(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '.');
}

export class Workspace extends SlackWorkspace {
  #fault: FaultKind = 'none';

  constructor(readonly slashCommand: string) {
    super(ACME);
  }

  persona(userId: string): Persona | undefined {
    return PERSONAS.find((persona) => persona.id === userId);
  }

  conversation(id: string): Conversation | undefined {
    return CONVERSATIONS.find((conversation) => conversation.id === id);
  }

  get fault(): FaultKind {
    return this.#fault;
  }

  set fault(kind: FaultKind) {
    this.#fault = kind;
    this.changed();
  }

  snapshot(): Snapshot {
    return {
      team: { id: TEAM.id, name: TEAM.name, url: WORKSPACE_URL },
      app: { userId: APP.userId, name: APP.name },
      slashCommand: this.slashCommand,
      // As manifest.yml names it.
      shortcuts: [{ callbackId: SHORTCUT_EDIT_ANSWER, name: 'Edit this answer' }],
      personas: [...PERSONAS],
      conversations: [...CONVERSATIONS],
      ...this.contents(),
      fault: this.#fault,
    };
  }
}
