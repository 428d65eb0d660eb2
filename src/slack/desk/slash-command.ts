// The app's slash command (`/cs` by default, SLASH_COMMAND): help for everyone, the service desk's
// data for operators. Acknowledged at once; the answer goes to the command's response_url, so it is
// seen only by whoever asked, in any channel, whether the app is a member there or not.

import type { RespondArguments, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import { groupAgents } from '../../service-desk/agents.js';
import { periodOf, statisticsReport } from '../../service-desk/statistics.js';
import { wellFormed } from '../../util/well-formed.js';
import { operatorRefusal } from '../access/operator-gate.js';
import type { RenderedMessage } from '../answers/blocks.js';
import type { ListenerDeps } from '../handling/deps.js';
import type { BoltRequest, Handling } from '../handling/handling.js';
import { trackedListener } from '../handling/tracked.js';
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

interface CommandArgs extends BoltRequest {
  ack: () => Promise<void>;
  body: unknown;
  respond: RespondFn;
}

const commandSchema = z.object({
  command: z.string(),
  text: z.string().max(4000),
  user_id: z.string().min(1).max(64),
  team_id: z.string().max(64).optional(),
  trigger_id: z.string().max(200).optional(),
  response_url: z.string().min(1).max(2000),
});

export function slashCommandListener(deps: CommandDeps): (args: CommandArgs) => Promise<void> {
  return trackedListener<CommandArgs>(deps, 'slash command handling failed', async (handling, args) => {
    await args.ack();
    await answer(deps, handling, args.body, args.respond);
  });
}

async function answer(
  deps: CommandDeps,
  handling: Handling,
  body: unknown,
  respond: RespondFn,
): Promise<void> {
  const parsed = commandSchema.safeParse(body);
  if (!parsed.success) {
    handling.logger.warn({}, 'ignored a slash command of unexpected shape');
    return;
  }
  const { command, text, user_id: userId, trigger_id: triggerId } = parsed.data;
  const { locale } = await handling.person(userId);
  const reply = (message: RenderedMessage) => send(handling, respond, message);
  const subcommand = parseSubcommand(text);
  deps.onEvent('slash_command', subcommand.kind);
  if (subcommand.kind === 'help') {
    await reply(renderCommandHelp(locale, command));
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
        triggerId,
        responseUrl: parsed.data.response_url,
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

/** To the person who asked only; what the platform sent is made well formed first, as every message is. */
async function send(handling: Handling, respond: RespondFn, message: RenderedMessage): Promise<void> {
  const payload: RespondArguments = wellFormed({
    response_type: 'ephemeral',
    replace_original: false,
    text: message.text,
    ...(message.blocks.length > 0 ? { blocks: message.blocks } : {}),
  });
  try {
    await respond(payload);
  } catch (error) {
    handling.logger.error(errorFields(error), 'slash command answer could not be sent');
  }
}
