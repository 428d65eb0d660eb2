// Fakes for the listeners' small interfaces (ask, rate, user lookup, delivery claims, threads), a
// Web API client that records its calls, and Bolt-shaped arguments for calling a listener directly,
// as bolt-js's own tests do with dummy middleware arguments. No module is mocked.

import { webApi } from '@slack/bolt';
import { ChartCache } from '../../src/charts/chart-cache.js';
import { parseEnv } from '../../src/config/env.js';
import type { AskOptions, QuestionInput, RateOutcome } from '../../src/conversation/conversation.js';
import type { Placement, Reply } from '../../src/conversation/types.js';
import { createLogger } from '../../src/logging/logger.js';
import { Metrics } from '../../src/observability/metrics.js';
import { UsergroupDirectory } from '../../src/slack/access/usergroups.js';
import type { Rate } from '../../src/slack/answers/answerer.js';
import { Answerer } from '../../src/slack/answers/answerer.js';
import { escalationRoutes } from '../../src/slack/answers/escalation.js';
import type { AnswersPieces } from '../../src/slack/answers/pieces.js';
import { QuestionTurns } from '../../src/slack/answers/question-turns.js';
import type { ThreadRegistry } from '../../src/slack/answers/thread-registry.js';
import { placeholderMessages } from '../../src/slack/answers/working-signal.js';
import { assistantPanel } from '../../src/slack/assistant/panel.js';
import { ChannelDirectory } from '../../src/slack/channels/directory.js';
import type { DeskPieces } from '../../src/slack/desk/pieces.js';
import type { ClickArgs } from '../../src/slack/handling/click.js';
import type { DeliveryClaims } from '../../src/slack/handling/delivery-claims.js';
import { InFlight } from '../../src/slack/handling/in-flight.js';
import type { DecidedArgs } from '../../src/slack/handling/pre-dispatch.js';
import type { SlackUser, UserLookup } from '../../src/slack/handling/user-directory.js';
import type { HomePieces } from '../../src/slack/home/pieces.js';
import type { AccessDeps, ReviewDeps, RoomKit, WorkspaceReview } from '../../src/slack/kit/room-kit.js';
import { Responder } from '../../src/slack/transport/responder.js';
import { MemoryChannelSettingsStore } from '../../src/stores/channel-settings.js';
import { memoryNamespaces } from '../../src/stores/namespace.js';
import { declaredNamespaces } from '../../src/stores/stores.js';
import { type LogRecord, logSink } from './log-sink.js';
import { type BlockActionsPayload, IDS } from './slack-payloads.js';

/** The environment's defaults as a gateway without CS_ROBOT_FLAG or CS_SOURCE has them. */
const DEFAULT_PLACEMENT: Placement = {
  robotFlag: undefined,
  source: undefined,
  language: 'auto',
  reply: 'thread',
};

interface SlackCall {
  method: string;
  options: Record<string, unknown>;
}

/** A real Web API client whose every call (apiCall and the method shortcuts) is recorded and answered `ok`. */
class RecordingClient extends webApi.WebClient {
  readonly recorded: SlackCall[] = [];

  // The SDK binds its method shortcuts (chat.postEphemeral, users.info) to apiCall when it is built.
  override async apiCall(
    method: string,
    options: Record<string, unknown> = {},
  ): Promise<webApi.WebAPICallResult> {
    this.recorded.push({ method, options });
    const result: webApi.WebAPICallResult & { ts: string } = {
      ok: true,
      ts: `1700009999.${String(this.recorded.length).padStart(6, '0')}`,
    };
    return result;
  }
}

function recordingClient(): { client: webApi.WebClient; calls: SlackCall[] } {
  const client = new RecordingClient('xoxb-test', { retryConfig: { retries: 0 } });
  return { client, calls: client.recorded };
}

/** The kit with every room's own pieces: what any listener may be called with. */
export type RoomDeps = RoomKit & AnswersPieces & DeskPieces & HomePieces;

export interface Fakes {
  deps: RoomDeps;
  inFlight: InFlight;
  client: webApi.WebClient;
  /** Web API calls made by the listeners, in order. */
  slack: SlackCall[];
  asked: Array<{ input: QuestionInput; options: AskOptions }>;
  rated: Array<Parameters<Rate>[0]>;
  /** `kind:outcome` of every event counted. */
  events: string[];
  logs: LogRecord[];
  /** Delivery keys claimed, released and kept. */
  deliveries: { claimed: Set<string>; released: string[]; kept: string[] };
  /** Threads the app is answering, as `channel:threadTs`. */
  threads: Set<string>;
}

export function fakes(
  options: {
    reply?: (input: QuestionInput) => Promise<Reply>;
    rateOutcome?: RateOutcome;
    user?: SlackUser;
  } = {},
): Fakes {
  const sink = logSink();
  const logger = createLogger({ level: 'debug', destination: sink.destination });
  const { client, calls } = recordingClient();
  const asked: Fakes['asked'] = [];
  const rated: Fakes['rated'] = [];
  const events: string[] = [];
  const deliveries: Fakes['deliveries'] = { claimed: new Set(), released: [], kept: [] };
  const threads = new Set<string>();
  const user = options.user ?? { displayName: 'Jane', locale: 'en' };

  const users: UserLookup = { lookup: async () => user };
  const claims: DeliveryClaims = {
    claim: async (key) => {
      if (deliveries.claimed.has(key)) return false;
      deliveries.claimed.add(key);
      return true;
    },
    release: async (key) => {
      deliveries.claimed.delete(key);
      deliveries.released.push(key);
    },
    keep: async (key) => {
      deliveries.kept.push(key);
    },
  };
  const registry: ThreadRegistry = {
    isAnswering: async (_teamId, channel, threadTs) => threads.has(`${channel}:${threadTs}`),
    remember: async (_teamId, target) => {
      if (target.threadTs) threads.add(`${target.channel}:${target.threadTs}`);
    },
  };
  const reply =
    options.reply ??
    (async (input: QuestionInput): Promise<Reply> => ({
      kind: 'answer',
      contextKey: 'ctx-1',
      answerHtml: `the answer to ${input.text}`,
      stripe: undefined,
      suggestions: [],
      rateable: true,
      matched: true,
      clickedBy: undefined,
      demo: false,
      locale: input.asker.locale,
    }));
  const onEvent = (kind: string, outcome: string) => {
    events.push(`${kind}:${outcome}`);
  };
  const responder = new Responder();
  const inFlight = new InFlight();
  const channels = new ChannelDirectory(new MemoryChannelSettingsStore(), {
    defaults: DEFAULT_PLACEMENT,
    logger,
  });
  // No channel here names anyone, and DMs have no ESCALATE_TO: no answer offers "Get a person".
  const escalations = escalationRoutes(channels, undefined);
  const namespaces = declaredNamespaces(memoryNamespaces({ maxEntries: 100 }), 60);
  const platform: ReturnType<RoomDeps['platformOf']> = {
    listTickets: () => Promise.reject(new Error('tickets are not listed in this test')),
    listAgents: () => Promise.reject(new Error('agents are not listed in this test')),
    getSessionMessageStatistics: () => Promise.reject(new Error('no statistics in this test')),
    getHumanSatisfactionStatistics: () => Promise.reject(new Error('no statistics in this test')),
  };
  const env = parseEnv({ SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: 'secret' });
  if (!env.ok) throw new Error(env.problems.join('; '));
  const deps: RoomDeps = {
    logger,
    onEvent,
    inFlight,
    turns: new QuestionTurns(60_000),
    answerer: new Answerer({
      ask: async (input, askOptions) => {
        asked.push({ input, options: askOptions });
        await askOptions.beforeAsk?.();
        return reply(input);
      },
      responder,
      onEvent,
      working: placeholderMessages(responder),
      escalations,
      // The limits have tests of their own (question-limits.test.ts, question-limits e2e).
      gate: async () => ({ kind: 'admitted' }),
      settings: { defaultLocale: 'en', placeholderDelayMs: 10_000, ratingButtons: 'classic' },
    }),
    responder,
    users,
    assistant: assistantPanel({
      contexts: namespaces.assistantContexts,
      titles: namespaces.panelTitles,
      placements: channels,
      responder,
      settings: { ttlSeconds: 60, prompts: undefined },
    }),
    channels,
    escalations,
    escalationClaims: namespaces.escalations,
    ratingTally: { store: namespaces.dailyRatings, timeZone: 'UTC' },
    usergroups: new UsergroupDirectory(namespaces.operators, { refreshMs: 60_000, what: 'user group' }),
    rate: async (input) => {
      rated.push(input);
      return options.rateOutcome ?? { kind: 'failure', reason: 'internal' };
    },
    deliveries: claims,
    threads: registry,
    review: reviewOff(),
    access: { operators: noOperators(), contact: undefined, onRefusal: () => {} },
    platformOf: () => platform,
    agentGroups: [],
    charts: new ChartCache(),
    chartDrawer: {
      draw: () => Promise.reject(new Error('no charts in this test')),
    },
    chartFiles: new WeakMap(),
    ratingDays: namespaces.dailyRatings,
    questionDays: namespaces.dailyQuestions,
    home: {
      examples: undefined,
      figures: { figures: async () => ({ kind: 'unavailable', reason: 'unavailable', at: 0 }) },
      onPublish: () => {},
    },
    settings: { slashCommand: '/cs' },
    sources: {
      env: env.env,
      platform,
      platformOf: () => platform,
      agentGroups: [],
      stores: {
        ticks: namespaces.ticks,
        operators: namespaces.operators,
        escalations: namespaces.escalations,
        dailyRatings: namespaces.dailyRatings,
        dailyQuestions: namespaces.dailyQuestions,
      },
      metrics: new Metrics(),
      client: () => client,
    },
  };
  return {
    deps,
    inFlight,
    client,
    slack: calls,
    asked,
    rated,
    events,
    logs: sink.records,
    deliveries,
    threads,
  };
}

/** Bolt's arguments to an event listener, reduced to what ours read. */
export function eventArgs(event: object, client: webApi.WebClient, retryNum?: number): DecidedArgs {
  return {
    event,
    context: { teamId: IDS.team, botUserId: IDS.botUser, ...(retryNum === undefined ? {} : { retryNum }) },
    client,
  };
}

/** Bolt's arguments to an action listener: `action` is the first of the payload's actions, as Bolt sets it. */
export function clickArgs(body: BlockActionsPayload, client: webApi.WebClient): ClickArgs {
  return { body, action: body.actions[0] ?? {}, client, context: { teamId: IDS.team } };
}

/** The review loop as the listeners see it with no review channel: nothing reviewed. */
export function reviewOff(): ReviewDeps {
  const unused = () => Promise.reject(new Error('the review loop is not used in this test'));
  const review: WorkspaceReview = {
    observer: { disliked: unused, reasonGiven: unused },
    desk: {
      cardsEnabled: false,
      dismiss: unused,
      snapshot: unused,
      applyEdit: unused,
      markFixed: unused,
      waiting: unused,
      card: unused,
      answerAskers: unused,
      lookUpEntry: unused,
      link: unused,
      unlink: unused,
    },
  };
  return { of: async () => review, context: async () => undefined };
}

/** Operator access with none configured: nobody is an operator. */
export function noOperators(): AccessDeps['operators'] {
  return {
    check: async () => ({ kind: 'refused', reason: 'none_configured' }),
    refresh: async () => {},
    watches: () => false,
  };
}
