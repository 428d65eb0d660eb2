// Every ticket of a creation range, window by window and page by page, as a caller of listTickets reads them.
import {
  type PlatformClient,
  splitCreationWindow,
  type Ticket,
  type TicketListRequest,
} from '../../src/platform/index.js';

/** Pages until the page says none follow; each window of at most a month from page 1. */
export async function allTickets(
  client: Pick<PlatformClient, 'listTickets'>,
  request: TicketListRequest,
  options: { requestId?: string } = {},
): Promise<Ticket[]> {
  const tickets: Ticket[] = [];
  for (const window of splitCreationWindow(request.createStartTime, request.createEndTime)) {
    for (let pageNo = 1; ; pageNo += 1) {
      const page = await client.listTickets({ ...request, ...window, pageNo }, options);
      tickets.push(...page.tickets);
      if (page.tickets.length === 0 || pageNo >= page.pageCount) break;
    }
  }
  return tickets;
}
