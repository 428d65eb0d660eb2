// The operators' service desk: the slash command, the tickets filter, and the buttons that open them.
import { ChartCache } from '../../charts/chart-cache.js';
import { ChartDrawer } from '../../charts/chart-drawer.js';
import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { agentsClickListener } from './agents.js';
import { StatisticsDigest } from './digest.js';
import { homeStatisticsListener, homeTicketsListener } from './home-buttons.js';
import {
  ACTION_AGENTS_RETRY,
  ACTION_HOME_OPEN_STATISTICS,
  ACTION_HOME_OPEN_TICKETS,
  ACTION_STATS_CHART_RETRY,
  ACTION_STATS_RETRY,
  AGENTS_GROUP_ACTION_PATTERN,
  TICKET_RESULT_ACTION_PATTERN,
  VIEW_TICKET_FILTER,
} from './ids.js';
import type { DeskPieces } from './pieces.js';
import { deskSubcommands } from './slash-command.js';
import { statisticsChartRetryListener } from './statistics-chart.js';
import { statisticsRetryListener } from './statistics-command.js';
import { ticketFilterSubmitListener } from './ticket-filter-submit.js';
import { ticketResultListener } from './ticket-result-click.js';

export function deskRoom(kit: RoomKit): Room {
  const { platformOf, agentGroups } = kit.sources;
  const deps: RoomKit & DeskPieces = {
    ...kit,
    platformOf,
    agentGroups,
    charts: new ChartCache(),
    chartDrawer: new ChartDrawer(),
  };
  const { settings } = kit;
  const digest = statisticsDigest(kit);
  return {
    ...(digest ? { start: () => digest.start(), stop: () => digest.stop() } : {}),
    clicks: [
      [TICKET_RESULT_ACTION_PATTERN, ticketResultListener(deps)],
      [ACTION_HOME_OPEN_TICKETS, homeTicketsListener(deps, settings.slashCommand)],
      [ACTION_HOME_OPEN_STATISTICS, homeStatisticsListener(deps, settings.slashCommand)],
      [AGENTS_GROUP_ACTION_PATTERN, agentsClickListener(deps, settings.slashCommand)],
      [ACTION_AGENTS_RETRY, agentsClickListener(deps, settings.slashCommand)],
      [ACTION_STATS_RETRY, statisticsRetryListener(deps, settings.slashCommand)],
      [ACTION_STATS_CHART_RETRY, statisticsChartRetryListener(deps)],
    ],
    submissions: [[VIEW_TICKET_FILTER, ticketFilterSubmitListener(deps, settings.workingLineDelayMs)]],
    subcommands: deskSubcommands(deps, settings.workingLineDelayMs),
  };
}

/** DIGEST_SCHEDULE's weekly figures, posted to DIGEST_CHANNEL_ID (else the review channel); unset: none. */
function statisticsDigest(kit: RoomKit): StatisticsDigest | undefined {
  const { env, platform, stores, metrics, client } = kit.sources;
  const channelId = env.DIGEST_CHANNEL_ID ?? env.REVIEW_CHANNEL_ID;
  if (!env.DIGEST_SCHEDULE || !channelId) return undefined;
  return new StatisticsDigest({
    settings: {
      schedule: env.DIGEST_SCHEDULE,
      timeZone: env.DIGEST_TIME_ZONE,
      channelId,
      locale: env.DEFAULT_LOCALE,
    },
    statistics: platform,
    // Refused while Redis is down: a tick is posted once per fleet, or not at all.
    claims: stores.ticks,
    client,
    logger: kit.logger.child({ component: 'digest' }),
    onOutcome: (outcome) => metrics.digest(outcome),
  });
}
