import { afterEach, describe, expect, it } from 'vitest';
import {
  iterateTickets,
  iterateTicketsOverWindow,
  MAX_TICKET_WINDOW_SECONDS,
  type PlatformClient,
  splitCreationWindow,
  type Ticket,
  type TicketLister,
  type TicketListRequest,
  type TicketPage,
} from '../../../src/platform/index.js';
import { type Loopback, sendJson, startLoopback, testClient } from './loopback.js';

const DAY = 24 * 60 * 60;

describe('splitCreationWindow', () => {
  it('returns one window when the range fits', () => {
    expect(splitCreationWindow(100, 100 + MAX_TICKET_WINDOW_SECONDS)).toEqual([
      { createStartTime: 100, createEndTime: 100 + MAX_TICKET_WINDOW_SECONDS },
    ]);
  });

  it('returns a single-second window for start = end', () => {
    expect(splitCreationWindow(5, 5, 10)).toEqual([{ createStartTime: 5, createEndTime: 5 }]);
  });

  it('covers [start, end] exactly with consecutive, non-overlapping windows within the limit', () => {
    const start = 1_700_000_000;
    const end = start + 95 * DAY + 17;
    const windows = splitCreationWindow(start, end);
    expect(windows.length).toBe(4);
    expect(windows[0]?.createStartTime).toBe(start);
    expect(windows.at(-1)?.createEndTime).toBe(end);
    for (const [index, window] of windows.entries()) {
      expect(window.createEndTime - window.createStartTime).toBeLessThanOrEqual(MAX_TICKET_WINDOW_SECONDS);
      expect(window.createEndTime).toBeGreaterThanOrEqual(window.createStartTime);
      const next = windows[index + 1];
      if (next) expect(next.createStartTime).toBe(window.createEndTime + 1);
    }
  });

  it('counts every second once on a small example', () => {
    const windows = splitCreationWindow(0, 9, 3);
    expect(windows).toEqual([
      { createStartTime: 0, createEndTime: 3 },
      { createStartTime: 4, createEndTime: 7 },
      { createStartTime: 8, createEndTime: 9 },
    ]);
  });

  it('refuses an inverted range and fractional seconds', () => {
    expect(() => splitCreationWindow(10, 9)).toThrow(RangeError);
    expect(() => splitCreationWindow(0.5, 9)).toThrow(RangeError);
  });
});

function ticket(id: number): Ticket {
  return { ticketId: `t-${id}` };
}

/** An in-memory lister: pages of `pageSize` over `total` tickets, optionally hiding the counters. */
function fakeLister(total: number, hideCounters = false): TicketLister & { calls: TicketListRequest[] } {
  const calls: TicketListRequest[] = [];
  return {
    calls,
    async listTickets(request): Promise<TicketPage> {
      calls.push(request);
      const pageNo = request.pageNo ?? 1;
      const pageSize = request.pageSize ?? 15;
      const first = (pageNo - 1) * pageSize;
      const tickets = Array.from({ length: Math.max(0, Math.min(pageSize, total - first)) }, (_, i) =>
        ticket(first + i),
      );
      const pageCount = hideCounters ? pageNo + 1 : Math.ceil(total / pageSize);
      return { tickets, pageNo, pageSize, pageCount, totalCount: total };
    },
  };
}

async function collect(iterable: AsyncIterable<Ticket>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.ticketId);
  return ids;
}

describe('iterateTickets', () => {
  const request = { createStartTime: 0, createEndTime: 100, pageSize: 10 };

  it('yields every ticket and stops at pageCount', async () => {
    const lister = fakeLister(25);
    const ids = await collect(iterateTickets(lister, request));
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
    expect(lister.calls.map((call) => call.pageNo)).toEqual([1, 2, 3]);
  });

  it('stops at an empty page when pageCount never ends', async () => {
    const lister = fakeLister(20, true);
    const ids = await collect(iterateTickets(lister, request));
    expect(ids).toHaveLength(20);
    expect(lister.calls).toHaveLength(3);
  });

  it('stops at the page cap when the platform ignores pageNo', async () => {
    const stuck: TicketLister = {
      async listTickets() {
        return { tickets: [ticket(1)], pageNo: 1, pageSize: 1, pageCount: 99, totalCount: 99 };
      },
    };
    expect(await collect(iterateTickets(stuck, request, { maxPages: 5 }))).toHaveLength(5);
  });

  it('walks several windows in order', async () => {
    const lister = fakeLister(3);
    const ids = await collect(
      iterateTicketsOverWindow(lister, { createStartTime: 0, createEndTime: 3 * DAY }, { maxWindow: DAY }),
    );
    expect(ids).toHaveLength(9);
    expect(lister.calls.map((call) => [call.createStartTime, call.createEndTime, call.pageNo])).toEqual([
      [0, DAY, 1],
      [DAY + 1, 2 * DAY + 1, 1],
      [2 * DAY + 2, 3 * DAY, 1],
    ]);
  });
});

describe('iterateTickets through the real client', () => {
  let server: Loopback | undefined;
  let client: PlatformClient | undefined;

  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it('pages a platform that omits the counters until the short page', async () => {
    server = await startLoopback((request, response) => {
      const body = request.body as { pageNo: number };
      const size = body.pageNo < 3 ? 2 : 1;
      const data = Array.from({ length: size }, (_, i) => ({ ticketId: `p${body.pageNo}-${i}` }));
      sendJson(response, { code: '1000,ok', data });
    });
    client = testClient(server.url);
    const ids = await collect(iterateTickets(client, { createStartTime: 0, createEndTime: 10, pageSize: 2 }));
    expect(ids).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1', 'p3-0']);
    expect(server.received).toHaveLength(3);
  });
});
