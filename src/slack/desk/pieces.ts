// What only the desk room holds beside the shared kit; its factory in surface.ts builds it.
import type { ChartCache } from '../../charts/chart-cache.js';
import type { ChartDrawer } from '../../charts/chart-drawer.js';
import type { ChartImage } from '../../charts/draw.js';
import type { AgentGroup } from '../../service-desk/agent-groups.js';
import type { AgentsApi } from '../../service-desk/agents.js';
import type { DailyCountStore, QuestionField, RatingField } from '../../service-desk/daily-counts.js';
import type { StatisticsApi } from '../../service-desk/statistics.js';
import type { TicketsApi } from '../../service-desk/tickets.js';
import type { RoomKit } from '../kit/room-kit.js';

/** The platform's tickets, agent list and statistics, and the service groups people can name. */
export interface DeskPieces {
  /** The workspace's own account's, found as each call is made. */
  platformOf: (workspace: string) => TicketsApi & AgentsApi & StatisticsApi;
  agentGroups: readonly AgentGroup[];
  /** The statistics charts already drawn, shared by every operator of this gateway. */
  charts: ChartCache;
  /** Draws them on a thread of their own. */
  chartDrawer: Pick<ChartDrawer, 'draw'>;
  /** 👍/👎 a day per workspace, as the answers room counts them. */
  ratingDays: Pick<DailyCountStore<RatingField>, 'read'>;
  /** Questions asked and left unanswered a day per workspace, as the conversation counts them. */
  questionDays: Pick<DailyCountStore<QuestionField>, 'read'>;
  /** Each chart's file in each operator's DM, by user id: a view opened again names the same file. */
  chartFiles: WeakMap<ChartImage, Map<string, string>>;
}

/** What the desk's listeners take: the parts of the shared kit they use, and the desk's own pieces. */
export type DeskDeps = Pick<RoomKit, 'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'access'> &
  DeskPieces;
