// What the tickets chart is told to draw: a stacked bar a day, a segment per group, and its PNG.
import { describe, expect, it } from 'vitest';
import { SERIES_COLOURS } from '../../../src/charts/chart-frame.js';
import { DAILY_CHART_SIZE } from '../../../src/charts/daily-comparison.js';
import { type DailyTicketsChart, dailyTicketsOption } from '../../../src/charts/daily-tickets.js';
import { drawChart } from '../../../src/charts/draw.js';
import { CHINESE_WEEK_LABELS } from '../../support/chart-week.js';
import { inkIn, pixelsOf } from '../../support/png-pixels.js';

const chart: DailyTicketsChart = {
  title: '每日新建工单（按处理组）',
  labels: ['11月27日周五', '11月28日周六', '11月29日周日'],
  locale: 'zh-CN',
  groups: [
    { name: 'IT Service Desk', tone: 'group', values: [9, 2, 1] },
    { name: 'HR Service', tone: 'group', values: [4, 0, undefined] },
    { name: '其他', tone: 'other', values: [3, 1, 0] },
    { name: '无处理组', tone: 'none', values: [1, 0, 0] },
  ],
};

type Bars = { type: string; name: string; stack: string; data: (number | null)[]; color: string };

describe('the tickets-a-day chart', () => {
  it('stacks one bar a day, a segment per group in order, a day not read as a gap', () => {
    const series = dailyTicketsOption(chart).series as Bars[];
    expect(series.map((one) => [one.type, one.name, one.stack, one.data])).toEqual([
      ['bar', 'IT Service Desk', 'tickets', [9, 2, 1]],
      ['bar', 'HR Service', 'tickets', [4, 0, null]],
      ['bar', '其他', 'tickets', [3, 1, 0]],
      ['bar', '无处理组', 'tickets', [1, 0, 0]],
    ]);
    expect(dailyTicketsOption(chart).xAxis).toMatchObject({ data: chart.labels });
  });

  it('colours named groups from the palette in order, and "Other" and "No group" grey', () => {
    const colours = (dailyTicketsOption(chart).series as Bars[]).map((one) => one.color);
    expect(colours).toEqual([
      SERIES_COLOURS.blue,
      SERIES_COLOURS.orange,
      SERIES_COLOURS.grey,
      SERIES_COLOURS.lightGrey,
    ]);
  });

  it('moves the plot down when the legend’s names wrap onto another row', () => {
    const top = (option: ReturnType<typeof dailyTicketsOption>) => (option.grid as { top: number }).top;
    const long = {
      ...chart,
      groups: Array.from({ length: 8 }, (_, index) => ({
        name: `行政服务部第${index}处理组…`,
        tone: 'group' as const,
        values: [1, 1, 1],
      })),
    };
    expect(top(dailyTicketsOption(long))).toBeGreaterThan(top(dailyTicketsOption(chart)));
  });

  it('draws to a PNG of the charts’ size that is not blank', () => {
    const image = drawChart(dailyTicketsOption(chart), DAILY_CHART_SIZE);
    expect([image.width, image.height]).toEqual([
      DAILY_CHART_SIZE.width * DAILY_CHART_SIZE.scale,
      DAILY_CHART_SIZE.height * DAILY_CHART_SIZE.scale,
    ]);
    expect(image.png.length).toBeLessThan(200_000);
    const pixels = pixelsOf(image.png, image.width, image.height);
    // The plot's lower half, where the bars stand: the grid's few thin lines alone ink a tenth of this.
    const plot = {
      left: 100,
      top: image.height / 2,
      width: image.width - 200,
      height: image.height / 2 - 80,
    };
    expect(inkIn(pixels, image.width, plot)).toBeGreaterThan(plot.width * 10);
  });

  it('names each day of a week under its bar, in Chinese too', () => {
    const labels = CHINESE_WEEK_LABELS;
    const week = {
      ...chart,
      labels,
      groups: [{ name: 'IT', tone: 'group' as const, values: [3, 5, 4, 6, 2, 1, 1] }],
    };
    const image = drawChart(dailyTicketsOption(week), DAILY_CHART_SIZE);
    const pixels = pixelsOf(image.png, image.width, image.height);
    const { scale } = DAILY_CHART_SIZE;
    // The plot spans the grid's 64 left and 40 right; each day's label sits under its band's middle.
    const band = (DAILY_CHART_SIZE.width - 64 - 40) / labels.length;
    const inkUnder = labels.map((_, day) =>
      inkIn(pixels, image.width, {
        left: Math.round((64 + band * (day + 0.5) - 20) * scale),
        top: Math.round((DAILY_CHART_SIZE.height - 40) * scale),
        width: 40 * scale,
        height: 20 * scale,
      }),
    );
    expect(inkUnder.filter((ink) => ink < 100)).toEqual([]);
  });
});
