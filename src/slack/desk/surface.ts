// The operators' service desk: the slash command, the tickets filter, and the buttons that open them.
import type { ListenerDeps } from '../handling/deps.js';
import type { Surface } from '../handling/surface.js';
import { agentsClickListener } from './agents.js';
import { homeStatisticsListener, homeTicketsListener } from './home-buttons.js';
import {
  ACTION_AGENTS_RETRY,
  ACTION_HOME_OPEN_STATISTICS,
  ACTION_HOME_OPEN_TICKETS,
  ACTION_STATS_RETRY,
  AGENTS_GROUP_ACTION_PATTERN,
  TICKET_RESULT_ACTION_PATTERN,
  VIEW_TICKET_FILTER,
} from './ids.js';
import { deskSubcommands } from './slash-command.js';
import { statisticsRetryListener } from './statistics-command.js';
import { ticketFilterSubmitListener } from './ticket-filter-submit.js';
import { ticketResultListener } from './ticket-result-click.js';

export function deskSurface(
  deps: ListenerDeps,
  settings: { slashCommand: string; workingLineDelayMs?: number },
): Surface {
  return {
    clicks: [
      [TICKET_RESULT_ACTION_PATTERN, ticketResultListener(deps)],
      [ACTION_HOME_OPEN_TICKETS, homeTicketsListener(deps, settings.slashCommand)],
      [ACTION_HOME_OPEN_STATISTICS, homeStatisticsListener(deps, settings.slashCommand)],
      [AGENTS_GROUP_ACTION_PATTERN, agentsClickListener(deps, settings.slashCommand)],
      [ACTION_AGENTS_RETRY, agentsClickListener(deps, settings.slashCommand)],
      [ACTION_STATS_RETRY, statisticsRetryListener(deps, settings.slashCommand)],
    ],
    submissions: [[VIEW_TICKET_FILTER, ticketFilterSubmitListener(deps, settings.workingLineDelayMs)]],
    subcommands: deskSubcommands(deps, settings.workingLineDelayMs),
  };
}
