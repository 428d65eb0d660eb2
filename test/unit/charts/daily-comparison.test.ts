// What the questions-a-day chart is told to draw: this period solid over the previous one dashed.
import { describe, expect, it } from 'vitest';
import { dailyComparisonOption } from '../../../src/charts/daily-comparison.js';

const chart = {
  title: '每日提问（客户消息）',
  subtitle: '1 天无数据',
  labels: ['11月27日周五', '11月28日周六'],
  locale: 'zh-CN',
  current: { name: '11月27日 – 11月28日', values: [1234, undefined] },
  previous: { name: '11月25日 – 11月26日（上一期）', values: [1000, 900] },
};

describe('the daily comparison chart', () => {
  it('draws the period solid over the previous one dashed, an unknown day as a gap', () => {
    const option = dailyComparisonOption(chart);
    const series = option.series as { name: string; data: (number | null)[]; lineStyle: { type: string } }[];
    expect(series.map((line) => [line.name, line.data, line.lineStyle.type])).toEqual([
      ['11月25日 – 11月26日（上一期）', [1000, 900], 'dashed'],
      ['11月27日 – 11月28日', [1234, null], 'solid'],
    ]);
    expect(option.xAxis).toMatchObject({ data: ['11月27日周五', '11月28日周六'] });
    expect(option.title).toMatchObject({ text: '每日提问（客户消息）', subtext: '1 天无数据' });
  });

  it("writes the value axis's numbers in the reader's language", () => {
    const axis = dailyComparisonOption({ ...chart, locale: 'en' }).yAxis as {
      axisLabel: { formatter: (value: number) => string };
    };
    expect(axis.axisLabel.formatter(12500)).toBe('12,500');
  });
});
