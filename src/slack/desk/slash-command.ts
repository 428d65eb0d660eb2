// The desk's part of the slash command (`/cs` by default, SLASH_COMMAND): help for everyone, the
// service desk's data (tickets, agents, stats) for operators. handling/command.ts acknowledges the
// command and hands these words here; the answer is seen only by whoever typed it.

import type { Locale } from '../../conversation/locale.js';
import { groupAgents } from '../../service-desk/agents.js';
import { periodOf, statisticsReport } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import type { RenderedMessage } from '../answers/blocks.js';
import { HELP_SUBCOMMAND, type SubcommandListener, type SubcommandRequest } from '../handling/command.js';
import type { ListenerDeps } from '../handling/deps.js';
import type { Handling } from '../handling/handling.js';
import { parseSubcommand } from './command-grammar.js';
import {
  renderAgents,
  renderAgentsUsage,
  renderCommandHelp,
  renderStatistics,
  renderStatisticsProblem,
} from './command-views.js';
import { ticketsCommand } from './tickets-command.js';

type CommandDeps = Pick<
  ListenerDeps,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'access' | 'agents' | 'statistics' | 'tickets'
>;

/** The desk's words of the slash command; `help` is also what an unknown word gets. */
export function deskSubcommands(deps: CommandDeps): [word: string, listener: SubcommandListener][] {
  const listener: SubcommandListener = (request) => answer(deps, request);
  return [HELP_SUBCOMMAND, 'tickets', 'agents', 'stats'].map((word) => [word, listener]);
}

async function answer(deps: CommandDeps, request: SubcommandRequest): Promise<void> {
  const { handling, command, userId, locale, reply } = request;
  // The desk's own grammar reads the whole text: an unknown word routed here is its help.
  const subcommand = parseSubcommand(request.word === HELP_SUBCOMMAND ? '' : request.text);
  if (subcommand.kind === 'help') {
    await reply(renderCommandHelp(locale, command, request.surfaceHelp));
    return;
  }
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, `command_${subcommand.kind}`);
  if (refusal) {
    await reply({ text: refusal, blocks: [] });
    return;
  }
  if (subcommand.kind === 'tickets') {
    await ticketsCommand(
      deps,
      handling,
      {
        words: subcommand.words,
        userId,
        command,
        triggerId: request.triggerId,
        responseUrl: request.responseUrl,
      },
      reply,
    );
    return;
  }
  await reply(
    subcommand.kind === 'agents'
      ? await agentsMessage(deps, handling, locale, command, subcommand.groupId)
      : await statisticsMessage(deps, handling, locale, command, subcommand),
  );
}

async function statisticsMessage(
  deps: CommandDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  asked: { from: string | undefined; to: string | undefined },
): Promise<RenderedMessage> {
  const period = periodOf(asked.from, asked.to, new Date());
  if (period.kind === 'invalid') return renderStatisticsProblem(locale, command, period.problem);
  const result = await statisticsReport(deps.statistics, period.period, { requestId: handling.requestId });
  if (result.kind !== 'report') {
    handling.logger.warn({ period: period.period }, 'statistics not had from the platform');
    return renderStatisticsProblem(locale, command, 'unavailable');
  }
  return renderStatistics(locale, result.report);
}

async function agentsMessage(
  deps: CommandDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  groupId: string | undefined,
): Promise<RenderedMessage> {
  if (groupId === undefined) return renderAgentsUsage(locale, command);
  const result = await groupAgents(deps.agents, groupId, { requestId: handling.requestId });
  if (result.kind === 'failure')
    handling.logger.warn({ groupId, reason: result.reason }, 'agents not listed');
  return renderAgents(locale, result);
}
