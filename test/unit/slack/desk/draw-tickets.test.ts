// The tickets chart as the desk's places draw it: read from the ticket list, drawn once for the same
// data, and a failure of the list told by its kind, never thrown.
import { describe, expect, it } from 'vitest';
import { ChartCache } from '../../../../src/charts/chart-cache.js';
import type { ChartImage } from '../../../../src/charts/draw.js';
import { createLogger } from '../../../../src/logging/logger.js';
import { PlatformCodeError } from '../../../../src/platform/errors.js';
import type { TicketPage } from '../../../../src/platform/schemas.js';
import type { TicketsApi } from '../../../../src/service-desk/tickets.js';
import { drawTickets } from '../../../../src/slack/desk/statistics-chart.js';

const WEEK = { from: '2026-11-22', to: '2026-11-28' };
const IMAGE: ChartImage = { png: Buffer.from('png'), width: 1200, height: 600 };

function listing(page: Partial<TicketPage> | Error): TicketsApi {
  return {
    async listTickets() {
      if (page instanceof Error) throw page;
      return { tickets: [], pageNo: 1, pageSize: 50, pageCount: 1, totalCount: 0, ...page };
    },
  };
}

describe('drawTickets', () => {
  it('draws the same tickets once, and names the file and its title in the reader’s language', async () => {
    const drawn: string[] = [];
    const pieces = {
      charts: new ChartCache(),
      chartDrawer: {
        draw: () => Promise.reject(new Error('not this chart')),
        drawRatings: () => Promise.reject(new Error('not this chart')),
        drawTickets: async (chart: { title: string }) => {
          drawn.push(chart.title);
          return IMAGE;
        },
      },
    };
    const api = listing({
      tickets: [{ ticketId: 'a', createTime: Date.parse('2026-11-24T09:00:00Z'), dealGroupName: 'IT' }],
      totalCount: 1,
    });
    const request = { workspace: 'T1', locale: 'zh-CN' as const, period: WEEK, timeZone: 'UTC' };
    const logger = createLogger({ level: 'silent' });
    const first = await drawTickets(pieces, api, request, logger);
    const again = await drawTickets(pieces, api, request, logger);
    expect(first).toMatchObject({
      kind: 'drawn',
      chart: { chart: { filename: 'tickets-2026-11-22-2026-11-28.png', title: '每日新建工单（按处理组）' } },
    });
    expect(again).toMatchObject({ kind: 'drawn' });
    expect(drawn).toEqual(['每日新建工单（按处理组）']);
  });

  it('is nothing to draw for a period without tickets, and a failure by its kind when the list or the drawing fails', async () => {
    const pieces = {
      charts: new ChartCache(),
      chartDrawer: {
        draw: () => Promise.reject(new Error('no')),
        drawRatings: () => Promise.reject(new Error('no')),
        drawTickets: () => Promise.reject(new Error('no')),
      },
    };
    const request = { workspace: 'T1', locale: 'en' as const, period: WEEK, timeZone: 'UTC' };
    const logger = createLogger({ level: 'silent' });
    expect(await drawTickets(pieces, listing({}), request, logger)).toEqual({ kind: 'none' });
    const refused = listing(new PlatformCodeError('getTicketInfoList', '1001', 'bad'));
    expect(await drawTickets(pieces, refused, request, logger)).toEqual({
      kind: 'failed',
      reason: 'refused',
    });
    const held = listing({
      tickets: [{ ticketId: 'a', createTime: Date.parse('2026-11-24T09:00:00Z') }],
      totalCount: 1,
    });
    // Read, but the drawing thread failed: told as a drawing, not as the platform.
    expect(await drawTickets(pieces, held, request, logger)).toEqual({ kind: 'failed', reason: 'drawing' });
  });
});
