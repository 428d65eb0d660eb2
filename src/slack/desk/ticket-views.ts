// What `/cs tickets` shows: a page of tickets, the CSV and its outcome; pure, within Slack's limits.
import type { types } from '@slack/bolt';
import { stringify } from 'csv-stringify/sync';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import type { Ticket } from '../../platform/schemas.js';
import type { DeskFailureKind } from '../../service-desk/platform-failure.js';
import type { FilterProblem, TicketFilter, TicketPageResult } from '../../service-desk/tickets.js';
import { wallClock } from '../../util/time-zone.js';
import { encodeTicketQueryValue } from '../kit/button-values.js';
import { button, context, type RenderedMessage, section } from '../kit/elements.js';
import { SECTION_TEXT_MAX, truncate, truncateCharacters, truncateMrkdwn } from '../kit/limits.js';
import { SOURCE_WORDS, STATUS_GROUPS, STATUS_WORDS } from './command-grammar.js';
import {
  ACTION_TICKETS_CSV,
  ACTION_TICKETS_NEXT,
  ACTION_TICKETS_PREVIOUS,
  ACTION_TICKETS_RETRY,
} from './ids.js';
import { type MessageKey, t } from './messages.js';

type KnownBlock = types.KnownBlock;

/** A table cell's text: the platform's strings are cut so a row stays readable. */
const CELL_MAX = 80;
const TITLE_MAX = 60;
const NAME_MAX = 100;
const CODE_MAX = 40;

/** The spec's tables of codes, each a select: a code the spec does not list is shown as unknown. */
type CodeTable = 'ticket_status' | 'ticket_source' | 'ticket_level' | 'ticket_start';

export function codeLabel(locale: Locale, table: CodeTable, code: number | undefined): string {
  return code === undefined ? '—' : t(locale, table, { code: String(code) });
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
  const statuses =
    filter.statuses.map((status) => codeLabel(locale, 'ticket_status', status)).join(', ') || any;
  const sources =
    filter.sources.map((source) => codeLabel(locale, 'ticket_source', source)).join(', ') || any;
  const category = filter.categoryId ? `\`${codeText(filter.categoryId)}\`` : any;
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
    cell(codeLabel(locale, 'ticket_status', ticket.ticketStatus)),
    cell(codeLabel(locale, 'ticket_level', ticket.ticketLevel)),
    cell(codeLabel(locale, 'ticket_source', ticket.ticketFrom)),
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

function heading(locale: Locale, filter: TicketFilter): string {
  return `${t(locale, 'tickets_title', { from: filter.from, to: filter.to })}\n${filterLine(locale, filter)}`;
}

/** Command results quote the platform's text: every section is cut to fit. */
export function fittedSection(text: string): KnownBlock {
  return section(truncateMrkdwn(text, SECTION_TEXT_MAX));
}

/** A page of tickets, an empty result or a failure, with the buttons on from it; `note` goes below. */
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
    return { text, blocks: [fittedSection(text), ...noteBlocks] };
  }
  if (result.kind === 'failure') {
    const text = `${head}\n${t(locale, 'tickets_failure', { reason: result.reason })}`;
    return {
      text,
      blocks: [
        fittedSection(text),
        ...actions([
          valueButton(t(locale, 'cs_try_again'), ACTION_TICKETS_RETRY, pageValue(filter, 1), 'primary'),
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
      fittedSection(head),
      context(summary),
      table,
      ...actions([
        result.page > 1
          ? valueButton(
              t(locale, 'tickets_previous'),
              ACTION_TICKETS_PREVIOUS,
              pageValue(filter, result.page - 1),
            )
          : undefined,
        result.page < result.pageCount
          ? valueButton(t(locale, 'tickets_next'), ACTION_TICKETS_NEXT, pageValue(filter, result.page + 1))
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
    case 'too_many_dates':
      return t(locale, 'tickets_too_many_dates', { word: codeText(problem.word), command });
    case 'not_understood':
      return t(locale, 'tickets_not_understood', { word: codeText(problem.word), command });
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
  }
}

/** Names, ids and words from the platform or a person: shown as text, never as markup, cut by characters. */
export function shown(text: string, max = NAME_MAX): string {
  return escapeMrkdwn(truncateCharacters(text, max));
}

/** The same inside inline code: shorter, and with no backtick to end it. */
export function codeText(text: string): string {
  return shown(text, CODE_MAX).replace(/`/g, "'");
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
      codeLabel(locale, 'ticket_status', ticket.ticketStatus),
      codeLabel(locale, 'ticket_level', ticket.ticketLevel),
      codeLabel(locale, 'ticket_source', ticket.ticketFrom),
      codeLabel(locale, 'ticket_start', ticket.startType),
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

/** What became of a CSV export: decided on what happened, never on the note shown for it. */
export type CsvExport =
  | { kind: 'failure'; reason: DeskFailureKind }
  | { kind: 'sent'; file: string; rows: number; truncated: boolean }
  | { kind: 'not_sent' };

export function renderCsvNote(locale: Locale, exported: CsvExport): string {
  switch (exported.kind) {
    case 'failure':
      return t(locale, 'tickets_csv_failed', { reason: exported.reason });
    case 'not_sent':
      return t(locale, 'tickets_csv_not_sent');
    case 'sent':
      return [
        t(locale, 'tickets_csv_sent', { file: exported.file, rows: exported.rows }),
        ...(exported.truncated ? [t(locale, 'tickets_csv_truncated', { rows: exported.rows })] : []),
      ].join('\n');
  }
}
