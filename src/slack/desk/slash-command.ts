// The desk's part of the slash command: help for everyone, the desk's data for operators, seen by the typer.

import { todayIn } from '../../util/time-zone.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { HELP_SUBCOMMAND, type SubcommandListener, type SubcommandRequest } from '../handling/command.js';
import type { RenderedMessage } from '../kit/elements.js';
import { agentsMessage } from './agents.js';
import { parseSubcommand, parseTicketArguments } from './command-grammar.js';
import { renderCommandHelp } from './command-views.js';
import type { DeskDeps } from './pieces.js';
import { sendStatisticsChart } from './statistics-chart.js';
import { statisticsMessage } from './statistics-command.js';
import { renderTicketProblem } from './ticket-views.js';
import { FALLBACK_TIME_ZONE, openTicketFilter, resultMessage } from './tickets.js';
import { answerWhenReady, WORKING_LINE_DELAY_MS } from './working-line.js';

/** The desk's words of the slash command; `help` is also what an unknown word gets. */
export function deskSubcommands(
  deps: DeskDeps,
  workingLineDelayMs = WORKING_LINE_DELAY_MS,
): [word: string, listener: SubcommandListener][] {
  const listener: SubcommandListener = (request) => answer(deps, request, workingLineDelayMs);
  return [HELP_SUBCOMMAND, 'tickets', 'agents', 'stats'].map((word) => [word, listener]);
}

async function answer(deps: DeskDeps, request: SubcommandRequest, workingLineDelayMs: number): Promise<void> {
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
  const whenReady = (work: Promise<RenderedMessage>) =>
    answerWhenReady(reply, locale, workingLineDelayMs, work);
  if (subcommand.kind === 'tickets') {
    await ticketsCommand(deps, request, subcommand.words, whenReady);
    return;
  }
  if (subcommand.kind === 'agents') {
    await whenReady(agentsMessage(deps, handling, locale, command, subcommand.group));
    return;
  }
  // "Today" is the operator's, so the last 7 days end on the date their clock shows.
  const timeZone = handling.person(userId).then((person) => person.timeZone);
  const statistics = timeZone.then((zone) =>
    statisticsMessage(deps, handling, locale, command, subcommand.dates, zone),
  );
  await whenReady(statistics.then((shown) => shown.message));
  // Only once the figures are posted: the chart's platform calls and drawing never hold them back.
  const { chartPeriod } = await statistics;
  if (chartPeriod) {
    const operator = { userId, locale, timeZone: (await timeZone) ?? FALLBACK_TIME_ZONE };
    await sendStatisticsChart(deps, handling, operator, chartPeriod, (note) =>
      reply(note, { replace: false }),
    );
  }
}

/** `/cs tickets …`: no words opens the filter modal; typed filters answer at once, where typed. */
async function ticketsCommand(
  deps: DeskDeps,
  { handling, userId, command, triggerId, responseUrl, reply }: SubcommandRequest,
  words: string[],
  whenReady: (work: Promise<RenderedMessage>) => Promise<void>,
): Promise<void> {
  const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(userId);
  if (words.length === 0 && triggerId) {
    const input = { triggerId, locale, timeZone, responseUrl, command };
    if (await openTicketFilter(deps, handling, input)) return;
  }
  const filter = parseTicketArguments(words, todayIn(timeZone, new Date()), timeZone);
  if (filter.kind === 'invalid') {
    deps.onEvent('tickets', 'invalid');
    await reply({ text: renderTicketProblem(locale, command, filter), blocks: [] });
    return;
  }
  await whenReady(resultMessage(deps, handling, locale, filter.filter, 1));
}
