// The drawing thread: a chart comes back as the PNG the main thread would draw, and the loop stays free.
import { describe, expect, it } from 'vitest';
import { ChartDrawer } from '../../../src/charts/chart-drawer.js';
import { DAILY_CHART_SIZE } from '../../../src/charts/daily-comparison.js';

const chart = {
  title: '每日提问（客户消息）',
  labels: ['11月27日周五', '11月28日周六'],
  locale: 'zh-CN',
  current: { name: '11月27日 – 11月28日', values: [12, undefined] },
  previous: { name: '11月25日 – 11月26日（上一期）', values: [10, 9] },
};

describe('the chart drawer', () => {
  it('draws on its worker thread and gives back the PNG', async () => {
    const drawer = new ChartDrawer();
    const image = await drawer.draw({ kind: 'comparison', chart });
    expect(image.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([image.width, image.height]).toEqual([
      DAILY_CHART_SIZE.width * DAILY_CHART_SIZE.scale,
      DAILY_CHART_SIZE.height * DAILY_CHART_SIZE.scale,
    ]);
    // Two more at once, on the same worker: each answered with its own.
    const [a, b] = await Promise.all([
      drawer.draw({ kind: 'comparison', chart }),
      drawer.draw({ kind: 'comparison', chart: { ...chart, labels: ['a', 'b'] } }),
    ]);
    expect(a.png.equals(image.png)).toBe(true);
    expect(b.png.equals(image.png)).toBe(false);
  });
});
