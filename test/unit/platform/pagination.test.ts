import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_TICKET_WINDOW_SECONDS,
  type PlatformClient,
  splitCreationWindow,
} from '../../../src/platform/index.js';
import { allTickets } from '../../support/ticket-pages.js';
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

describe('ticket pages through the real client', () => {
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
    const ids = (await allTickets(client, { createStartTime: 0, createEndTime: 10, pageSize: 2 })).map(
      (ticket) => ticket.ticketId,
    );
    expect(ids).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1', 'p3-0']);
    expect(server.received).toHaveLength(3);
  });
});
