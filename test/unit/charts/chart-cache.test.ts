import { describe, expect, it } from 'vitest';
import { ChartCache } from '../../../src/charts/chart-cache.js';

const image = (byte: number) => ({ png: Buffer.from([byte]), width: 1, height: 1 });

describe('the chart cache', () => {
  it('draws the same inputs once, and different workspaces, languages or data again', () => {
    const cache = new ChartCache();
    let draws = 0;
    const draw = () => image(++draws);
    const week = { workspace: 'T1', chart: { labels: ['Nov 22'], values: [4], locale: 'en' } };
    expect(cache.image(week, draw).png[0]).toBe(1);
    expect(cache.image(structuredClone(week), draw).png[0]).toBe(1);
    cache.image({ ...week, workspace: 'T2' }, draw);
    cache.image({ ...week, chart: { ...week.chart, locale: 'zh-CN' } }, draw);
    cache.image({ ...week, chart: { ...week.chart, values: [5] } }, draw);
    expect(draws).toBe(4);
  });
});
