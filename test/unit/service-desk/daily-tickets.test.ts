// Tickets opened a day by group: each on its day in the reader's zone, the smallest groups folded.
import { describe, expect, it } from 'vitest';
import { PlatformCodeError } from '../../../src/platform/errors.js';
import type { Ticket, TicketListRequest } from '../../../src/platform/schemas.js';
import { dailyTickets, NAMED_GROUPS_MAX, ticketsByGroup } from '../../../src/service-desk/daily-tickets.js';
import type { TicketsApi } from '../../../src/service-desk/tickets.js';

const WEEK = { from: '2026-11-22', to: '2026-11-28' };

const ticket = (id: string, createdAt: string, group?: string): Ticket => ({
  ticketId: id,
  createTime: Date.parse(createdAt),
  ...(group === undefined ? {} : { dealGroupName: group }),
});

describe('tickets counted by day and group', () => {
  it('counts a ticket on its day in the reader’s zone, across midnight', () => {
    // 16:30 UTC on the 23rd is 00:30 on the 24th in Shanghai.
    const late = [ticket('a', '2026-11-23T16:30:00Z', 'IT'), ticket('b', '2026-11-23T15:59:00Z', 'IT')];
    const inUtc = ticketsByGroup(late, WEEK, 'UTC');
    const inShanghai = ticketsByGroup(late, WEEK, 'Asia/Shanghai');
    expect(inUtc.groups[0]?.days).toEqual([0, 2, 0, 0, 0, 0, 0]);
    expect(inShanghai.groups[0]?.days).toEqual([0, 1, 1, 0, 0, 0, 0]);
    expect(inShanghai.days[0]).toBe('2026-11-22');
  });

  it('leaves out a ticket created outside the period in that zone, or with no creation time', () => {
    const series = ticketsByGroup(
      [
        ticket('a', '2026-11-21T23:00:00Z', 'IT'),
        { ticketId: 'b' },
        ticket('c', '2026-11-22T01:00:00Z', 'IT'),
      ],
      WEEK,
      'UTC',
    );
    expect(series.groups.map((group) => group.total)).toEqual([1]);
  });

  it('orders groups by total, most first, and puts tickets with no group (or a blank one) last', () => {
    const series = ticketsByGroup(
      [
        ticket('a', '2026-11-22T09:00:00Z', 'HR'),
        ticket('b', '2026-11-22T09:00:00Z'),
        ticket('c', '2026-11-23T09:00:00Z', 'IT'),
        ticket('d', '2026-11-24T09:00:00Z', 'IT'),
        ticket('e', '2026-11-24T09:00:00Z', '  '),
      ],
      WEEK,
      'UTC',
    );
    expect(series.groups.map(({ group, total }) => [group, total])).toEqual([
      [{ kind: 'named', name: 'IT' }, 2],
      [{ kind: 'named', name: 'HR' }, 1],
      [{ kind: 'none' }, 2],
    ]);
  });

  it(`names ${NAMED_GROUPS_MAX} groups, and past that the largest five and "Other" for the rest`, () => {
    const groups = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
    // Group A has 8 tickets, B 7, … H 1; each on the 22nd but H's, on the 23rd.
    const tickets = groups.flatMap((name, rank) =>
      Array.from({ length: groups.length - rank }, (_, n) =>
        ticket(`${name}${n}`, name === 'H' ? '2026-11-23T10:00:00Z' : '2026-11-22T10:00:00Z', name),
      ),
    );
    const six = ticketsByGroup(
      tickets.filter((one) => ['A', 'B', 'C', 'D', 'E', 'F'].includes(one.dealGroupName ?? '')),
      WEEK,
      'UTC',
    );
    expect(six.groups.map(({ group }) => group.kind)).toEqual(Array(6).fill('named'));
    const eight = ticketsByGroup(tickets, WEEK, 'UTC');
    expect(eight.groups.map(({ group, total }) => [group, total])).toEqual([
      [{ kind: 'named', name: 'A' }, 8],
      [{ kind: 'named', name: 'B' }, 7],
      [{ kind: 'named', name: 'C' }, 6],
      [{ kind: 'named', name: 'D' }, 5],
      [{ kind: 'named', name: 'E' }, 4],
      [{ kind: 'other', groups: 3 }, 6],
    ]);
    expect(eight.groups[5]?.days).toEqual([5, 1, 0, 0, 0, 0, 0]);
  });

  it('leaves the days of a cut-short read unknown, up to the oldest ticket read', () => {
    const series = ticketsByGroup(
      [ticket('a', '2026-11-27T10:00:00Z', 'IT'), ticket('b', '2026-11-24T10:00:00Z', 'IT')],
      WEEK,
      'UTC',
      true,
    );
    expect(series.unread).toBe(3);
    expect(series.groups[0]?.days).toEqual([undefined, undefined, undefined, 0, 0, 1, 0]);
  });
});

describe('reading them from the ticket list', () => {
  function platform(tickets: Ticket[], fail?: Error) {
    const calls: TicketListRequest[] = [];
    const api: TicketsApi = {
      async listTickets(request) {
        calls.push(request);
        if (fail) throw fail;
        const inWindow = tickets.filter(
          ({ createTime = 0 }) =>
            createTime / 1000 >= request.createStartTime && createTime / 1000 <= request.createEndTime,
        );
        return { tickets: inWindow, pageNo: 1, pageSize: 50, pageCount: 1, totalCount: inWindow.length };
      },
    };
    return { api, calls };
  }

  it('asks a month at a time, from the first second of the first day in the zone', async () => {
    const { api, calls } = platform([ticket('a', '2026-10-01T10:00:00Z', 'IT')]);
    const read = await dailyTickets(api, { from: '2026-10-01', to: '2026-10-31' }, 'Asia/Shanghai');
    expect(read.kind === 'series' && read.series.groups[0]?.total).toBe(1);
    expect(calls).toHaveLength(2);
    for (const call of calls)
      expect(call.createEndTime - call.createStartTime).toBeLessThanOrEqual(30 * 86_400);
    expect(Math.min(...calls.map((call) => call.createStartTime))).toBe(
      Date.parse('2026-09-30T16:00:00Z') / 1000,
    );
  });

  it('says how the platform failed, and asks nothing for a period longer than a chart', async () => {
    const { api } = platform([], new PlatformCodeError('getTicketInfoList', '1003', 'busy'));
    expect(await dailyTickets(api, WEEK, 'UTC')).toMatchObject({ kind: 'failure' });
    const { api: unused, calls } = platform([]);
    expect(await dailyTickets(unused, { from: '2026-01-01', to: '2026-03-01' }, 'UTC')).toMatchObject({
      kind: 'too_long',
    });
    expect(calls).toHaveLength(0);
  });
});
