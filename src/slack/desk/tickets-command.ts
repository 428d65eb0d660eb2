// `/cs tickets …`: no words opens the filter modal; typed filters answer at once, where typed.
import { todayIn } from '../../service-desk/tickets.js';
import type { Handling } from '../handling/handling.js';
import type { RenderedMessage } from '../kit/elements.js';
import { parseTicketArguments } from './command-grammar.js';
import type { DeskDeps } from './pieces.js';
import { renderTicketProblem } from './ticket-views.js';
import { FALLBACK_TIME_ZONE, openTicketFilter, resultMessage } from './tickets.js';

export async function ticketsCommand(
  deps: DeskDeps,
  handling: Handling,
  input: {
    words: string[];
    userId: string;
    command: string;
    triggerId: string | undefined;
    responseUrl: string;
  },
  answer: {
    reply: (message: RenderedMessage) => Promise<void>;
    /** For a result the platform is read for: a working line first when it is slow. */
    whenReady: (work: Promise<RenderedMessage>) => Promise<void>;
  },
): Promise<void> {
  const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(input.userId);
  if (input.words.length === 0 && input.triggerId) {
    const opened = await openTicketFilter(deps, handling, {
      triggerId: input.triggerId,
      locale,
      timeZone,
      responseUrl: input.responseUrl,
      command: input.command,
    });
    deps.onEvent('tickets_modal', opened ? 'opened' : 'failed');
    if (opened) return;
  }
  const filter = parseTicketArguments(input.words, todayIn(timeZone, new Date()), timeZone);
  if (filter.kind === 'invalid') {
    deps.onEvent('tickets', 'invalid');
    const text = renderTicketProblem(locale, input.command, filter);
    await answer.reply({ text, blocks: [] });
    return;
  }
  await answer.whenReady(resultMessage(deps, handling, locale, filter.filter, 1));
}
