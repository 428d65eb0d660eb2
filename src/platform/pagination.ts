// Walking the ticket list: every page of one window, long ranges cut into windows of at most a month.
import {
  MAX_TICKET_WINDOW_SECONDS,
  type Ticket,
  type TicketListRequest,
  type TicketPage,
} from './schemas.js';

export interface TicketLister {
  listTickets(
    req: TicketListRequest,
    options?: { signal?: AbortSignal; requestId?: string },
  ): Promise<TicketPage>;
}

export interface IterateOptions {
  signal?: AbortSignal;
  /** For its log lines. */
  requestId?: string;
  /** A platform that ignores pageNo would otherwise be paged forever. */
  maxPages?: number;
}

/** pageNo is declared with 4 digits. */
const DEFAULT_MAX_PAGES = 9_999;

/** Until pageCount, an empty page or the page cap. */
export async function* iterateTickets(
  client: TicketLister,
  request: TicketListRequest,
  options: IterateOptions = {},
): AsyncGenerator<Ticket, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const callOptions = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
  };
  let pageNo = request.pageNo ?? 1;
  for (let fetched = 0; fetched < maxPages; fetched += 1) {
    const page = await client.listTickets({ ...request, pageNo }, callOptions);
    yield* page.tickets;
    if (page.tickets.length === 0 || pageNo >= page.pageCount) return;
    pageNo += 1;
  }
}

export interface CreationWindow {
  createStartTime: number;
  createEndTime: number;
}

/** Seconds, both inclusive; the next window starts one second after the previous ends, so none overlap. */
export function splitCreationWindow(
  startSeconds: number,
  endSeconds: number,
  maxWindow: number = MAX_TICKET_WINDOW_SECONDS,
): CreationWindow[] {
  if (!Number.isInteger(startSeconds) || !Number.isInteger(endSeconds)) {
    throw new RangeError('window bounds must be whole seconds');
  }
  if (endSeconds < startSeconds) throw new RangeError('window end must not be before its start');
  if (!Number.isInteger(maxWindow) || maxWindow < 0)
    throw new RangeError('maxWindow must be a whole number >= 0');
  const windows: CreationWindow[] = [];
  let start = startSeconds;
  while (start <= endSeconds) {
    const end = Math.min(start + maxWindow, endSeconds);
    windows.push({ createStartTime: start, createEndTime: end });
    start = end + 1;
  }
  return windows;
}

export async function* iterateTicketsOverWindow(
  client: TicketLister,
  request: TicketListRequest,
  options: IterateOptions & { maxWindow?: number } = {},
): AsyncGenerator<Ticket, void, undefined> {
  const { maxWindow, ...iterateOptions } = options;
  for (const window of splitCreationWindow(request.createStartTime, request.createEndTime, maxWindow)) {
    yield* iterateTickets(client, { ...request, ...window, pageNo: 1 }, iterateOptions);
  }
}
