// What the listeners share: small interfaces for what they use, and the wiring of the default pieces.
import type { Locale } from '../../conversation/locale.js';
import type { AnswerContext, Placement } from '../../conversation/types.js';
import type { Logger } from '../../logging/logger.js';
import type { KnowledgeReview } from '../../review/knowledge-review.js';
import type { AgentsApi } from '../../service-desk/agents.js';
import { HomeFiguresCache } from '../../service-desk/home-figures.js';
import type { StatisticsApi } from '../../service-desk/statistics.js';
import type { TicketsApi } from '../../service-desk/tickets.js';
import type { OperatorDirectory } from '../access/operators.js';
import { Answerer, type AnswerQuestion, type Ask, type OnEvent, type Rate } from '../answers/answerer.js';
import { QuestionTurns } from '../answers/question-turns.js';
import { type ThreadRegistry, threadRegistry } from '../answers/thread-registry.js';
import { placeholderMessages } from '../answers/working-signal.js';
import { TRY_AGAIN_QUESTION_MAX } from '../kit/button-values.js';
import type { Responder } from '../transport/responder.js';
import { GatewayConfigurationError } from './configuration-error.js';
import { type DeliveryClaims, deliveryClaims } from './delivery-claims.js';
import { InFlight } from './in-flight.js';
import { type Placements, uniformPlacements } from './placements.js';
import type { OnceStore } from './stores.js';
import type { UserLookup } from './user-directory.js';

export interface ListenerDeps {
  /** The Slack component's logger; each handling logs through a child naming its request. */
  logger: Logger;
  onEvent: OnEvent;
  /** Every handling is counted here until it is over, so a stopping gateway can wait for it. */
  inFlight: Pick<InFlight, 'track'>;
  turns: Pick<QuestionTurns, 'run'>;
  answerer: AnswerQuestion;
  responder: Responder;
  users: UserLookup;
  rate: Rate;
  deliveries: DeliveryClaims;
  threads: ThreadRegistry;
  /** How a question is asked where it was asked, resolved once per message or click. */
  placements: Placements;
  /** The knowledge-base review loop: cards, reasons, edits. */
  review: ReviewDeps;
  /** The platform's tickets, agent list and statistics, for the slash command and the Home tab. */
  tickets: TicketsApi;
  agents: AgentsApi;
  statistics: StatisticsApi;
  /** The Home tab: its example questions, the operators' cached figures, and its metric. */
  home: HomeDeps;
}

interface HomeDeps {
  /** HOME_EXAMPLE_QUESTIONS; undefined: the defaults in the viewer's language. */
  examples: readonly string[] | undefined;
  figures: Pick<HomeFiguresCache, 'figures'>;
  /** Counts a views.publish of the Home tab by outcome. */
  onPublish(outcome: 'published' | 'failed'): void;
}

export interface ReviewDeps {
  desk: Pick<
    KnowledgeReview,
    | 'cardsEnabled'
    | 'disliked'
    | 'reasonGiven'
    | 'dismiss'
    | 'snapshot'
    | 'applyEdit'
    | 'markFixed'
    | 'waiting'
  >;
  operators: Pick<OperatorDirectory, 'check' | 'refresh' | 'watches'>;
  /** An answer's stored context; throws when the store is down. */
  context(contextKey: string): Promise<AnswerContext | undefined>;
  /** Counts a refusal of a review action to someone who is not an operator. */
  onRefusal(action: string): void;
}

export interface ListenerSettings {
  defaultLocale: Locale;
  /** How questions are asked where no place has settings of its own (CS_ROBOT_FLAG, CS_SOURCE). */
  defaultPlacement: Placement;
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
  reviewRefusal?(action: string): void;
  homePublish?(outcome: 'published' | 'failed'): void;
}

/** The listeners' dependencies, with the handlings in flight that a stop drains. */
export type SlackListeners = ListenerDeps & { inFlight: InFlight };

/** Wires the listeners' default pieces from the core and the stores. */
export function createListenerDeps(dependencies: {
  conversation: { ask: Ask; rate: Rate; maxQuestionLength: number };
  review: Omit<ReviewDeps, 'onRefusal'>;
  tickets: TicketsApi;
  agents: AgentsApi;
  statistics: StatisticsApi;
  /** HOME_EXAMPLE_QUESTIONS. */
  homeExamples?: readonly string[] | undefined;
  responder: Responder;
  deliveries: OnceStore;
  threads: OnceStore;
  users: UserLookup;
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
    placements: uniformPlacements(settings.defaultPlacement),
    review: { ...dependencies.review, onRefusal: (action) => metrics.reviewRefusal?.(action) },
    tickets: dependencies.tickets,
    agents: dependencies.agents,
    statistics: dependencies.statistics,
    home: {
      examples: dependencies.homeExamples,
      figures: new HomeFiguresCache(dependencies.statistics),
      onPublish: (outcome) => metrics.homePublish?.(outcome),
    },
  };
}
