// What the tickets listeners share: reading a filter's page (counted once) and opening the filter modal.
import type { Locale } from '../../conversation/locale.js';
import { type TicketFilter, type TicketPageResult, ticketPage } from '../../service-desk/tickets.js';
import { todayIn } from '../../util/time-zone.js';
import type { Handling } from '../handling/handling.js';
import type { RenderedMessage } from '../kit/elements.js';
import { defaultTicketsFrom } from './command-grammar.js';
import type { DeskDeps } from './pieces.js';
import {
  encodeTicketFilterMetadata,
  renderTicketFilterModal,
  type TicketFilterMetadata,
} from './ticket-filter-view.js';
import { renderTicketResult } from './ticket-views.js';

/** The zone a reader's days are counted in when Slack does not say. */
export const FALLBACK_TIME_ZONE = 'UTC';

export async function readPage(
  deps: Pick<DeskDeps, 'platformOf' | 'onEvent'>,
  handling: Handling,
  filter: TicketFilter,
  page: number,
): Promise<TicketPageResult> {
  const result = await ticketPage(deps.platformOf(handling.teamId), filter, page, {
    requestId: handling.requestId,
  });
  deps.onEvent('tickets', result.kind);
  if (result.kind === 'failure') {
    handling.logger.warn({ filter, reason: result.reason }, 'tickets not shown: the platform failed');
  }
  return result;
}

export async function resultMessage(
  deps: Pick<DeskDeps, 'platformOf' | 'onEvent'>,
  handling: Handling,
  locale: Locale,
  filter: TicketFilter,
  page: number,
): Promise<RenderedMessage> {
  return renderTicketResult(locale, filter, await readPage(deps, handling, filter, page));
}

/** Opens the filter modal on the last 7 days, counted; false when Slack refused (an expired trigger, most often). */
export async function openTicketFilter(
  deps: Pick<DeskDeps, 'responder' | 'onEvent'>,
  handling: Handling,
  input: { triggerId: string; locale: Locale; timeZone: string } & TicketFilterMetadata,
): Promise<boolean> {
  const today = todayIn(input.timeZone, new Date());
  const view = renderTicketFilterModal(
    input.locale,
    { from: defaultTicketsFrom(today), to: today, timeZone: input.timeZone },
    encodeTicketFilterMetadata(input),
  );
  const opened = (await deps.responder.openModal(handling, input.triggerId, view)) !== undefined;
  deps.onEvent('tickets_modal', opened ? 'opened' : 'failed');
  return opened;
}
