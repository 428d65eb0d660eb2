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

  it('draws a share thin on an axis of its own from 0 to 100%, the period before dashed, only when given', () => {
    const option = dailyComparisonOption({
      ...chart,
      share: {
        current: { name: '未回答占比', values: [10, undefined] },
        previous: { name: '未回答占比（上一期）', values: [25, 20] },
      },
    });
    const series = option.series as {
      name: string;
      yAxisIndex?: number;
      lineStyle: { type: string; width: number };
    }[];
    expect(
      series.slice(2).map((line) => [line.name, line.yAxisIndex, line.lineStyle.type, line.lineStyle.width]),
    ).toEqual([
      ['未回答占比（上一期）', 1, 'dashed', 2],
      ['未回答占比', 1, 'solid', 2],
    ]);
    const [, share] = option.yAxis as {
      min?: number;
      max?: number;
      axisLabel: { formatter: (value: number) => string };
    }[];
    expect([share?.min, share?.max, share?.axisLabel.formatter(25)]).toEqual([0, 100, '25%']);
    expect(dailyComparisonOption(chart).series).toHaveLength(2);
  });

  it("writes the value axis's numbers in the reader's language", () => {
    const axis = dailyComparisonOption({ ...chart, locale: 'en' }).yAxis as {
      axisLabel: { formatter: (value: number) => string };
    };
    expect(axis.axisLabel.formatter(12500)).toBe('12,500');
  });
});
