import { describe, expect, it } from 'vitest';
import { HttpStatusError, PlatformCodeError } from '../../../src/platform/errors.js';
import type { Ticket, TicketListRequest, TicketPage } from '../../../src/platform/schemas.js';
import {
  allTickets,
  creationRange,
  type TicketFilter,
  type TicketsApi,
  ticketPage,
} from '../../../src/service-desk/tickets.js';
import { startOfDay, todayIn } from '../../../src/util/time-zone.js';

const DAY = 86_400;

describe('days in the reader’s time zone', () => {
  it('starts a day at the reader’s midnight, across a daylight-saving change too', () => {
    expect(startOfDay('2026-11-25', 'UTC')).toBe(Date.parse('2026-11-25T00:00:00Z') / 1000);
    expect(startOfDay('2026-11-25', 'Asia/Tokyo')).toBe(Date.parse('2026-11-24T15:00:00Z') / 1000);
    expect(startOfDay('2026-11-25', 'America/New_York')).toBe(Date.parse('2026-11-25T05:00:00Z') / 1000);
    // New York moves to daylight time at 02:00 on 2026-03-08; midnight is still standard time.
    expect(startOfDay('2026-03-08', 'America/New_York')).toBe(Date.parse('2026-03-08T05:00:00Z') / 1000);
    expect(startOfDay('2026-03-09', 'America/New_York')).toBe(Date.parse('2026-03-09T04:00:00Z') / 1000);
  });

  it('runs a range from the first second of its first day to the last second of its last', () => {
    const range = creationRange({
      from: '2026-11-01',
      to: '2026-11-02',
      timeZone: 'UTC',
      statuses: [],
      sources: [],
    });
    expect(range).toEqual({
      start: Date.parse('2026-11-01T00:00:00Z') / 1000,
      end: Date.parse('2026-11-03T00:00:00Z') / 1000 - 1,
    });
  });

  it('knows the reader’s today', () => {
    const lateUtc = new Date('2026-11-25T20:00:00Z');
    expect(todayIn('UTC', lateUtc)).toBe('2026-11-25');
    expect(todayIn('Asia/Tokyo', lateUtc)).toBe('2026-11-26');
  });
});

/** A platform that holds `tickets` and answers as the spec says, counting its calls. */
function fakePlatform(tickets: Ticket[]) {
  const calls: TicketListRequest[] = [];
  const api: TicketsApi = {
    async listTickets(request) {
      calls.push(request);
      const matching = tickets.filter(
        (ticket) =>
          (ticket.createTime ?? 0) / 1000 >= request.createStartTime &&
          (ticket.createTime ?? 0) / 1000 <= request.createEndTime &&
          (request.ticketStatus === undefined || ticket.ticketStatus === request.ticketStatus),
      );
      // Smaller pages than asked for: the gateway must follow pageCount, not its own page size.
      const pageSize = 7;
      const pageNo = request.pageNo ?? 1;
      const page: TicketPage = {
        // Oldest first: the gateway must not rely on the platform's order.
        tickets: matching.slice((pageNo - 1) * pageSize, pageNo * pageSize),
        pageNo,
        pageSize,
        pageCount: Math.ceil(matching.length / pageSize),
        totalCount: matching.length,
      };
      return page;
    },
  };
  return { api, calls };
}

/** One ticket a day for `days` days up to the end of 2026-11-25 UTC, oldest first. */
function dailyTickets(days: number): Ticket[] {
  const end = Date.parse('2026-11-25T12:00:00Z');
  return Array.from({ length: days }, (_, index) => {
    const age = days - 1 - index;
    return {
      ticketId: `t-${age}`,
      ticketCode: 1000 + index,
      createTime: end - age * DAY * 1000,
      ticketStatus: index % 2 === 0 ? 1 : 3,
    };
  });
}

const RANGE: TicketFilter = {
  from: '2026-09-12',
  to: '2026-11-25',
  timeZone: 'UTC',
  statuses: [],
  sources: [],
};

describe('ticketPage', () => {
  it('pages newest first across month windows, reading to the end only the windows a page falls in', async () => {
    const { api, calls } = fakePlatform(dailyTickets(75));
    const first = await ticketPage(api, RANGE, 1);
    expect(first).toMatchObject({ kind: 'page', total: 75, page: 1, pageCount: 8 });
    expect(first.kind === 'page' && first.tickets.map((t) => t.ticketCode)).toEqual(
      Array.from({ length: 10 }, (_, i) => 1074 - i),
    );
    const windows = new Set(calls.map((call) => `${call.createStartTime}-${call.createEndTime}`));
    expect(windows.size).toBe(3);
    for (const call of calls) expect(call.createEndTime - call.createStartTime).toBeLessThanOrEqual(30 * DAY);
    // Page 1 lies in the newest window (15 tickets, 3 pages of 7): only it was read past its first page.
    const newestStart = Math.max(...calls.map((call) => call.createStartTime));
    expect(calls.filter((call) => call.createStartTime === newestStart).map((call) => call.pageNo)).toEqual([
      1, 2, 3,
    ]);
    expect(calls.filter((call) => call.createStartTime !== newestStart).map((call) => call.pageNo)).toEqual([
      1, 1,
    ]);

    // The newest window holds the last 15 days: page 2 (rows 11-20) runs from it into the one before.
    calls.length = 0;
    const second = await ticketPage(api, RANGE, 2);
    expect(second.kind === 'page' && second.tickets.map((t) => t.ticketCode)).toEqual(
      Array.from({ length: 10 }, (_, i) => 1064 - i),
    );
    // The oldest window was asked for its first page (its total) and nothing more.
    const oldestStart = Math.min(...calls.map((call) => call.createStartTime));
    expect(calls.filter((call) => call.createStartTime === oldestStart).map((call) => call.pageNo)).toEqual([
      1,
    ]);
    const last = await ticketPage(api, RANGE, 99);
    expect(last).toMatchObject({ kind: 'page', page: 8 });
    expect(last.kind === 'page' && last.tickets.map((t) => t.ticketCode)).toEqual([
      1004, 1003, 1002, 1001, 1000,
    ]);
  });

  it('asks once per status chosen, and merges them newest first', async () => {
    const { api, calls } = fakePlatform(dailyTickets(10));
    const result = await ticketPage(api, { ...RANGE, from: '2026-11-16', statuses: [1, 3] }, 1);
    expect(new Set(calls.map((call) => call.ticketStatus))).toEqual(new Set([1, 3]));
    expect(result.kind === 'page' && result.tickets.map((t) => t.ticketCode)).toEqual(
      Array.from({ length: 10 }, (_, i) => 1009 - i),
    );
  });

  it('tells an empty result, a refusal and an outage apart', async () => {
    expect(await ticketPage(fakePlatform([]).api, RANGE, 1)).toEqual({ kind: 'empty' });
    const refusing: TicketsApi = {
      listTickets: () => Promise.reject(new PlatformCodeError('getTicketInfoList', '1001', 'bad')),
    };
    expect(await ticketPage(refusing, RANGE, 1)).toEqual({ kind: 'failure', reason: 'refused' });
    const down: TicketsApi = {
      listTickets: () => Promise.reject(new HttpStatusError('getTicketInfoList', 503, '')),
    };
    expect(await ticketPage(down, RANGE, 1)).toEqual({ kind: 'failure', reason: 'unavailable' });
  });
});

describe('allTickets', () => {
  it('reads every window and every page, newest first', async () => {
    const { api } = fakePlatform(dailyTickets(75));
    const result = await allTickets(api, RANGE);
    expect(result.kind === 'all' && result.tickets.map((t) => t.ticketCode)).toEqual(
      Array.from({ length: 75 }, (_, i) => 1074 - i),
    );
  });

  it('stops at its maximum and says the result was cut', async () => {
    const { api } = fakePlatform(dailyTickets(75));
    const result = await allTickets(api, RANGE, {}, 20);
    expect(result).toMatchObject({ kind: 'all', truncated: true });
    expect(result.kind === 'all' && result.tickets).toHaveLength(20);
    expect(result.kind === 'all' && result.tickets[0]?.ticketCode).toBe(1074);
  });
});
