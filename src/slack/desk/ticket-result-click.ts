// A result's buttons: Previous, Next and Try again redraw in place; Download CSV goes to the operator's DM.
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import {
  allTickets,
  checkFilter,
  isTicketSource,
  isTicketStatus,
  type TicketExportResult,
  type TicketFilter,
} from '../../service-desk/tickets.js';
import { isTimeZone, todayIn } from '../../util/time-zone.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { decodeTicketQueryValue } from '../kit/button-values.js';
import type { RenderedMessage } from '../kit/elements.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { ACTION_TICKETS_CSV } from './ids.js';
import { t } from './messages.js';
import type { DeskDeps } from './pieces.js';
import {
  type CsvExport,
  csvComment,
  csvFileName,
  renderCsvNote,
  renderTicketResult,
  renderTicketsCsv,
} from './ticket-views.js';
import { readPage, resultMessage } from './tickets.js';

export function ticketResultListener(deps: DeskDeps): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'tickets click failed', async (handling, click) => {
    const actionId = click.payload.actions[0]?.action_id ?? '';
    const isCsv = actionId === ACTION_TICKETS_CSV;
    const { locale } = await handling.person(click.userId);
    const value = decodeTicketQueryValue(click.value);
    const filter =
      value?.statuses.every(isTicketStatus) &&
      value.sources.every(isTicketSource) &&
      isTimeZone(value.timeZone)
        ? checkFilter(
            { ...value, statuses: value.statuses, sources: value.sources },
            todayIn(value.timeZone, new Date()),
          )
        : undefined;
    const responseUrl = click.payload.response_url;
    if (!value || filter?.kind !== 'ok' || !responseUrl) {
      handling.logger.warn({ actionId }, 'ignored a tickets click with a malformed value');
      return;
    }
    const respond = (message: RenderedMessage, replace = true) =>
      postToResponseUrl(responseUrl, { message, replace }, handling.logger);
    const action = isCsv ? 'tickets_csv' : 'tickets_page';
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, action);
    if (refusal) {
      deps.onEvent(action, 'refused');
      await respond({ text: refusal, blocks: [] }, false);
      return;
    }
    if (!isCsv) {
      await respond(await resultMessage(deps, handling, locale, filter.filter, value.page));
      return;
    }
    await exportCsv(deps, handling, { userId: click.userId, locale }, filter.filter, value.page, respond);
  });
}

async function exportCsv(
  deps: DeskDeps,
  handling: Handling,
  operator: { userId: string; locale: Locale },
  filter: TicketFilter,
  page: number,
  respond: (message: RenderedMessage) => Promise<boolean>,
): Promise<void> {
  const { locale, userId } = operator;
  const shown = await readPage(deps, handling, filter, page);
  const total = shown.kind === 'page' ? shown.total : 0;
  await respond(renderTicketResult(locale, filter, shown, t(locale, 'tickets_csv_progress', { total })));

  const gathered = await allTickets(deps.platformOf(handling.teamId), filter, {
    requestId: handling.requestId,
  });
  const exported = await sendCsv(deps, handling, operator, filter, gathered);
  const rows = gathered.kind === 'all' ? gathered.tickets.length : 0;
  deps.onEvent('tickets_csv', exported.kind);
  handling.logger.info(
    {
      audit: 'tickets_export',
      operator: userId,
      filter: {
        from: filter.from,
        to: filter.to,
        timeZone: filter.timeZone,
        statuses: filter.statuses,
        sources: filter.sources,
        ...(filter.categoryId ? { categoryId: filter.categoryId } : {}),
      },
      rows,
      result: exported.kind,
    },
    'tickets exported',
  );
  await respond(renderTicketResult(locale, filter, shown, renderCsvNote(locale, exported)));
}

/** The CSV of what was gathered, in the operator's DM; an empty result is sent too, as its header. */
async function sendCsv(
  deps: Pick<DeskDeps, 'responder'>,
  handling: Handling,
  { userId, locale }: { userId: string; locale: Locale },
  filter: TicketFilter,
  gathered: TicketExportResult,
): Promise<CsvExport> {
  if (gathered.kind === 'failure') return { kind: 'failure', reason: gathered.reason };
  const tickets = gathered.kind === 'all' ? gathered.tickets : [];
  const file = csvFileName(filter);
  const channel = await deps.responder.directMessage(handling, userId);
  if (!channel) return { kind: 'not_sent' };
  try {
    await handling.client.files.uploadV2({
      channel_id: channel,
      file: Buffer.from(renderTicketsCsv(locale, tickets, filter.timeZone), 'utf8'),
      filename: file,
      title: file,
      initial_comment: csvComment(locale, filter, tickets.length),
    });
  } catch (error) {
    handling.logger.error({ ...errorFields(error), userId }, 'tickets CSV could not be uploaded');
    return { kind: 'not_sent' };
  }
  return {
    kind: 'sent',
    file,
    rows: tickets.length,
    truncated: gathered.kind === 'all' && gathered.truncated,
  };
}
