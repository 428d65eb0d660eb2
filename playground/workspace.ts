// The playground's Slack workspace: its people and conversations (a closed list: anything else is
// refused as Slack refuses it), the stand-in workspace's state over them, and what the page is shown.
import { SHORTCUT_EDIT_ANSWER } from '../src/slack/review/ids.js';
import type { Conversation, DistributedView, FaultKind, Persona, Snapshot } from './protocol.js';
import { type Directory, dmOf, type Person, type Place, type Usergroup } from './slack-stand-in/directory.js';
import { SlackWorkspace } from './slack-stand-in/workspace.js';

export { dmOf };

const TEAM = { id: 'T0PLAY', name: 'Acme (playground)', domain: 'acme-playground' } as const;
/**
 * The workspace's web address, as Slack's is: permalinks start with it. The gateway links only Slack's
 * https permalinks; the page opens these at their message itself.
 */
const WORKSPACE_URL = `https://${TEAM.domain}.slack.com`;
export const APP = {
  id: 'A0PLAY',
  botId: 'B0PLAY',
  userId: 'U0PLAYBOT',
  name: 'Helpdesk Robot',
  handle: 'helpdesk_robot',
} as const;

/** Every person's Slack time zone: the simulator's platform keeps China's dates. */
export const PERSONAS_TIME_ZONE = 'Asia/Shanghai';

export const PERSONAS: readonly Persona[] = [
  { id: 'U0ALICE', name: 'Alice Martin', locale: 'en-US', timeZone: PERSONAS_TIME_ZONE, operator: false },
  { id: 'U0BOB', name: 'Bob Okafor', locale: 'en-GB', timeZone: PERSONAS_TIME_ZONE, operator: false },
  { id: 'U0WANGFANG', name: '王芳', locale: 'zh-CN', timeZone: PERSONAS_TIME_ZONE, operator: false },
  { id: 'U0LIWEI', name: '李伟', locale: 'zh-CN', timeZone: PERSONAS_TIME_ZONE, operator: false },
  {
    id: 'U0OLIVIA',
    name: 'Olivia Reyes',
    locale: 'en-US',
    timeZone: PERSONAS_TIME_ZONE,
    operator: true,
    role: 'operator',
  },
];

const HELP_CHANNEL = 'C0HELP';
export const REVIEW_CHANNEL = 'C0KBREVIEW';
/** A channel with settings of its own (set at start, playground.ts): IT's robot, answering on its own. */
export const IT_HELP_CHANNEL = 'C0ITHELP';
/** The people IT's channel calls when the robot cannot help. */
export const IT_ONCALL_GROUP: Usergroup = {
  id: 'S0ITONCALL',
  handle: 'it-oncall',
  name: 'IT on call',
  members: ['U0OLIVIA'],
};
/** The workspace's user groups: typed as @handle, drawn as @handle, listed by usergroups.list. */
const USERGROUPS: readonly Usergroup[] = [
  IT_ONCALL_GROUP,
  { id: 'S0HRDESK', handle: 'hr-desk', name: 'HR desk', members: ['U0BOB'] },
];

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
  ...PERSONAS.map((persona) => dmConversation(persona)),
];

/** A company's Slack workspace in the playground: who is in it and where they talk. */
export interface Company {
  team: { id: string; name: string; domain: string };
  /** Its web address, as Slack's is: permalinks start with it. */
  url: string;
  personas: readonly Persona[];
  conversations: readonly Conversation[];
  usergroups: readonly Usergroup[];
}

export const ACME: Company = {
  team: TEAM,
  url: WORKSPACE_URL,
  personas: PERSONAS,
  conversations: CONVERSATIONS,
  usergroups: USERGROUPS,
};

const GLOBEX_TEAM = { id: 'T0GLOBEX', name: 'Globex (playground)', domain: 'globex-playground' } as const;
const GLOBEX_PERSONAS: readonly Persona[] = [
  {
    id: 'U0HANK',
    name: 'Hank Scorpio',
    locale: 'en-US',
    timeZone: PERSONAS_TIME_ZONE,
    operator: true,
    role: 'admin',
  },
  { id: 'U0MINDY', name: 'Mindy Park', locale: 'en-US', timeZone: PERSONAS_TIME_ZONE, operator: false },
  { id: 'U0FRANK', name: 'Frank Grimes', locale: 'en-GB', timeZone: PERSONAS_TIME_ZONE, operator: false },
];

/** The second company: installed from the page in distributed mode, with a platform account of its own. */
export const GLOBEX: Company = {
  team: GLOBEX_TEAM,
  url: `https://${GLOBEX_TEAM.domain}.slack.com`,
  personas: GLOBEX_PERSONAS,
  conversations: [
    { id: 'C0GXHELP', kind: 'channel', name: 'help', purpose: 'Mention @Helpdesk Robot with a question' },
    // Its admin may name it in the set-up as the workspace's review channel.
    {
      id: 'C0GXREVIEW',
      kind: 'channel',
      name: 'kb-review',
      purpose: 'Review cards: answers people disliked, questions the robot could not answer',
    },
    ...GLOBEX_PERSONAS.map((persona) => dmConversation(persona)),
  ],
  // Its admin may name it in the set-up as the workspace's operators.
  usergroups: [{ id: 'S0GXSUPPORT', handle: 'globex-support', name: 'Globex support', members: ['U0MINDY'] }],
};

function dmConversation(persona: Persona): Conversation {
  return {
    id: dmOf(persona.id),
    kind: 'im',
    name: persona.name,
    userId: persona.id,
    purpose: `${persona.name}'s direct messages with ${APP.name}`,
  };
}

/** A company's people and conversations, as the stand-in's Web API looks them up. */
function directoryOf(company: Company): Directory {
  const personOf = (
    id: string,
    name: string,
    handle: string,
    locale: string | undefined,
    isBot: boolean,
    timeZone = PERSONAS_TIME_ZONE,
  ) => ({
    id,
    handle,
    realName: name,
    displayName: name,
    locale,
    teamId: company.team.id,
    isBot,
    timeZone,
  });
  return {
    identity: { team: company.team, app: APP },
    assumesUnseen: false,
    person(id): Person | undefined {
      if (id === APP.userId) return personOf(id, APP.name, APP.handle, undefined, true);
      const persona = company.personas.find((candidate) => candidate.id === id);
      return (
        persona && personOf(id, persona.name, handleOf(persona.name), persona.locale, false, persona.timeZone)
      );
    },
    place(id): Place | undefined {
      const conversation = company.conversations.find((candidate) => candidate.id === id);
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
    usergroups: () => company.usergroups,
  };
}

function handleOf(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '.');
}

export class Workspace extends SlackWorkspace {
  #fault: FaultKind = 'none';
  /** What the gateway says a channel answers on its own, once it runs; only mentions until then. */
  answersOf: (channelId: string) => Pick<Conversation, 'answers' | 'askers'> = () => ({
    answers: 'mention',
    askers: 'anyone',
  });

  /** In distributed mode: the switcher and this workspace's install, for the page. */
  distributedView: (() => DistributedView) | undefined;
  /** In distributed mode: whether the app is installed here now (single-workspace Acme always is). */
  #installed = true;

  constructor(
    readonly slashCommand: string,
    readonly company: Company = ACME,
  ) {
    super(directoryOf(company));
  }

  get installed(): boolean {
    return this.#installed;
  }

  set installed(installed: boolean) {
    this.#installed = installed;
    this.changed();
  }

  persona(userId: string): Persona | undefined {
    return this.company.personas.find((persona) => persona.id === userId);
  }

  conversation(id: string): Conversation | undefined {
    return this.company.conversations.find((conversation) => conversation.id === id);
  }

  /**
   * `#name` or `@name` as Slack's escaping writes it in a slash command (should_escape): a channel, a
   * person (by first name or handle) or a user group (by handle), with its name; undefined when the
   * workspace has nothing of that name, which Slack leaves as typed.
   */
  escapedName(typed: string): string | undefined {
    const name = typed.slice(1).toLowerCase();
    if (typed.startsWith('#')) {
      const channel = this.company.conversations.find((c) => c.kind === 'channel' && c.name === name);
      return channel && `<#${channel.id}|${channel.name}>`;
    }
    if (name === 'helpdesk' || name === APP.handle) return `<@${APP.userId}|${APP.handle}>`;
    const persona = this.company.personas.find(
      (candidate) =>
        handleOf(candidate.name) === name || (candidate.name.split(' ')[0] ?? '').toLowerCase() === name,
    );
    if (persona) return `<@${persona.id}|${handleOf(persona.name)}>`;
    const group = this.usergroupNamed(name);
    return group && `<!subteam^${group.id}|${group.handle}>`;
  }

  /** The user group with this handle (`it-oncall`), as people type it after @. */
  usergroupNamed(handle: string): Usergroup | undefined {
    return this.company.usergroups.find((candidate) => candidate.handle === handle.toLowerCase());
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
      team: { id: this.company.team.id, name: this.company.team.name, url: this.company.url },
      app: { userId: APP.userId, name: APP.name },
      slashCommand: this.slashCommand,
      // As manifest.yml names it.
      shortcuts: [{ callbackId: SHORTCUT_EDIT_ANSWER, name: 'Edit this answer' }],
      personas: [...this.company.personas],
      // A channel's answer mode as its settings say now: the composer's hint follows a /cs channel change.
      conversations: this.company.conversations.map((c) =>
        c.kind === 'channel' ? { ...c, ...this.answersOf(c.id) } : c,
      ),
      usergroups: this.company.usergroups.map(({ id, handle, name, members }) => ({
        id,
        handle,
        name,
        members: [...members],
      })),
      ...this.contents(),
      fault: this.#fault,
      distributed: this.distributedView?.(),
    };
  }
}
