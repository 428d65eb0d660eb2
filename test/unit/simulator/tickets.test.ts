import { afterEach, describe, expect, it } from 'vitest';
import { TICKET_SOURCES, TICKET_STATUSES } from '../../../src/platform/schemas.js';
import {
  DEFAULT_SIMULATOR_TOKEN,
  type Simulator,
  startSimulator,
  TICKET_TYPES,
} from '../../../src/simulator/index.js';

const TOKEN = DEFAULT_SIMULATOR_TOKEN;
const NOW_MS = Date.parse('2026-03-15T10:00:00Z');
const NOW = Math.floor(NOW_MS / 1000);
const DAY = 86_400;
let simulators: Simulator[] = [];

async function start(): Promise<Simulator> {
  const simulator = await startSimulator({ accessToken: TOKEN, now: () => new Date(NOW_MS) });
  simulators.push(simulator);
  return simulator;
}

afterEach(async () => {
  await Promise.all(simulators.map((simulator) => simulator.close()));
  simulators = [];
});

interface Ticket {
  ticketId: string;
  ticketStatus: number;
  ticketFrom: number;
  ticketTypeName: string;
  createTime: number;
  updateTime: number;
  [key: string]: unknown;
}
interface Page {
  code: string;
  msg?: string;
  data: Ticket[];
  pageCount: number;
  totalCount: number;
  pageNo: number;
  pageSize: number;
}

async function post(simulator: Simulator, path: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

// Round-tripped through JSON so that a field set to undefined is left out of the request.
const tickets = async (simulator: Simulator, body: object, path = '/ws-open/ticket/getTicketInfoList') =>
  (await post(
    simulator,
    path,
    JSON.parse(
      JSON.stringify({ access_token: TOKEN, createStartTime: NOW - 7 * DAY, createEndTime: NOW, ...body }),
    ),
  )) as unknown as Page;

describe('ticket list', () => {
  it('answers "1000,<text>" and a non-empty last week with every status and source', async () => {
    const simulator = await start();
    const page = await tickets(simulator, { pageSize: 50 });
    expect(page.code).toMatch(/^1000,/);
    expect(page.totalCount).toBeGreaterThanOrEqual(40);
    expect(page).toMatchObject({ pageNo: 1, pageSize: 50 });
    expect(page.pageCount).toBe(Math.ceil(page.totalCount / 50));
    expect(new Set(page.data.map((ticket) => ticket.ticketStatus))).toEqual(new Set(TICKET_STATUSES));
    expect(new Set(page.data.map((ticket) => ticket.ticketFrom))).toEqual(new Set(TICKET_SOURCES));
    for (const ticket of page.data) {
      expect(ticket.createTime).toBeLessThanOrEqual(NOW_MS);
      expect(ticket.updateTime).toBeGreaterThanOrEqual(ticket.createTime);
      expect(ticket.ticketTypeName.split('/')).toHaveLength(3);
    }
  });

  it('the last hour and the last day are not empty', async () => {
    const simulator = await start();
    expect((await tickets(simulator, { createStartTime: NOW - DAY })).totalCount).toBeGreaterThan(0);
    const older = await tickets(simulator, {
      createStartTime: NOW - 120 * DAY,
      createEndTime: NOW - 90 * DAY,
    });
    expect(older.totalCount).toBeGreaterThan(0);
  });

  it('defaults to pageNo 1 and pageSize 15 and paginates without overlap', async () => {
    const simulator = await start();
    const first = await tickets(simulator, {});
    expect(first).toMatchObject({ pageNo: 1, pageSize: 15 });
    expect(first.data).toHaveLength(15);
    const second = await tickets(simulator, { pageNo: 2 });
    const ids = new Set(first.data.map((ticket) => ticket.ticketId));
    expect(second.data.some((ticket) => ids.has(ticket.ticketId))).toBe(false);
    const beyond = await tickets(simulator, { pageNo: first.pageCount + 1 });
    expect(beyond.data).toEqual([]);
    expect(beyond.totalCount).toBe(first.totalCount);
  });

  it('filters by window, status, source and category', async () => {
    const simulator = await start();
    const from = NOW - 3 * DAY;
    const to = NOW - DAY;
    const windowed = await tickets(simulator, { createStartTime: from, createEndTime: to, pageSize: 50 });
    expect(windowed.totalCount).toBeGreaterThan(0);
    for (const ticket of windowed.data) {
      expect(Math.floor(ticket.createTime / 1000)).toBeGreaterThanOrEqual(from);
      expect(Math.floor(ticket.createTime / 1000)).toBeLessThanOrEqual(to);
    }
    const closed = await tickets(simulator, { ticketStatus: 99, pageSize: 50 });
    expect(closed.totalCount).toBeGreaterThan(0);
    expect(closed.data.every((ticket) => ticket.ticketStatus === 99)).toBe(true);
    const email = await tickets(simulator, { ticketFrom: 12, pageSize: 50 });
    expect(email.totalCount).toBeGreaterThan(0);
    expect(email.data.every((ticket) => ticket.ticketFrom === 12)).toBe(true);
    const [type] = TICKET_TYPES;
    if (type === undefined) throw new Error('no ticket types');
    const typed = await tickets(simulator, {
      ticketTypeId: type.id,
      createStartTime: NOW - 30 * DAY,
      pageSize: 50,
    });
    expect(typed.totalCount).toBeGreaterThan(0);
    expect(typed.data.every((ticket) => ticket.ticketTypeName === type.name)).toBe(true);
  });

  it('has a desk’s shape over the last 28 days: weekdays busier, 3 to 5 groups, a few tickets with none', async () => {
    const simulator = await start();
    const todayStart = NOW - (NOW % DAY);
    const held: Ticket[] = [];
    for (let pageNo = 1; ; pageNo += 1) {
      const page = await tickets(simulator, {
        createStartTime: todayStart - 28 * DAY,
        createEndTime: todayStart - 1,
        pageNo,
        pageSize: 50,
      });
      held.push(...page.data);
      if (pageNo >= page.pageCount) break;
    }
    const perDay = new Map<number, number>();
    for (const ticket of held) {
      const day = Math.floor(ticket.createTime / 1000 / DAY);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    const average = (weekend: boolean) => {
      const days = [...Array(28).keys()].map((back) => todayStart / DAY - 1 - back);
      const chosen = days.filter(
        (day) => [0, 6].includes(new Date(day * DAY * 1000).getUTCDay()) === weekend,
      );
      return chosen.reduce((sum, day) => sum + (perDay.get(day) ?? 0), 0) / chosen.length;
    };
    expect(average(false)).toBeGreaterThan(3 * average(true));
    expect(average(true)).toBeGreaterThan(0);
    const groups = new Set(held.map((ticket) => ticket.dealGroupName).filter((name) => name !== ''));
    expect(groups.size).toBeGreaterThanOrEqual(3);
    expect(groups.size).toBeLessThanOrEqual(5);
    expect(held.some((ticket) => ticket.dealGroupName === '')).toBe(true);
  });

  it('serves the sample path getTicketList too', async () => {
    const simulator = await start();
    const page = await tickets(simulator, {}, '/ws-open/ticket/getTicketList');
    expect(page.code).toMatch(/^1000,/);
    expect(page.totalCount).toBeGreaterThan(0);
  });

  it('accepts a window of exactly 30 days', async () => {
    const simulator = await start();
    expect((await tickets(simulator, { createStartTime: NOW - 30 * DAY })).code).toMatch(/^1000,/);
  });

  it.each([
    ['a window over 30 days', { createStartTime: NOW - 30 * DAY - 1 }],
    ['a negative window', { createStartTime: NOW, createEndTime: NOW - 1 }],
    ['no createStartTime', { createStartTime: undefined }],
    ['a string createEndTime', { createEndTime: String(NOW) }],
    ['a millisecond createEndTime', { createStartTime: NOW_MS - 1000, createEndTime: NOW_MS }],
    ['pageSize 0', { pageSize: 0 }],
    ['pageSize 51', { pageSize: 51 }],
    ['pageNo 0', { pageNo: 0 }],
    ['ticketStatus 4', { ticketStatus: 4 }],
    ['ticketFrom 5', { ticketFrom: 5 }],
    ['a ticketTypeId of 37 characters', { ticketTypeId: 'x'.repeat(37) }],
    ['an access_token of 41 characters', { access_token: `${TOKEN}x` }],
  ])('refuses %s with code 1001', async (_name, change) => {
    const simulator = await start();
    const page = await tickets(simulator, change);
    expect(page.code).toBe('1001');
    expect(typeof page.msg).toBe('string');
  });

  it('refuses an unknown token with 1002', async () => {
    const simulator = await start();
    expect((await tickets(simulator, { access_token: 'y'.repeat(40) })).code).toBe('1002');
  });
});

describe('agent list', () => {
  const agents = (simulator: Simulator, body: object) =>
    post(simulator, '/ws-open/ticket/ticket_api', {
      action: 'queryServiceList',
      access_token: TOKEN,
      method: 'get',
      data: { groupId: 'g-it' },
      ...body,
    });

  it('answers the items with the stray-space keys of the spec sample, with the ticket success code', async () => {
    const simulator = await start();
    const json = await agents(simulator, {});
    expect(json.code).toBe('1000,正常返回');
    const data = json.data as Record<string, { ' serviceId ': string; serviceName: string }[]>;
    expect(Object.keys(data)).toEqual([' items ']);
    const items = data[' items '] ?? [];
    expect(items.length).toBeGreaterThan(0);
    expect(Object.keys(items[0] ?? {})).toEqual([' serviceId ', 'serviceName']);
    expect(items[0]).toEqual({ ' serviceId ': 's-it-01', serviceName: 'Alice Chen' });
  });

  it('accepts data sent as a JSON string, as the spec declares it', async () => {
    const simulator = await start();
    const json = await agents(simulator, { data: JSON.stringify({ groupId: 'g-hr' }) });
    expect(json.code).toBe('1000,正常返回');
    expect((json.data as Record<string, unknown[]>)[' items ']).toHaveLength(3);
  });

  it('answers empty items for an unknown group', async () => {
    const simulator = await start();
    expect(await agents(simulator, { data: { groupId: 'g-none' } })).toEqual({
      code: '1000,正常返回',
      data: { ' items ': [] },
    });
  });

  it.each([
    ['method post', { method: 'post' }],
    ['a method over 10 characters', { method: 'get'.padEnd(11, 'x') }],
    ['another action', { action: 'queryGroupList' }],
    ['an action over 36 characters', { action: 'q'.repeat(37) }],
    ['a groupId over 36 characters', { data: { groupId: 'g'.repeat(37) } }],
    ['no groupId', { data: {} }],
    ['data over 4000 characters', { data: { groupId: 'g-it', padding: 'x'.repeat(4000) } }],
    [
      'string data over 4000 characters',
      { data: JSON.stringify({ groupId: 'g-it', padding: 'x'.repeat(4000) }) },
    ],
    ['string data that is not JSON', { data: 'groupId=g-it' }],
    ['an access_token of 41 characters', { access_token: `${TOKEN}x` }],
  ])('refuses %s with code 1001', async (_name, change) => {
    const simulator = await start();
    const json = await agents(simulator, change);
    expect(json.code).toBe('1001');
    expect(typeof json.msg).toBe('string');
  });

  it('refuses an unknown token with 1002', async () => {
    const simulator = await start();
    expect((await agents(simulator, { access_token: 'y'.repeat(40) })).code).toBe('1002');
  });
});
