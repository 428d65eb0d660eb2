// The listeners' dependencies built from the core and the stores: the Slack side's default pieces
// (the answerer, the question turns, the delivery claims, the thread registry, the placements).

import type { People } from '../conversation/channel-settings.js';
import type { Locale } from '../conversation/locale.js';
import type { Logger } from '../logging/logger.js';
import type { AgentGroup } from '../service-desk/agent-groups.js';
import type { AgentsApi } from '../service-desk/agents.js';
import { HomeFiguresCache } from '../service-desk/home-figures.js';
import type { StatisticsApi } from '../service-desk/statistics.js';
import type { TicketsApi } from '../service-desk/tickets.js';
import type { UsergroupDirectory } from '../slack/access/usergroups.js';
import { Answerer, type Ask, type OnEvent, type Rate } from '../slack/answers/answerer.js';
import { escalationClaims, escalationRoutes } from '../slack/answers/escalation.js';
import { QuestionTurns } from '../slack/answers/question-turns.js';
import { threadRegistry } from '../slack/answers/thread-registry.js';
import { placeholderMessages } from '../slack/answers/working-signal.js';
import type { ChannelDirectory } from '../slack/channels/directory.js';
import { GatewayConfigurationError } from '../slack/handling/configuration-error.js';
import { deliveryClaims } from '../slack/handling/delivery-claims.js';
import type { AccessDeps, ListenerDeps, ReviewDeps } from '../slack/handling/deps.js';
import { InFlight } from '../slack/handling/in-flight.js';
import type { OnceStore } from '../slack/handling/stores.js';
import type { UserLookup } from '../slack/handling/user-directory.js';
import { TRY_AGAIN_QUESTION_MAX } from '../slack/kit/button-values.js';
import type { Responder } from '../slack/transport/responder.js';

export interface ListenerSettings {
  defaultLocale: Locale;
  /** How long a delivered message is remembered, so Slack's retries and duplicates are answered once. */
  dedupTtlSeconds: number;
  /**
   * How long a delivery being handled stays claimed before it is answered: longer than a handling
   * takes, far shorter than dedupTtlSeconds, so Slack's retry of a delivery whose handling died with
   * its process is answered rather than dropped.
   */
  handlingLeaseSeconds: number;
  /** How long a thread the app answers in keeps listening without a new mention. */
  threadTtlSeconds: number;
  /** How long the robot may take before a "working on it" placeholder is posted; 0 posts it at once. */
  placeholderDelayMs: number;
  /**
   * The longest one question may hold its asker's queue: past it the user's next question goes
   * ahead, and a question whose answer is not ready by then is told as too slow, with Try again.
   */
  questionDeadlineMs: number;
}

export interface SlackMetrics {
  onEvent?(kind: string, outcome: string): void;
  onSlackApiError?(method: string, error: string | undefined): void;
  operatorRefusal?(action: string): void;
  homePublish?(outcome: 'published' | 'failed'): void;
}

/** The listeners' dependencies, with the handlings in flight that a stop drains. */
export type SlackListeners = ListenerDeps & { inFlight: InFlight };

/** Wires the listeners' default pieces from the core and the stores. */
export function createListenerDeps(dependencies: {
  conversation: { ask: Ask; rate: Rate; maxQuestionLength: number };
  review: ReviewDeps;
  /** OPERATOR_USER_IDS and OPERATOR_USERGROUP_ID, read. */
  operators: AccessDeps['operators'];
  /** OPERATOR_CONTACT: who a refused person can ask for access. */
  operatorContact?: string | undefined;
  tickets: TicketsApi;
  agents: AgentsApi;
  /** The service groups `/cs agents` offers by name. */
  agentGroups?: readonly AgentGroup[];
  statistics: StatisticsApi;
  /** HOME_EXAMPLE_QUESTIONS. */
  homeExamples?: readonly string[] | undefined;
  responder: Responder;
  deliveries: OnceStore;
  threads: OnceStore;
  users: UserLookup;
  /** Each channel's settings: how questions are asked there, and when the app answers on its own. */
  channels: ChannelDirectory;
  /** ESCALATE_TO and ESCALATION_CHANNEL_ID: who a DM's "Get a person" calls, and where; unset: no button in DMs. */
  directEscalation: { targets: People; channelId: string } | undefined;
  usergroups: UsergroupDirectory;
  settings: ListenerSettings;
  logger: Logger;
  metrics?: SlackMetrics;
}): SlackListeners {
  const { conversation, settings, users } = dependencies;
  // A failed question is offered again whole from its Try again button, so it must fit in one.
  if (conversation.maxQuestionLength > TRY_AGAIN_QUESTION_MAX) {
    throw new GatewayConfigurationError(`MAX_QUESTION_LENGTH: must be at most ${TRY_AGAIN_QUESTION_MAX}`);
  }
  const metrics = dependencies.metrics ?? {};
  const onEvent: OnEvent = (kind, outcome) => metrics.onEvent?.(kind, outcome);
  const { responder } = dependencies;
  const escalations = escalationRoutes(dependencies.channels, dependencies.directEscalation);
  return {
    logger: dependencies.logger,
    onEvent,
    inFlight: new InFlight(),
    turns: new QuestionTurns(settings.questionDeadlineMs),
    answerer: new Answerer({
      ask: (input, options) => conversation.ask(input, options),
      users,
      responder,
      onEvent,
      working: placeholderMessages(responder),
      escalations,
      settings: { defaultLocale: settings.defaultLocale, placeholderDelayMs: settings.placeholderDelayMs },
    }),
    responder,
    users,
    rate: (input, scope) => conversation.rate(input, scope),
    deliveries: deliveryClaims(dependencies.deliveries, {
      handlingLeaseSeconds: settings.handlingLeaseSeconds,
      rememberSeconds: settings.dedupTtlSeconds,
    }),
    threads: threadRegistry(dependencies.threads, settings.threadTtlSeconds),
    escalation: {
      routes: escalations,
      // The threads' store refuses while Redis is down; the deliveries' would let each replica call alone.
      // An answer calls at most once while its context lives (threadTtlSeconds is CONTEXT_TTL_SECONDS).
      claims: escalationClaims(dependencies.threads, settings.threadTtlSeconds),
    },
    placements: dependencies.channels,
    channels: dependencies.channels,
    usergroups: dependencies.usergroups,
    review: dependencies.review,
    access: {
      operators: dependencies.operators,
      contact: dependencies.operatorContact,
      onRefusal: (action) => metrics.operatorRefusal?.(action),
    },
    tickets: dependencies.tickets,
    agents: dependencies.agents,
    agentGroups: dependencies.agentGroups ?? [],
    statistics: dependencies.statistics,
    home: {
      examples: dependencies.homeExamples,
      figures: new HomeFiguresCache(dependencies.statistics),
      onPublish: (outcome) => metrics.homePublish?.(outcome),
    },
  };
}
