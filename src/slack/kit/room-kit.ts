// What every room is built from: the pieces rooms share, and the sources a room builds its own from.
import type { webApi } from '@slack/bolt';
import type { Env } from '../../config/env.js';
import type { AnswerContext } from '../../conversation/types.js';
import type { Logger } from '../../logging/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { ReviewDesk } from '../../review/review-desk.js';
import type { ReviewObserver } from '../../review/review-observer.js';
import type { AgentGroup } from '../../service-desk/agent-groups.js';
import type { AgentsApi } from '../../service-desk/agents.js';
import type { StatisticsApi } from '../../service-desk/statistics.js';
import type { TicketsApi } from '../../service-desk/tickets.js';
import type { Stores } from '../../stores/stores.js';
import type { OperatorDirectory } from '../access/operators.js';
import type { AnswerQuestion, OnEvent, Rate } from '../answers/answerer.js';
import type { EscalationRoutes } from '../answers/escalation.js';
import type { QuestionTurns } from '../answers/question-turns.js';
import type { ThreadRegistry } from '../answers/thread-registry.js';
import type { AssistantPanel } from '../assistant/panel.js';
import type { ChannelDirectory } from '../channels/directory.js';
import type { DeliveryClaims } from '../handling/delivery-claims.js';
import type { InFlight } from '../handling/in-flight.js';
import type { Placements } from '../handling/placements.js';
import type { UserLookup } from '../handling/user-directory.js';
import type { Installations } from '../install/installations.js';
import type { OrgWorkspaces } from '../install/org-workspaces.js';
import type { WorkspacePlatformAccount, WorkspaceSetups } from '../install/workspace-setups.js';
import type { Responder } from '../transport/responder.js';

export interface RoomKit {
  /** The Slack component's logger; each handling logs through a child naming its request. */
  logger: Logger;
  onEvent: OnEvent;
  /** Every handling is counted here until it is over, so a stopping gateway can wait for it. */
  inFlight: Pick<InFlight, 'track'>;
  responder: Responder;
  users: UserLookup;
  /** Asking, shared by every room that asks (answers, the panel, Home examples, Ask again). */
  turns: Pick<QuestionTurns, 'run' | 'isIdle'>;
  answerer: AnswerQuestion;
  rate: Rate;
  deliveries: DeliveryClaims;
  threads: ThreadRegistry;
  /** Slack's assistant panel: the channel beside its threads, its status line, titles and prompts. */
  assistant: AssistantPanel;
  /** Who "Get a person" calls about an answer given in a conversation. */
  escalations: EscalationRoutes;
  /** Each channel's settings: how questions are asked there, what the app does on its own, changing them. */
  channels: ChannelsView;
  review: ReviewDeps;
  /** Who may use the operators' surfaces: the review actions, the service desk, the Home's operator part. */
  access: AccessDeps;
  settings: RoomSettings;
  /** What a room builds its own pieces from. */
  sources: RoomSources;
}

type ChannelsView = Placements &
  Pick<ChannelDirectory, 'policyOf' | 'settingsOf' | 'list' | 'change' | 'replace' | 'reset'>;

export interface RoomSettings {
  /** SLASH_COMMAND, e.g. `/cs`. */
  slashCommand: string;
  /** The app's own user id (auth.test), for what is read before Bolt's context exists. */
  appUserId?: string | undefined;
  /** WORKING_LINE_DELAY_MS; unset: the production default. */
  workingLineDelayMs?: number;
}

export interface RoomSources {
  env: Env;
  /** The environment's platform: the digest's when installed in one workspace. */
  platform: StatisticsApi & TicketsApi;
  /** A workspace's platform for its tickets, agent list and statistics: its own account's, else the environment's. */
  platformOf: (workspace: string) => TicketsApi & AgentsApi & StatisticsApi;
  /** The service groups people can name (AGENT_GROUPS, or the demo's): the platform cannot list them. */
  agentGroups: readonly AgentGroup[];
  stores: Pick<Stores, 'ticks' | 'operators' | 'escalations' | 'dailyRatings' | 'dailyQuestions'>;
  metrics: Pick<Metrics, 'homePublish' | 'digest'>;
  /** The Web API client for what a room posts outside a request (the digest). */
  client: () => webApi.WebClient;
  /** Installed in one workspace: the bot token's (auth.test), whose counts a post outside a request reads. */
  workspace?: string | undefined;
  /** Installed in many workspaces: each one's installation. */
  installations?: Installations | undefined;
  /** Installed in many workspaces: removes what is kept of an uninstalled one; how many entries went. */
  forgetWorkspace?: ((workspace: string) => Promise<number>) | undefined;
  /** Installed in many workspaces: the workspaces of each org its org-wide install answers in. */
  orgWorkspaces?: OrgWorkspaces | undefined;
  /** Installed in many workspaces: each one's own set-up, made by its operators in the Home tab. */
  setups?: WorkspaceSetupSources | undefined;
  /** Installed in many workspaces: a workspace's bot token for a post outside any request. */
  botTokenOf?: ((workspace: string) => Promise<string | undefined>) | undefined;
}

/** Where a workspace's set-up is kept, and how an account is checked before it is saved. */
export interface WorkspaceSetupSources {
  store: Pick<WorkspaceSetups, 'get' | 'set' | 'watch' | 'withDigest'>;
  /** A fetched credential is asked for a token; a fixed token is tried on a read that changes nothing. */
  check(account: WorkspacePlatformAccount): Promise<AccountCheck>;
  /** The environment names an account that answers where none is set up. */
  hasDefault: boolean;
  /** DIGEST_SCHEDULE is set: each workspace may name a channel for its digest. */
  digestScheduled: boolean;
  /** REVIEW_CHANNEL_ID is set: the review channel of a workspace that names none of its own. */
  reviewDefault: boolean;
}

export type AccountCheck = 'ok' | 'refused' | 'unreachable';

export interface ReviewDeps {
  /**
   * The review loop of the workspace a request is from (`handling.teamId`): its own cards, board and
   * platform account when installed in many; the one loop when installed in one. Throws when its set-up
   * cannot be read.
   */
  of(workspace: string): Promise<WorkspaceReview>;
  /** An answer's stored context; throws when the store is down. */
  context(contextKey: string): Promise<AnswerContext | undefined>;
}

export interface WorkspaceReview {
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
}

/** Operator access, apart from the review loop: the desk's refusals are not review refusals. */
export interface AccessDeps {
  operators: Pick<OperatorDirectory, 'check' | 'refresh' | 'watches'>;
  /** OPERATOR_CONTACT: who a refused person can ask for access; undefined: the app's administrators. */
  contact: string | undefined;
  /** Counts an action refused to someone who is not an operator, whichever surface it was on. */
  onRefusal(action: string): void;
}
