// What `/cs tickets` shows: the filter modal, a page of tickets as a table with Previous / Next and
// Download CSV, and the CSV itself. Pure: the listener fetches, these only lay out, within Slack's limits.
import type { types } from '@slack/bolt';
import { stringify } from 'csv-stringify/sync';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import { TICKET_SOURCES, TICKET_STATUSES, type Ticket } from '../../platform/schemas.js';
import {
  CATEGORY_ID_MAX,
  type FilterProblem,
  type TicketFilter,
  type TicketPageResult,
} from '../../service-desk/tickets.js';
import { wallClock } from '../../util/time-zone.js';
import type { RenderedMessage } from '../answers/blocks.js';
import { encodeTicketQueryValue } from '../kit/button-values.js';
import { button, context, plainText, section } from '../kit/elements.js';
import { SECTION_TEXT_MAX, truncate, truncateMrkdwn } from '../kit/limits.js';
import { SOURCE_WORDS, STATUS_GROUPS, STATUS_WORDS } from './command-grammar.js';
import { ACTION_TICKETS_CSV, ACTION_TICKETS_PAGE, ACTION_TICKETS_RETRY, VIEW_TICKET_FILTER } from './ids.js';
import { type MessageKey, t } from './messages.js';

type KnownBlock = types.KnownBlock;

/** Block ids and action ids of the filter modal's inputs, read back on submission. */
export const TICKET_FILTER_FIELDS = {
  from: { block: 'tickets_from', action: 'value' },
  to: { block: 'tickets_to', action: 'value' },
  statuses: { block: 'tickets_statuses', action: 'value' },
  sources: { block: 'tickets_sources', action: 'value' },
  category: { block: 'tickets_category', action: 'value' },
} as const;

/** A table cell's text: the platform's strings are cut so a row stays readable. */
const CELL_MAX = 80;
const TITLE_MAX = 60;

// The words for the spec's tables are selects: a value the spec does not list is shown as unknown.
function statusLabel(locale: Locale, status: number | undefined): string {
  return status === undefined ? '—' : t(locale, 'ticket_status', { status: String(status) });
}

function sourceLabel(locale: Locale, source: number | undefined): string {
  return source === undefined ? '—' : t(locale, 'ticket_source', { source: String(source) });
}

function levelLabel(locale: Locale, level: number | undefined): string {
  return level === undefined ? '—' : t(locale, 'ticket_level', { level: String(level) });
}

function startLabel(locale: Locale, start: number | undefined): string {
  return start === undefined ? '—' : t(locale, 'ticket_start', { start: String(start) });
}

/** yyyy-MM-dd HH:mm where the reader is. */
function formatTime(epochMs: number | undefined, timeZone: string): string {
  if (epochMs === undefined || !Number.isFinite(epochMs)) return '—';
  const clock = wallClock(epochMs, timeZone);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${clock.year}-${two(clock.month)}-${two(clock.day)} ${two(clock.hour)}:${two(clock.minute)}`;
}

/** The words the help lists, so typed filters and the help cannot drift apart. */
export function filterWords(): { statuses: string; sources: string } {
  return {
    statuses: [...Object.keys(STATUS_GROUPS), ...Object.values(STATUS_WORDS)]
      .map((w) => `\`${w}\``)
      .join(', '),
    sources: Object.values(SOURCE_WORDS)
      .map((w) => `\`${w}\``)
      .join(', '),
  };
}

function filterLine(locale: Locale, filter: TicketFilter): string {
  const any = t(locale, 'tickets_any');
  const statuses = filter.statuses.map((status) => statusLabel(locale, status)).join(', ') || any;
  const sources = filter.sources.map((source) => sourceLabel(locale, source)).join(', ') || any;
  const category = filter.categoryId ? `\`${escapeMrkdwn(filter.categoryId).replace(/`/g, "'")}\`` : any;
  return t(locale, 'tickets_filters', { statuses, sources, category });
}

function cell(text: string, max = CELL_MAX): { type: 'raw_text'; text: string } {
  // A table cell may not be empty.
  return { type: 'raw_text', text: truncate(text.replace(/\s+/g, ' ').trim(), max) || '—' };
}

function ticketRow(locale: Locale, ticket: Ticket, timeZone: string) {
  const handler = [ticket.dealUserName, ticket.dealGroupName].filter((part) => part?.trim()).join(' · ');
  return [
    cell(ticket.ticketCode === undefined ? ticket.ticketId : String(ticket.ticketCode)),
    cell(ticket.ticketTitle ?? '', TITLE_MAX),
    cell(statusLabel(locale, ticket.ticketStatus)),
    cell(levelLabel(locale, ticket.ticketLevel)),
    cell(sourceLabel(locale, ticket.ticketFrom)),
    cell(handler),
    cell(ticket.ticketTypeName ?? ''),
    cell(formatTime(ticket.createTime, timeZone)),
    cell(formatTime(ticket.updateTime, timeZone)),
  ];
}

const COLUMNS: MessageKey[] = [
  'col_number',
  'col_title',
  'col_status',
  'col_level',
  'col_source',
  'col_handler',
  'col_category',
  'col_created',
  'col_updated',
];

/** A button for a value that fit in one; none when it did not. */
function valueButton(
  text: string,
  actionId: string,
  value: string | undefined,
  style?: 'primary',
): types.Button | undefined {
  return value === undefined ? undefined : button(text, actionId, { value, ...(style ? { style } : {}) });
}

function actions(elements: (types.Button | undefined)[]): KnownBlock[] {
  const present = elements.filter((element): element is types.Button => element !== undefined);
  return present.length > 0 ? [{ type: 'actions', elements: present }] : [];
}

function pageValue(filter: TicketFilter, page: number): string | undefined {
  return encodeTicketQueryValue({ ...filter, page });
}

/** The heading every ticket message starts with: what was asked. */
function heading(locale: Locale, filter: TicketFilter): string {
  return `${t(locale, 'tickets_title', { from: filter.from, to: filter.to })}\n${filterLine(locale, filter)}`;
}

/** A page of tickets, an empty result or a failure, with the buttons that go on from it; `note` is added below. */
export function renderTicketResult(
  locale: Locale,
  filter: TicketFilter,
  result: TicketPageResult,
  note?: string,
): RenderedMessage {
  const head = heading(locale, filter);
  const noteBlocks = note ? [context(truncateMrkdwn(note, SECTION_TEXT_MAX))] : [];
  if (result.kind === 'empty') {
    const text = `${head}\n${t(locale, 'tickets_none', { from: filter.from, to: filter.to })}`;
    return { text, blocks: [section(truncateMrkdwn(text, SECTION_TEXT_MAX)), ...noteBlocks] };
  }
  if (result.kind === 'failure') {
    const problem = t(locale, result.reason === 'refused' ? 'tickets_refused' : 'tickets_unavailable');
    const text = `${head}\n${problem}`;
    return {
      text,
      blocks: [
        section(truncateMrkdwn(text, SECTION_TEXT_MAX)),
        ...actions([
          valueButton(t(locale, 'tickets_try_again'), ACTION_TICKETS_RETRY, pageValue(filter, 1), 'primary'),
        ]),
        ...noteBlocks,
      ],
    };
  }
  const summary = t(locale, 'tickets_summary', {
    total: result.total,
    page: result.page,
    pages: result.pageCount,
    zone: filter.timeZone,
  });
  const table: KnownBlock = {
    type: 'table',
    column_settings: [{ is_wrapped: false }, { is_wrapped: true }],
    rows: [
      COLUMNS.map((key) => cell(t(locale, key))),
      ...result.tickets.map((ticket) => ticketRow(locale, ticket, filter.timeZone)),
    ],
  };
  return {
    text: `${head}\n${summary}`,
    blocks: [
      section(truncateMrkdwn(head, SECTION_TEXT_MAX)),
      context(summary),
      table,
      ...actions([
        result.page > 1
          ? valueButton(
              t(locale, 'tickets_previous'),
              `${ACTION_TICKETS_PAGE}:prev`,
              pageValue(filter, result.page - 1),
            )
          : undefined,
        result.page < result.pageCount
          ? valueButton(
              t(locale, 'tickets_next'),
              `${ACTION_TICKETS_PAGE}:next`,
              pageValue(filter, result.page + 1),
            )
          : undefined,
        valueButton(t(locale, 'tickets_csv'), ACTION_TICKETS_CSV, pageValue(filter, result.page)),
      ]),
      ...noteBlocks,
    ],
  };
}

/** A typed filter that cannot be read: what is wrong, and the grammar. */
export function renderTicketProblem(locale: Locale, command: string, problem: FilterProblem): string {
  const words = filterWords();
  switch (problem.problem) {
    case 'not_a_date':
      return t(locale, 'tickets_not_a_date', { word: codeText(problem.word), command });
    case 'ends_before_start':
      return t(locale, 'tickets_ends_before_start');
    case 'in_the_future':
      return t(locale, 'tickets_in_the_future');
    case 'too_long':
      return t(locale, 'tickets_too_long', { days: problem.days });
    case 'too_many_queries':
      return t(locale, 'tickets_too_many_queries', { queries: problem.queries, max: problem.max });
    case 'unknown_status':
      return t(locale, 'tickets_unknown_status', { word: codeText(problem.word), list: words.statuses });
    case 'unknown_source':
      return t(locale, 'tickets_unknown_source', { word: codeText(problem.word), list: words.sources });
    case 'bad_category':
      return t(locale, 'tickets_bad_category', { word: codeText(problem.word) });
    case 'not_understood':
      return t(locale, 'tickets_not_understood', { word: codeText(problem.word), command });
  }
}

/** What someone typed, inside inline code: shortened, escaped, and with no backtick to end it. */
function codeText(text: string): string {
  return escapeMrkdwn(truncate(text, 40)).replace(/`/g, "'");
}

function option(text: string, value: string): types.PlainTextOption {
  return { text: plainText(text), value };
}

/** The filter modal: two dates, statuses, sources and a category; what to do with the result rides in private_metadata. */
export function renderTicketFilterModal(
  locale: Locale,
  defaults: { from: string; to: string; timeZone: string },
  privateMetadata: string,
): types.ModalView {
  const statusOptions = TICKET_STATUSES.map((status) => option(statusLabel(locale, status), String(status)));
  const sourceOptions = TICKET_SOURCES.map((source) => option(sourceLabel(locale, source), String(source)));
  const fields = TICKET_FILTER_FIELDS;
  const hint = t(locale, 'tickets_modal_any');
  return {
    type: 'modal',
    callback_id: VIEW_TICKET_FILTER,
    private_metadata: privateMetadata,
    title: plainText(t(locale, 'tickets_modal_title'), 24),
    submit: plainText(t(locale, 'tickets_modal_submit'), 24),
    close: plainText(t(locale, 'tickets_modal_cancel'), 24),
    blocks: [
      context(escapeMrkdwn(t(locale, 'tickets_modal_intro', { zone: defaults.timeZone }))),
      {
        type: 'input',
        block_id: fields.from.block,
        label: plainText(t(locale, 'tickets_modal_from'), 2000),
        element: { type: 'datepicker', action_id: fields.from.action, initial_date: defaults.from },
      },
      {
        type: 'input',
        block_id: fields.to.block,
        label: plainText(t(locale, 'tickets_modal_to'), 2000),
        element: { type: 'datepicker', action_id: fields.to.action, initial_date: defaults.to },
      },
      optionalInput(fields.statuses.block, t(locale, 'tickets_modal_statuses'), hint, {
        type: 'multi_static_select',
        action_id: fields.statuses.action,
        placeholder: plainText(t(locale, 'tickets_modal_pick'), 150),
        options: statusOptions,
      }),
      optionalInput(fields.sources.block, t(locale, 'tickets_modal_sources'), hint, {
        type: 'multi_static_select',
        action_id: fields.sources.action,
        placeholder: plainText(t(locale, 'tickets_modal_pick'), 150),
        options: sourceOptions,
      }),
      optionalInput(fields.category.block, t(locale, 'tickets_modal_category'), hint, {
        type: 'plain_text_input',
        action_id: fields.category.action,
        max_length: CATEGORY_ID_MAX,
      }),
    ],
  };
}

/** An input the filter may leave empty: empty means any. */
function optionalInput(
  blockId: string,
  label: string,
  hint: string,
  element: types.MultiStaticSelect | types.PlainTextInput,
): types.InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label, 2000),
    hint: plainText(hint, 2000),
    element,
  };
}
/** Spreadsheet programs run a cell that starts with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(text: string | number | undefined): string {
  if (text === undefined) return '';
  const value = String(text);
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Every ticket as one CSV row, words in the reader's language, times in their zone, formulas defused. */
export function renderTicketsCsv(locale: Locale, tickets: readonly Ticket[], timeZone: string): string {
  const header = [
    'ticketCode',
    'ticketId',
    'title',
    'status',
    'level',
    'source',
    'initiatorType',
    'initiator',
    'handler',
    'group',
    'category',
    `created (${timeZone})`,
    `updated (${timeZone})`,
    'content',
  ];
  const rows = tickets.map((ticket) =>
    [
      ticket.ticketCode,
      ticket.ticketId,
      ticket.ticketTitle,
      statusLabel(locale, ticket.ticketStatus),
      levelLabel(locale, ticket.ticketLevel),
      sourceLabel(locale, ticket.ticketFrom),
      startLabel(locale, ticket.startType),
      ticket.startName,
      ticket.dealUserName,
      ticket.dealGroupName,
      ticket.ticketTypeName,
      formatTime(ticket.createTime, timeZone),
      formatTime(ticket.updateTime, timeZone),
      ticket.ticketContent,
    ].map(csvCell),
  );
  // A byte-order mark, so spreadsheet programs read the Chinese text as UTF-8.
  return `\uFEFF${stringify([header, ...rows], { record_delimiter: 'windows' })}`;
}

export function csvFileName(filter: TicketFilter): string {
  return `tickets-${filter.from}-to-${filter.to}.csv`;
}

export function csvComment(locale: Locale, filter: TicketFilter, rows: number): string {
  return t(locale, 'tickets_csv_comment', {
    from: filter.from,
    to: filter.to,
    rows,
    filters: filterLine(locale, filter),
  });
}
