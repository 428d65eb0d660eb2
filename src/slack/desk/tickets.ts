import { z } from 'zod';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import { periodOf, statisticsReport } from '../../service-desk/statistics.js';
import {
  addDays,
  allTickets,
  checkFilter,
  DEFAULT_TICKET_DAYS,
  type FilterResult,
  isTicketSource,
  isTicketStatus,
  type TicketFilter,
  type TicketPageResult,
  ticketPage,
  todayIn,
} from '../../service-desk/tickets.js';
import { parseJsonWith } from '../../util/json.js';
import { isTimeZone } from '../../util/time-zone.js';
import { operatorRefusal } from '../access/operator-gate.js';
import type { RenderedMessage } from '../answers/blocks.js';
import { type Click, type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { ListenerDeps } from '../handling/deps.js';
import type { Handling } from '../handling/handling.js';
import { trackedListener, type ViewArgs } from '../handling/tracked.js';
import { decodeTicketQueryValue } from '../kit/button-values.js';
import { plainText } from '../kit/elements.js';
import { viewSubmissionSchema } from '../transport/incoming.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { parseTicketArguments } from './command-grammar.js';
import { renderStatistics, renderStatisticsProblem } from './command-views.js';
import { ACTION_TICKETS_CSV } from './ids.js';
import { t } from './messages.js';
import {
  csvComment,
  csvFileName,
  renderTicketFilterModal,
  renderTicketProblem,
  renderTicketResult,
  renderTicketsCsv,
  TICKET_FILTER_FIELDS,
} from './ticket-views.js';

export type TicketDeps = Pick<
  ListenerDeps,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'access' | 'tickets' | 'statistics'
>;

/** Where a result goes: the command's response_url (ephemeral, where it was typed), else the operator's DM. */
interface Destination {
  responseUrl: string | undefined;
  userId: string;
}

/** The zone a reader's days are counted in when Slack does not say. */
const FALLBACK_TIME_ZONE = 'UTC';

/** What the modal carries from the command: where to answer, and the command's name for its messages. */
const filterMetadataSchema = z.object({
  v: z.literal(1),
  r: z.string().max(2000).optional(),
  c: z.string().max(40),
});

// ---------------------------------------------------------------- the command

/** `/cs tickets …`: no words opens the filter modal; typed filters answer at once. */
export async function ticketsCommand(
  deps: TicketDeps,
  handling: Handling,
  input: {
    words: string[];
    userId: string;
    teamId: string;
    command: string;
    triggerId: string | undefined;
    responseUrl: string;
  },
  reply: (message: RenderedMessage) => Promise<void>,
): Promise<void> {
  const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(input.userId);
  if (input.words.length === 0 && input.triggerId) {
    const opened = await openTicketFilter(handling, {
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
    await reply({ text, blocks: [] });
    return;
  }
  await reply(await resultMessage(deps, handling, locale, filter.filter, 1));
}

async function readPage(
  deps: Pick<TicketDeps, 'tickets' | 'onEvent'>,
  handling: Handling,
  filter: TicketFilter,
  page: number,
): Promise<TicketPageResult> {
  const result = await ticketPage(deps.tickets, filter, page, { requestId: handling.requestId });
  deps.onEvent('tickets', result.kind);
  if (result.kind === 'failure') {
    handling.logger.warn({ filter, reason: result.reason }, 'tickets not had from the platform');
  }
  return result;
}

async function resultMessage(
  deps: Pick<TicketDeps, 'tickets' | 'onEvent'>,
  handling: Handling,
  locale: Locale,
  filter: TicketFilter,
  page: number,
): Promise<RenderedMessage> {
  return renderTicketResult(locale, filter, await readPage(deps, handling, filter, page));
}

/** Opens the filter modal; false when Slack refused (an expired trigger, most often). */
async function openTicketFilter(
  handling: Handling,
  input: {
    triggerId: string;
    locale: Locale;
    timeZone: string;
    responseUrl: string | undefined;
    command: string;
  },
): Promise<boolean> {
  const today = todayIn(input.timeZone, new Date());
  const metadata = JSON.stringify({
    v: 1,
    ...(input.responseUrl ? { r: input.responseUrl } : {}),
    c: input.command,
  });
  const view = renderTicketFilterModal(
    input.locale,
    { from: addDays(today, -(DEFAULT_TICKET_DAYS - 1)), to: today, timeZone: input.timeZone },
    metadata,
  );
  try {
    await handling.client.views.open({ trigger_id: input.triggerId, view });
    return true;
  } catch (error) {
    handling.logger.error(errorFields(error), 'tickets filter modal could not be opened');
    return false;
  }
}

// ---------------------------------------------------------------- the modal's submission

const selected = z.object({ value: z.string().max(10) });
const filterStateSchema = z.object({
  values: z.object({
    [TICKET_FILTER_FIELDS.from.block]: z.object({ value: z.object({ selected_date: z.string().nullish() }) }),
    [TICKET_FILTER_FIELDS.to.block]: z.object({ value: z.object({ selected_date: z.string().nullish() }) }),
    [TICKET_FILTER_FIELDS.statuses.block]: z
      .object({ value: z.object({ selected_options: z.array(selected).max(20).nullish() }) })
      .optional(),
    [TICKET_FILTER_FIELDS.sources.block]: z
      .object({ value: z.object({ selected_options: z.array(selected).max(20).nullish() }) })
      .optional(),
    [TICKET_FILTER_FIELDS.category.block]: z
      .object({ value: z.object({ value: z.string().max(200).nullish() }) })
      .optional(),
  }),
});

export function ticketFilterSubmitListener(deps: TicketDeps): (args: ViewArgs) => Promise<void> {
  return trackedListener<ViewArgs>(deps, 'tickets filter failed', (handling, { ack, body }) =>
    submitFilter(deps, handling, ack, body),
  );
}

async function submitFilter(
  deps: TicketDeps,
  handling: Handling,
  ack: ViewArgs['ack'],
  body: unknown,
): Promise<void> {
  const parsed = viewSubmissionSchema.safeParse(body);
  const metadata = parsed.success
    ? parseJsonWith(parsed.data.view.private_metadata ?? '', filterMetadataSchema)
    : undefined;
  const state = parsed.success ? filterStateSchema.safeParse(parsed.data.view.state) : undefined;
  if (!parsed.success || !metadata || !state?.success) {
    handling.logger.warn({}, 'ignored a tickets filter submission of unexpected shape');
    await ack();
    return;
  }
  const userId = parsed.data.user.id;
  const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(userId);
  const fields = TICKET_FILTER_FIELDS;
  // The right is checked again: a modal can be submitted long after it opened.
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'tickets_submit');
  if (refusal) {
    deps.onEvent('tickets_modal', 'refused');
    await ack({ response_action: 'errors', errors: { [fields.from.block]: refusal } });
    return;
  }
  const values = state.data.values;
  const numbers = (options: { value: string }[] | null | undefined) =>
    (options ?? []).map((option) => Number(option.value));
  const statuses = numbers(values[fields.statuses.block]?.value.selected_options);
  const sources = numbers(values[fields.sources.block]?.value.selected_options);
  const category = values[fields.category.block]?.value.value?.trim() || undefined;
  const checked: FilterResult =
    statuses.every(isTicketStatus) && sources.every(isTicketSource)
      ? checkFilter(
          {
            from: values[fields.from.block]?.value.selected_date ?? '',
            to: values[fields.to.block]?.value.selected_date ?? '',
            timeZone,
            statuses,
            sources,
            categoryId: category,
          },
          todayIn(timeZone, new Date()),
        )
      : { kind: 'invalid', problem: 'not_understood', word: 'status/source' };
  if (checked.kind === 'invalid') {
    deps.onEvent('tickets_modal', 'invalid');
    const block =
      checked.problem === 'bad_category'
        ? fields.category.block
        : checked.problem === 'ends_before_start' ||
            checked.problem === 'too_long' ||
            checked.problem === 'too_many_queries'
          ? fields.to.block
          : fields.from.block;
    await ack({
      response_action: 'errors',
      errors: { [block]: renderTicketProblem(locale, metadata.c, checked) },
    });
    return;
  }
  await ack();
  const message = await resultMessage(deps, handling, locale, checked.filter, 1);
  await deliver(handling, { responseUrl: metadata.r, userId }, message, locale);
}

/** A new result: ephemeral where the command was typed, or in the operator's DM with the app. */
async function deliver(
  handling: Handling,
  destination: Destination,
  message: RenderedMessage,
  locale: Locale,
): Promise<void> {
  if (destination.responseUrl) {
    await postToResponseUrl(destination.responseUrl, { message, replace: false }, handling.logger);
    return;
  }
  const channel = await directMessageChannel(handling, destination.userId);
  if (!channel) return;
  try {
    await handling.client.chat.postMessage({
      channel,
      text: `${t(locale, 'tickets_in_dm_note')}\n${message.text}`,
      blocks: message.blocks,
    });
  } catch (error) {
    handling.logger.error(errorFields(error), 'tickets result could not be posted in the DM');
  }
}

async function directMessageChannel(handling: Handling, userId: string): Promise<string | undefined> {
  try {
    const opened = await handling.client.conversations.open({ users: userId });
    const id = opened.channel?.id;
    if (!id) handling.logger.error({ userId }, 'conversations.open gave no channel');
    return id;
  } catch (error) {
    handling.logger.error(
      { ...errorFields(error), userId },
      'direct message with the operator could not be opened',
    );
    return undefined;
  }
}

// ---------------------------------------------------------------- the result's buttons

/**
 * A result's buttons. Previous, Next and Try again draw the page asked for in place of the message
 * clicked; Download CSV uploads every ticket of the filter to the operator's DM, with a progress note
 * meanwhile.
 */
export function ticketResultListener(deps: TicketDeps): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'tickets click failed', (handling, click) =>
    handleResultClick(deps, handling, click),
  );
}

async function handleResultClick(deps: TicketDeps, handling: Handling, click: Click): Promise<void> {
  const actionId = click.payload.actions[0]?.action_id ?? '';
  const isCsv = actionId === ACTION_TICKETS_CSV;
  const { locale } = await handling.person(click.userId);
  const value = decodeTicketQueryValue(click.value ?? '');
  const filter =
    value?.statuses.every(isTicketStatus) && value.sources.every(isTicketSource) && isTimeZone(value.timeZone)
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
  const refusal = await operatorRefusal(
    deps.access,
    handling,
    click.userId,
    locale,
    isCsv ? 'tickets_csv' : 'tickets_page',
  );
  if (refusal) {
    deps.onEvent(isCsv ? 'tickets_csv' : 'tickets_page', 'refused');
    await respond({ text: refusal, blocks: [] }, false);
    return;
  }
  if (!isCsv) {
    await respond(await resultMessage(deps, handling, locale, filter.filter, value.page));
    return;
  }
  await exportCsv(deps, handling, { ...click, locale }, filter.filter, value.page, respond);
}

async function exportCsv(
  deps: TicketDeps,
  handling: Handling,
  click: Click & { locale: Locale },
  filter: TicketFilter,
  page: number,
  respond: (message: RenderedMessage) => Promise<boolean>,
): Promise<void> {
  const { locale, userId } = click;
  const shown = await readPage(deps, handling, filter, page);
  const total = shown.kind === 'page' ? shown.total : 0;
  await respond(renderTicketResult(locale, filter, shown, t(locale, 'tickets_csv_progress', { total })));

  const gathered = await allTickets(deps.tickets, filter, { requestId: handling.requestId });
  const rows = gathered.kind === 'all' ? gathered.tickets.length : 0;
  let note: string;
  if (gathered.kind === 'failure') {
    note = t(locale, 'tickets_csv_failed');
  } else {
    const tickets = gathered.kind === 'all' ? gathered.tickets : [];
    const sent = await uploadCsv(handling, userId, {
      file: renderTicketsCsv(locale, tickets, filter.timeZone),
      filename: csvFileName(filter),
      comment: csvComment(locale, filter, rows),
    });
    note = sent
      ? [
          t(locale, 'tickets_csv_sent', { file: csvFileName(filter), rows }),
          ...(gathered.kind === 'all' && gathered.truncated
            ? [t(locale, 'tickets_csv_truncated', { rows })]
            : []),
        ].join('\n')
      : t(locale, 'tickets_csv_not_sent');
  }
  const outcome = gathered.kind === 'failure' ? 'failure' : note.startsWith('📎') ? 'sent' : 'not_sent';
  deps.onEvent('tickets_csv', outcome);
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
      result: outcome,
    },
    'tickets exported',
  );
  await respond(renderTicketResult(locale, filter, shown, note));
}

function noteBlock(text: string) {
  return [{ type: 'context' as const, elements: [{ type: 'mrkdwn' as const, text }] }];
}

async function uploadCsv(
  handling: Handling,
  userId: string,
  csv: { file: string; filename: string; comment: string },
): Promise<boolean> {
  const channel = await directMessageChannel(handling, userId);
  if (!channel) return false;
  try {
    await handling.client.files.uploadV2({
      channel_id: channel,
      file: Buffer.from(csv.file, 'utf8'),
      filename: csv.filename,
      title: csv.filename,
      initial_comment: csv.comment,
    });
    return true;
  } catch (error) {
    handling.logger.error({ ...errorFields(error), userId }, 'tickets CSV could not be uploaded');
    return false;
  }
}

// ---------------------------------------------------------------- the Home tab's buttons

/** Home → Tickets: the filter modal; its result goes to the operator's DM (Home has no response_url). */
export function homeTicketsListener(deps: TicketDeps, command: string): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'home tickets failed', async (handling, click) => {
    const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'home_tickets');
    if (refusal || !click.payload.trigger_id) {
      deps.onEvent('tickets_modal', refusal ? 'refused' : 'failed');
      return;
    }
    const opened = await openTicketFilter(handling, {
      triggerId: click.payload.trigger_id,
      locale,
      timeZone,
      responseUrl: undefined,
      command,
    });
    deps.onEvent('tickets_modal', opened ? 'opened' : 'failed');
  });
}

/** Home → Statistics: a modal opened at once (the trigger lasts 3 s), then filled with the last 7 days. */
export function homeStatisticsListener(deps: TicketDeps): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'home statistics failed', async (handling, click) => {
    const { locale } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'home_statistics');
    if (refusal || !click.payload.trigger_id) {
      deps.onEvent('statistics_modal', refusal ? 'refused' : 'failed');
      return;
    }
    const modal = (blocks: RenderedMessage['blocks']) => ({
      type: 'modal' as const,
      title: plainText(t(locale, 'stats_modal_title'), 24),
      close: plainText(t(locale, 'stats_modal_close'), 24),
      blocks,
    });
    let viewId: string | undefined;
    try {
      const opened = await handling.client.views.open({
        trigger_id: click.payload.trigger_id,
        view: modal(noteBlock(t(locale, 'stats_modal_loading'))),
      });
      viewId = opened.view?.id;
    } catch (error) {
      handling.logger.error(errorFields(error), 'statistics modal could not be opened');
    }
    if (!viewId) {
      deps.onEvent('statistics_modal', 'failed');
      return;
    }
    const period = periodOf(undefined, undefined, new Date());
    const result =
      period.kind === 'ok'
        ? await statisticsReport(deps.statistics, period.period, { requestId: handling.requestId })
        : undefined;
    const message =
      result?.kind === 'report'
        ? renderStatistics(locale, result.report)
        : renderStatisticsProblem(locale, '/cs', 'unavailable');
    deps.onEvent('statistics_modal', result?.kind === 'report' ? 'shown' : 'failure');
    try {
      await handling.client.views.update({ view_id: viewId, view: modal(message.blocks) });
    } catch (error) {
      handling.logger.error(errorFields(error), 'statistics modal could not be filled');
    }
  });
}
