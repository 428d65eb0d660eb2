// The one list of a period's charts every place draws: the questions first, then 👍/👎 once rated,
// each drawn or said why not, and nothing drawn for a range too long to chart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChartCache } from '../../../../src/charts/chart-cache.js';
import { ChartDrawer } from '../../../../src/charts/chart-drawer.js';
import { createLogger } from '../../../../src/logging/logger.js';
import { PlatformClient, StaticTokenProvider } from '../../../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../../src/simulator/index.js';
import { chartsToShow, drawPeriodCharts } from '../../../../src/slack/desk/period-charts.js';
import { memoryNamespaces } from '../../../../src/stores/namespace.js';
import { declaredNamespaces } from '../../../../src/stores/stores.js';

const logger = createLogger({ level: 'silent' });
const WEEK = { from: '2026-11-01', to: '2026-11-07' };

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

  function pieces() {
    const namespaces = declaredNamespaces(memoryNamespaces({ maxEntries: 100 }), 60);
    return {
      charts: new ChartCache(),
      chartDrawer: drawer,
      ratingDays: namespaces.dailyRatings,
      questionDays: namespaces.dailyQuestions,
      stores: namespaces,
    };
  }

  it('draws the questions, then the ratings once the workspace’s answers were rated, each a PNG with its alt text', async () => {
    const drawn = pieces();
    const request = { workspace: 'T1', locale: 'en' as const, period: WEEK };
    const unrated = await drawPeriodCharts(drawn, platform, request, logger);
    expect(unrated.map((chart) => chart.kind)).toEqual(['drawn', 'empty']);

    await drawn.stores.dailyRatings.add('T1', '2026-11-03', ['up']);
    // Another workspace's rating is not this one's.
    await drawn.stores.dailyRatings.add('T2', '2026-11-04', ['down']);
    const shown = chartsToShow(await drawPeriodCharts(drawn, platform, request, logger));
    if (shown.kind !== 'drawn') throw new Error(`no charts: ${shown.kind}`);
    expect(shown.drawn.map(({ chart }) => chart.filename)).toEqual([
      'questions-2026-11-01-2026-11-07.png',
      'ratings-2026-11-01-2026-11-07.png',
    ]);
    expect(shown.drawn[1]?.chart.altText).toMatch(/Total 1 helpful, 0 not helpful; 100% helpful\.$/);
    for (const { image } of shown.drawn) expect(image.png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('draws none past 31 days, saying so for each', async () => {
    const request = {
      workspace: 'T1',
      locale: 'en' as const,
      period: { from: '2026-09-01', to: '2026-10-31' },
    };
    const charts = await drawPeriodCharts(pieces(), platform, request, logger);
    expect(charts).toEqual([
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
});
