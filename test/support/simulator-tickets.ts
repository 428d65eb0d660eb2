// The simulator's tickets read back over its own HTTP API, to count what a chart of them should state.
import { DEFAULT_SIMULATOR_TOKEN } from '../../src/simulator/index.js';

export interface HeldTicket {
  dealGroupName?: string;
  createTime: number;
}

/** Every ticket the simulator holds created in the days `from` to `to` at a UTC offset (`+08:00`), page by page. */
export async function ticketsCreatedIn(
  simulatorUrl: string,
  { from, to, offset }: { from: string; to: string; offset: string },
): Promise<HeldTicket[]> {
  const start = Date.parse(`${from}T00:00:00${offset}`) / 1000;
  const end = Date.parse(`${to}T23:59:59${offset}`) / 1000;
  const tickets: HeldTicket[] = [];
  for (let pageNo = 1; ; pageNo += 1) {
    const response = await fetch(`${simulatorUrl}/ws-open/ticket/getTicketInfoList`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        access_token: DEFAULT_SIMULATOR_TOKEN,
        createStartTime: start,
        createEndTime: end,
        pageNo,
        pageSize: 50,
      }),
    });
    const page = (await response.json()) as { data: HeldTicket[]; pageCount: number };
    tickets.push(...page.data);
    if (pageNo >= page.pageCount) return tickets;
  }
}
