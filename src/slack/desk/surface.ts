// The operators' service desk: the slash command, the tickets filter, and the buttons that open them.
import { ChartCache } from '../../charts/chart-cache.js';
import { ChartDrawer } from '../../charts/chart-drawer.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { agentsClickListener } from './agents.js';
import { type DigestTarget, type DigestTargets, StatisticsDigest } from './digest.js';
import { homeStatisticsListener, homeTicketsListener } from './home-buttons.js';
import {
  ACTION_AGENTS_RETRY,
  ACTION_HOME_OPEN_STATISTICS,
  ACTION_HOME_OPEN_TICKETS,
  ACTION_STATS_CHART_RETRY,
  ACTION_STATS_RETRY,
  ACTION_TICKETS_CSV,
  ACTION_TICKETS_NEXT,
  ACTION_TICKETS_PREVIOUS,
  ACTION_TICKETS_RETRY,
  AGENTS_GROUP_ACTION_PATTERN,
  VIEW_TICKET_FILTER,
} from './ids.js';
import type { ChartPieces } from './period-charts.js';
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
    chartFiles: new WeakMap(),
    ratingDays: kit.sources.stores.dailyRatings,
    questionDays: kit.sources.stores.dailyQuestions,
  };
  const { settings } = kit;
  const digest = statisticsDigest(kit, deps);
  const agentsClick = agentsClickListener(deps, settings.slashCommand);
  const ticketResultClick = ticketResultListener(deps);
  return {
    ...(digest
      ? {
          start: () => digest.start(),
          stop: () => digest.stop(),
          postDigestNow: (workspace: string) => digest.postNow(workspace),
        }
      : {}),
    clicks: [
      [ACTION_TICKETS_PREVIOUS, ticketResultClick],
      [ACTION_TICKETS_NEXT, ticketResultClick],
      [ACTION_TICKETS_RETRY, ticketResultClick],
      [ACTION_TICKETS_CSV, ticketResultClick],
      [ACTION_HOME_OPEN_TICKETS, homeTicketsListener(deps, settings.slashCommand)],
      [ACTION_HOME_OPEN_STATISTICS, homeStatisticsListener(deps, settings.slashCommand)],
      [AGENTS_GROUP_ACTION_PATTERN, agentsClick],
      [ACTION_AGENTS_RETRY, agentsClick],
      [ACTION_STATS_RETRY, statisticsRetryListener(deps, settings.slashCommand)],
      [ACTION_STATS_CHART_RETRY, statisticsChartRetryListener(deps)],
    ],
    submissions: [[VIEW_TICKET_FILTER, ticketFilterSubmitListener(deps, settings.workingLineDelayMs)]],
    subcommands: deskSubcommands(deps, settings.workingLineDelayMs),
  };
}

/**
 * DIGEST_SCHEDULE's weekly figures: installed in one workspace, to DIGEST_CHANNEL_ID (else the review
 * channel); in many, to the channel each workspace's set-up names, from its own platform, with its own
 * token. No schedule: none.
 */
function statisticsDigest(kit: RoomKit, charts: ChartPieces): StatisticsDigest | undefined {
  const { env, stores, metrics } = kit.sources;
  if (!env.DIGEST_SCHEDULE) return undefined;
  const targets = digestTargets(kit);
  if (!targets) return undefined;
  return new StatisticsDigest({
    settings: { schedule: env.DIGEST_SCHEDULE, timeZone: env.DIGEST_TIME_ZONE, locale: env.DEFAULT_LOCALE },
    targets,
    // Refused while Redis is down: a tick is posted once per fleet, or not at all.
    claims: stores.ticks,
    logger: kit.logger.child({ component: 'digest' }),
    charts,
    onOutcome: (outcome) => metrics.digest(outcome),
  });
}

function digestTargets(kit: RoomKit): DigestTargets | undefined {
  const { env, platform, platformOf, client, setups, botTokenOf, workspace } = kit.sources;
  if (setups && botTokenOf) {
    const digestOf = async (workspace: string) => {
      const channelId = (await setups.store.get(workspace))?.digestChannelId;
      const token = channelId && (await botTokenOf(workspace));
      return channelId && token ? { channelId, token } : undefined;
    };
    return async () => {
      const targets: DigestTarget[] = [];
      for (const workspace of await setups.store.withDigest()) {
        // One workspace that cannot be read (uninstalled, its token refused) leaves the others theirs.
        const found = await digestOf(workspace).catch((error: unknown) => {
          kit.logger.warn({ ...errorFields(error), workspace }, 'digest skipped: the workspace was not read');
          return undefined;
        });
        if (!found) continue;
        const { channelId, token } = found;
        targets.push({
          key: `${workspace}:${channelId}`,
          channelId,
          workspace,
          platform: platformOf(workspace),
          post: (message) => client().chat.postMessage({ ...message, token, unfurl_links: false }),
          upload: (file) => client().files.uploadV2({ ...file, token }),
        });
      }
      return targets;
    };
  }
  const channelId = env.DIGEST_CHANNEL_ID ?? env.REVIEW_CHANNEL_ID;
  if (!channelId || !workspace) return undefined;
  const target: DigestTarget = {
    key: channelId,
    channelId,
    workspace,
    platform,
    post: (message) => client().chat.postMessage({ ...message, unfurl_links: false }),
    upload: (file) => client().files.uploadV2(file),
  };
  return async () => [target];
}
