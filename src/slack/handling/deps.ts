// What the listeners share; a listener takes a Pick of ListenerDeps, built in src/composition/listeners.ts.
import type { AnswerContext } from '../../conversation/types.js';
import type { Logger } from '../../logging/logger.js';
import type { ReviewDesk } from '../../review/review-desk.js';
import type { ReviewObserver } from '../../review/review-observer.js';
import type { AgentGroup } from '../../service-desk/agent-groups.js';
import type { AgentsApi } from '../../service-desk/agents.js';
import type { HomeFiguresCache } from '../../service-desk/home-figures.js';
import type { StatisticsApi } from '../../service-desk/statistics.js';
import type { TicketsApi } from '../../service-desk/tickets.js';
import type { OperatorDirectory } from '../access/operators.js';
import type { UsergroupDirectory } from '../access/usergroups.js';
import type { AnswerQuestion, OnEvent, Rate } from '../answers/answerer.js';
import type { EscalationClaims, EscalationRoutes } from '../answers/escalation.js';
import type { QuestionTurns } from '../answers/question-turns.js';
import type { ThreadRegistry } from '../answers/thread-registry.js';
import type { AssistantPanel } from '../assistant/panel.js';
import type { ChannelDirectory } from '../channels/directory.js';
import type { Responder } from '../transport/responder.js';
import type { DeliveryClaims } from './delivery-claims.js';
import type { InFlight } from './in-flight.js';
import type { Placements } from './placements.js';
import type { UserLookup } from './user-directory.js';

export interface ListenerDeps {
  /** The Slack component's logger; each handling logs through a child naming its request. */
  logger: Logger;
  onEvent: OnEvent;
  /** Every handling is counted here until it is over, so a stopping gateway can wait for it. */
  inFlight: Pick<InFlight, 'track'>;
  turns: Pick<QuestionTurns, 'run' | 'isIdle'>;
  answerer: AnswerQuestion;
  responder: Responder;
  users: UserLookup;
  rate: Rate;
  deliveries: DeliveryClaims;
  threads: ThreadRegistry;
  /** How a question is asked where it was asked, resolved once per message or click. */
  placements: Placements;
  /** Slack's assistant panel: the channel beside its threads, its status line, titles and prompts. */
  assistant: AssistantPanel;
  /** Each channel's settings: what the app does there on its own, and changing them. */
  channels: ChannelsDeps;
  /** "Get a person": who is called about an answer, and the claim that calls them once per answer. */
  escalation: { routes: EscalationRoutes; claims: EscalationClaims };
  /** Members of user groups a channel names (its askers), cached for every replica. */
  usergroups: Pick<UsergroupDirectory, 'members'>;
  review: ReviewDeps;
  /** Who may use the operators' surfaces: the review actions, the service desk, the Home's operator part. */
  access: AccessDeps;
  /** The platform's tickets, agent list and statistics, for the slash command and the Home tab. */
  tickets: TicketsApi;
  agents: AgentsApi;
  /** The service groups people can name (AGENT_GROUPS, or the demo's): the platform cannot list them. */
  agentGroups: readonly AgentGroup[];
  statistics: StatisticsApi;
  /** The Home tab: its example questions, the operators' cached figures, and its metric. */
  home: HomeDeps;
}

type ChannelsDeps = Pick<
  ChannelDirectory,
  'policyOf' | 'settingsOf' | 'list' | 'change' | 'replace' | 'reset'
>;

interface HomeDeps {
  /** HOME_EXAMPLE_QUESTIONS; undefined: the defaults in the viewer's language. */
  examples: readonly string[] | undefined;
  figures: Pick<HomeFiguresCache, 'figures'>;
  onPublish(outcome: 'published' | 'failed'): void;
}

export interface ReviewDeps {
  observer: Pick<ReviewObserver, 'disliked' | 'reasonGiven'>;
  desk: Pick<
    ReviewDesk,
    | 'cardsEnabled'
    | 'dismiss'
    | 'snapshot'
    | 'applyEdit'
    | 'markFixed'
    | 'waiting'
    | 'card'
    | 'answerAskers'
    | 'lookUpEntry'
    | 'link'
    | 'unlink'
  >;
  /** An answer's stored context; throws when the store is down. */
  context(contextKey: string): Promise<AnswerContext | undefined>;
}

/** Operator access, apart from the review loop: the desk's refusals are not review refusals. */
export interface AccessDeps {
  operators: Pick<OperatorDirectory, 'check' | 'refresh' | 'watches'>;
  /** OPERATOR_CONTACT: who a refused person can ask for access; undefined: the app's administrators. */
  contact: string | undefined;
  /** Counts an action refused to someone who is not an operator, whichever surface it was on. */
  onRefusal(action: string): void;
}
