// The one list of a period's charts every place draws: the questions first, then 👍/👎 once rated,
// then tickets opened a day by group, each drawn or said why not, and nothing drawn for a range too
// long to chart.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChartCache } from '../../../../src/charts/chart-cache.js';
import { ChartDrawer } from '../../../../src/charts/chart-drawer.js';
import type { ChartDrawing } from '../../../../src/charts/draw-worker.js';
import { createLogger } from '../../../../src/logging/logger.js';
import { PlatformClient, StaticTokenProvider } from '../../../../src/platform/index.js';
import { periodOf } from '../../../../src/service-desk/statistics.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../../src/simulator/index.js';
import { chartsToShow, drawPeriodCharts } from '../../../../src/slack/desk/period-charts.js';
import { memoryNamespaces } from '../../../../src/stores/namespace.js';
import { declaredNamespaces } from '../../../../src/stores/stores.js';

const logger = createLogger({ level: 'silent' });

/** A request of workspace T1, in English and UTC unless said. */
function requestOf(
  period: { from: string; to: string },
  { locale = 'en', timeZone = 'UTC' }: { locale?: 'en' | 'zh-CN'; timeZone?: string } = {},
) {
  return { workspace: 'T1', locale, period, timeZone };
}

/** The last 7 days: the simulator's tickets are the recent months' (a week long ago may hold none). */
function lastWeek(): { from: string; to: string } {
  const asked = periodOf([], new Date());
  if (asked.kind !== 'ok') throw new Error('no default period');
  return asked.period;
}

describe('the charts of a period', () => {
  let simulator: Simulator;
  let platform: PlatformClient;
  const drawer = new ChartDrawer();

  beforeAll(async () => {
    simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
    platform = new PlatformClient({
      openUrl: simulator.url,
      baseUrl: simulator.url,
      tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
      timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    });
  });

  afterAll(async () => {
    await platform.close();
    await simulator.close();
  });

  afterEach(() => simulator.faults.clear());

  function pieces(chartDrawer: Pick<ChartDrawer, 'draw'> = drawer) {
    const namespaces = declaredNamespaces(memoryNamespaces({ maxEntries: 100 }), 60);
    return {
      charts: new ChartCache(),
      chartDrawer,
      ratingDays: namespaces.dailyRatings,
      questionDays: namespaces.dailyQuestions,
      stores: namespaces,
    };
  }

  it('draws the questions, then the ratings once the workspace’s answers were rated, then the tickets, each a PNG with its alt text', async () => {
    const drawn = pieces();
    const week = lastWeek();
    const request = requestOf(week);
    const unrated = await drawPeriodCharts(drawn, platform, request, logger);
    expect(unrated.map((chart) => chart.kind)).toEqual(['drawn', 'empty', 'drawn']);

    await drawn.stores.dailyRatings.add('T1', week.from, ['up']);
    // Another workspace's rating is not this one's.
    await drawn.stores.dailyRatings.add('T2', week.to, ['down']);
    const shown = chartsToShow(await drawPeriodCharts(drawn, platform, request, logger));
    if (shown.kind !== 'drawn') throw new Error(`no charts: ${shown.kind}`);
    expect(shown.drawn.map(({ chart }) => chart.filename)).toEqual([
      `questions-${week.from}-${week.to}.png`,
      `ratings-${week.from}-${week.to}.png`,
      `tickets-${week.from}-${week.to}.png`,
    ]);
    expect(shown.drawn[1]?.chart.altText).toMatch(/Total 1 helpful, 0 not helpful; 100% helpful\.$/);
    expect(shown.drawn[2]?.chart.altText).toMatch(
      /^Chart of tickets opened a day by handling group, .+: total [\d,]+; IT Service Desk [\d,]+, /,
    );
    expect(shown.ticketsMissing).toBeUndefined();
    for (const { image } of shown.drawn) expect(image.png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('draws none past 31 days, saying so for each', async () => {
    const request = requestOf({ from: '2026-09-01', to: '2026-10-31' });
    const charts = await drawPeriodCharts(pieces(), platform, request, logger);
    expect(charts).toEqual([
      { kind: 'too_long', maxDays: 31 },
      { kind: 'too_long', maxDays: 31 },
      { kind: 'too_long', maxDays: 31 },
    ]);
    expect(chartsToShow(charts)).toEqual({ kind: 'too_long', maxDays: 31 });
  });

  it('shows nothing when the questions could not be drawn, whatever the ratings', async () => {
    const ratings = {
      kind: 'drawn' as const,
      chart: { filename: 'ratings.png', title: 'Ratings', altText: 'Ratings' },
      image: { png: Buffer.alloc(0), width: 0, height: 0 },
    };
    expect(chartsToShow([{ kind: 'failed' }, ratings])).toEqual({ kind: 'failed' });
  });

  it('draws the same tickets once, titled in the reader’s language', async () => {
    const titles: string[] = [];
    const counting = {
      draw: (drawing: ChartDrawing) => {
        if (drawing.kind === 'tickets') titles.push(drawing.chart.title);
        return drawer.draw(drawing);
      },
    };
    const drawn = pieces(counting);
    const request = requestOf(lastWeek(), { locale: 'zh-CN', timeZone: 'Asia/Shanghai' });
    const first = await drawPeriodCharts(drawn, platform, request, logger);
    const again = await drawPeriodCharts(drawn, platform, request, logger);
    expect(first[2]).toMatchObject({ kind: 'drawn', chart: { title: '每日新建工单（按处理组）' } });
    expect(again[2]).toMatchObject({ kind: 'drawn' });
    expect(titles).toEqual(['每日新建工单（按处理组）']);
  });

  it('leaves the tickets chart out when the ticket list fails, and says why, the other charts drawn', async () => {
    simulator.faults.set({ kind: 'code', code: '1001', actions: ['getTicketInfoList'] });
    const request = requestOf(lastWeek());
    const charts = await drawPeriodCharts(pieces(), platform, request, logger);
    expect(charts[2]).toEqual({ kind: 'failed', ticketsMissing: 'refused' });
    const shown = chartsToShow(charts);
    expect(shown).toMatchObject({ kind: 'drawn', ticketsMissing: 'refused' });
    if (shown.kind === 'drawn') expect(shown.drawn.map(({ chart }) => chart.filename)).toHaveLength(1);
  });

  it('tells a ticket list read but not drawn as a drawing, not as the platform', async () => {
    const failing = {
      draw: (drawing: ChartDrawing) =>
        drawing.kind === 'tickets' ? Promise.reject(new Error('no')) : drawer.draw(drawing),
    };
    const request = requestOf(lastWeek());
    const charts = await drawPeriodCharts(pieces(failing), platform, request, logger);
    expect(charts[2]).toEqual({ kind: 'failed', ticketsMissing: 'drawing' });
  });

  it('draws no tickets chart for a week without tickets', async () => {
    const request = requestOf({ from: '2020-01-06', to: '2020-01-12' });
    const charts = await drawPeriodCharts(pieces(), platform, request, logger);
    expect(charts[2]).toEqual({ kind: 'empty' });
  });
});
