// The desk's tickets for a filter, newest first: the platform takes a month, one status, one source a call.

import { splitCreationWindow } from '../platform/pagination.js';
import {
  MAX_PAGE_SIZE,
  MAX_TICKET_WINDOW_SECONDS,
  TICKET_SOURCES,
  TICKET_STATUSES,
  type Ticket,
  type TicketListRequest,
  type TicketPage,
} from '../platform/schemas.js';
import { addDays, daysBetween, isCalendarDate, startOfDay } from '../util/time-zone.js';
import { type DeskFailureKind, platformFailureReason } from './platform-failure.js';

export interface TicketsApi {
  listTickets(req: TicketListRequest, options?: { requestId?: string }): Promise<TicketPage>;
}

export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketSource = (typeof TICKET_SOURCES)[number];

/** The spec's declared length of ticketTypeId. */
export const CATEGORY_ID_MAX = 36;
export const DEFAULT_TICKET_DAYS = 7;
/** Five years: longer is a data export, not a look at the desk. */
const TICKET_DAYS_MAX = 1827;
const RESULT_PAGE_SIZE = 10;
/** The most rows a CSV holds; a larger result says so instead of growing without bound. */
const CSV_MAX_ROWS = 5000;
const CONCURRENT_CALLS = 4;
/** First-page calls one result may take: a year of every status is 78; five years of everything, 6,000+. */
const QUERIES_MAX = 400;

export interface TicketFilter {
  /** First and last day of creation, yyyy-MM-dd, inclusive, in `timeZone`. */
  from: string;
  to: string;
  /** IANA zone the days are counted in: the reader's. */
  timeZone: string;
  /** None: any status. */
  statuses: TicketStatus[];
  /** None: any source. */
  sources: TicketSource[];
  categoryId?: string | undefined;
}

export type FilterProblem =
  | { problem: 'not_a_date'; word: string }
  | { problem: 'ends_before_start' }
  | { problem: 'in_the_future' }
  /** A third date: from and to are all a range takes. */
  | { problem: 'too_many_dates'; word: string }
  | { problem: 'too_long'; days: number }
  | { problem: 'too_many_queries'; queries: number; max: number }
  | { problem: 'unknown_status'; word: string }
  | { problem: 'unknown_source'; word: string }
  | { problem: 'bad_category'; word: string }
  | { problem: 'not_understood'; word: string };

export type FilterResult = { kind: 'ok'; filter: TicketFilter } | ({ kind: 'invalid' } & FilterProblem);

export function isTicketStatus(value: number): value is TicketStatus {
  return (TICKET_STATUSES as readonly number[]).includes(value);
}

export function isTicketSource(value: number): value is TicketSource {
  return (TICKET_SOURCES as readonly number[]).includes(value);
}

/** The checks every filter passes, typed or from the modal. */
export function checkFilter(filter: TicketFilter, today: string): FilterResult {
  for (const day of [filter.from, filter.to]) {
    if (!isCalendarDate(day)) return { kind: 'invalid', problem: 'not_a_date', word: day };
  }
  if (filter.from > today) return { kind: 'invalid', problem: 'in_the_future' };
  if (filter.to < filter.from) return { kind: 'invalid', problem: 'ends_before_start' };
  if (daysBetween(filter.from, filter.to) + 1 > TICKET_DAYS_MAX) {
    return { kind: 'invalid', problem: 'too_long', days: TICKET_DAYS_MAX };
  }
  if (filter.categoryId !== undefined && !isCategoryId(filter.categoryId)) {
    return { kind: 'invalid', problem: 'bad_category', word: filter.categoryId };
  }
  const queries = queriesOf(filter);
  if (queries > QUERIES_MAX)
    return { kind: 'invalid', problem: 'too_many_queries', queries, max: QUERIES_MAX };
  return { kind: 'ok', filter: { ...filter, statuses: [...filter.statuses], sources: [...filter.sources] } };
}

/** A category id the platform can take: the spec's length, no spaces or control characters. */
export function isCategoryId(value: string): boolean {
  return value.length > 0 && value.length <= CATEGORY_ID_MAX && !/[\s\p{Cc}]/u.test(value);
}

// ---------------------------------------------------------------- days and zones

/** The creation range of a filter in epoch seconds, both ends included. */
export function creationRange(filter: TicketFilter): { start: number; end: number } {
  return {
    start: startOfDay(filter.from, filter.timeZone),
    end: startOfDay(addDays(filter.to, 1), filter.timeZone) - 1,
  };
}

// ---------------------------------------------------------------- reading

type TicketFailure = { kind: 'failure'; reason: DeskFailureKind };

export type TicketPageResult =
  | { kind: 'page'; tickets: Ticket[]; total: number; page: number; pageCount: number }
  | { kind: 'empty' }
  | TicketFailure;

export type TicketExportResult =
  | { kind: 'all'; tickets: Ticket[]; total: number; truncated: boolean }
  | { kind: 'empty' }
  | TicketFailure;

type Scope = { requestId?: string };

function queriesOf(filter: TicketFilter): number {
  const { start, end } = creationRange(filter);
  const windows = Math.ceil((end - start + 1) / (MAX_TICKET_WINDOW_SECONDS + 1));
  return windows * Math.max(1, filter.statuses.length) * Math.max(1, filter.sources.length);
}

/** One window's calls: one per status × source chosen (none chosen: one call without that filter). */
function callsOf(filter: TicketFilter): TicketListRequest[][] {
  const { start, end } = creationRange(filter);
  const statuses: (TicketStatus | undefined)[] = filter.statuses.length > 0 ? filter.statuses : [undefined];
  const sources: (TicketSource | undefined)[] = filter.sources.length > 0 ? filter.sources : [undefined];
  return splitCreationWindow(start, end)
    .reverse()
    .map((window) =>
      statuses.flatMap((ticketStatus) =>
        sources.map((ticketFrom) => ({
          ...window,
          ...(ticketStatus !== undefined ? { ticketStatus } : {}),
          ...(ticketFrom !== undefined ? { ticketFrom } : {}),
          ...(filter.categoryId ? { ticketTypeId: filter.categoryId } : {}),
          pageNo: 1,
          pageSize: MAX_PAGE_SIZE,
        })),
      ),
    );
}

/** Runs `work` on every item, at most CONCURRENT_CALLS at a time, keeping the items' order. */
export async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_CALLS, items.length) }, worker));
  return results;
}

/** The rest of one call's pages, up to `pageCount`; a platform ignoring pageNo stops at an empty page. */
async function restOf(api: TicketsApi, request: TicketListRequest, first: TicketPage, scope: Scope) {
  const tickets = [...first.tickets];
  for (let pageNo = 2; pageNo <= first.pageCount && pageNo <= 9999; pageNo += 1) {
    const page = await api.listTickets({ ...request, pageNo }, scope);
    if (page.tickets.length === 0) break;
    tickets.push(...page.tickets);
  }
  return tickets;
}

/** Newest first; a ticket two calls both returned is shown once. */
function newestFirst(tickets: Ticket[]): Ticket[] {
  const seen = new Set<string>();
  const unique = tickets.filter((ticket) => {
    if (seen.has(ticket.ticketId)) return false;
    seen.add(ticket.ticketId);
    return true;
  });
  return unique.sort((a, b) => (b.createTime ?? 0) - (a.createTime ?? 0));
}

function failureOf(error: unknown): TicketFailure {
  return { kind: 'failure', reason: platformFailureReason(error) };
}

/** One page, newest first: every window's first page gives the total; only the page's windows are read on. */
export async function ticketPage(
  api: TicketsApi,
  filter: TicketFilter,
  page: number,
  scope: Scope = {},
): Promise<TicketPageResult> {
  try {
    const windows = callsOf(filter);
    const firsts = await Promise.all(
      windows.map((calls) => inBatches(calls, (request) => api.listTickets(request, scope))),
    );
    const windowTotals = firsts.map((pages) => pages.reduce((sum, first) => sum + first.totalCount, 0));
    const total = windowTotals.reduce((sum, count) => sum + count, 0);
    if (total === 0) return { kind: 'empty' };
    const pageCount = Math.max(1, Math.ceil(total / RESULT_PAGE_SIZE));
    const shown = Math.min(Math.max(1, page), pageCount);
    const wantedFrom = (shown - 1) * RESULT_PAGE_SIZE;
    const wantedTo = wantedFrom + RESULT_PAGE_SIZE;
    const rows: Ticket[] = [];
    let offset = 0;
    for (const [index, calls] of windows.entries()) {
      const windowTotal = windowTotals[index] ?? 0;
      if (offset + windowTotal > wantedFrom && offset < wantedTo) {
        const pages = firsts[index] ?? [];
        const read = await inBatches(calls, (request) => {
          const first = pages[calls.indexOf(request)];
          return first ? restOf(api, request, first, scope) : Promise.resolve([]);
        });
        const windowTickets = newestFirst(read.flat());
        rows.push(...windowTickets.slice(Math.max(0, wantedFrom - offset), wantedTo - offset));
      }
      offset += windowTotal;
      if (offset >= wantedTo) break;
    }
    return { kind: 'page', tickets: rows, total, page: shown, pageCount };
  } catch (error) {
    return failureOf(error);
  }
}

/** Every ticket of the filter, newest first, at most `max`: every window, every page. */
export async function allTickets(
  api: TicketsApi,
  filter: TicketFilter,
  scope: Scope = {},
  max: number = CSV_MAX_ROWS,
): Promise<TicketExportResult> {
  try {
    const tickets: Ticket[] = [];
    let total = 0;
    for (const calls of callsOf(filter)) {
      const read = await inBatches(calls, async (request) => {
        const first = await api.listTickets(request, scope);
        total += first.totalCount;
        return tickets.length >= max ? first.tickets : restOf(api, request, first, scope);
      });
      tickets.push(...newestFirst(read.flat()));
      if (tickets.length >= max) break;
    }
    if (tickets.length === 0) return { kind: 'empty' };
    return {
      kind: 'all',
      tickets: tickets.slice(0, max),
      total: Math.max(total, tickets.length),
      truncated: tickets.length > max || total > max,
    };
  } catch (error) {
    return failureOf(error);
  }
}
