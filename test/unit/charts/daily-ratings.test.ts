// What the ratings chart is told to draw: 👍 and 👎 a day as bars, the helpful share as a line on its own axis.
import { describe, expect, it } from 'vitest';
import { DAILY_CHART_SIZE } from '../../../src/charts/daily-comparison.js';
import { type DailyRatingsChart, dailyRatingsOption } from '../../../src/charts/daily-ratings.js';
import { drawChart } from '../../../src/charts/draw.js';

const chart: DailyRatingsChart = {
  title: '每日答案评价',
  labels: ['11月27日周五', '11月28日周六', '11月29日周日'],
  locale: 'zh-CN',
  up: { name: '有帮助', values: [3, 0, 1] },
  down: { name: '没帮助', values: [1, 0, 1] },
  rate: { name: '有帮助占比', values: [75, undefined, 50] },
};

describe('the daily ratings chart', () => {
  it('draws 👍 and 👎 as bars on the count axis and the share as a line on the percent axis, a day without ratings as a gap', () => {
    const option = dailyRatingsOption(chart);
    const series = option.series as {
      type: string;
      name: string;
      data: (number | null)[];
      yAxisIndex: number;
    }[];
    expect(series.map((one) => [one.type, one.name, one.data, one.yAxisIndex])).toEqual([
      ['bar', '有帮助', [3, 0, 1], 0],
      ['bar', '没帮助', [1, 0, 1], 0],
      ['line', '有帮助占比', [75, null, 50], 1],
    ]);
    expect(option.xAxis).toMatchObject({ data: chart.labels });
    expect(option.title).toMatchObject({ text: '每日答案评价' });
  });

  it("writes both axes' numbers in the reader's language, the share as a percentage from 0 to 100", () => {
    const [counts, share] = dailyRatingsOption({ ...chart, locale: 'en' }).yAxis as {
      min?: number;
      max?: number;
      axisLabel: { formatter: (value: number) => string };
    }[];
    expect(counts?.axisLabel.formatter(1500)).toBe('1,500');
    expect([share?.min, share?.max, share?.axisLabel.formatter(75)]).toEqual([0, 100, '75%']);
  });

  it('draws to a PNG of the charts’ size', () => {
    const image = drawChart(dailyRatingsOption(chart), DAILY_CHART_SIZE);
    expect([image.width, image.height]).toEqual([
      DAILY_CHART_SIZE.width * DAILY_CHART_SIZE.scale,
      DAILY_CHART_SIZE.height * DAILY_CHART_SIZE.scale,
    ]);
    expect(image.png.length).toBeLessThan(200_000);
  });
});
