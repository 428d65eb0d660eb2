import { describe, expect, it } from 'vitest';
import { ChartCache } from '../../../src/charts/chart-cache.js';

const image = (byte: number) => ({ png: Buffer.from([byte]), width: 1, height: 1 });

describe('the chart cache', () => {
  it('draws the same inputs once, and different workspaces, languages or data again', async () => {
    const cache = new ChartCache();
    let draws = 0;
    const draw = async () => image(++draws);
    const week = { workspace: 'T1', chart: { labels: ['Nov 22'], values: [4], locale: 'en' } };
    expect((await cache.image(week, draw)).png[0]).toBe(1);
    expect((await cache.image(structuredClone(week), draw)).png[0]).toBe(1);
    await cache.image({ ...week, workspace: 'T2' }, draw);
    await cache.image({ ...week, chart: { ...week.chart, locale: 'zh-CN' } }, draw);
    await cache.image({ ...week, chart: { ...week.chart, values: [5] } }, draw);
    expect(draws).toBe(4);
  });

  it('keeps no failed draw: the next ask draws again', async () => {
    const cache = new ChartCache();
    await expect(cache.image('week', () => Promise.reject(new Error('worker gone')))).rejects.toThrow(
      'worker gone',
    );
    expect((await cache.image('week', async () => image(7))).png[0]).toBe(7);
  });
});
