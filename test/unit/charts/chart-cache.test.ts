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

  it('draws once for the same inputs asked while the first drawing is under way', async () => {
    const cache = new ChartCache();
    const finishers: ((drawn: ReturnType<typeof image>) => void)[] = [];
    const draw = () => new Promise<ReturnType<typeof image>>((resolve) => finishers.push(resolve));
    const first = cache.image({ workspace: 'T1', week: 48 }, draw);
    const second = cache.image({ workspace: 'T1', week: 48 }, draw);
    const other = cache.image({ workspace: 'T2', week: 48 }, draw);
    expect(finishers).toHaveLength(2);
    for (const [index, finish] of finishers.entries()) finish(image(index + 1));
    expect((await first).png[0]).toBe(1);
    expect(await second).toBe(await first);
    expect((await other).png[0]).toBe(2);
  });

  it('lets every waiter of a failed drawing see the failure, and the next ask draw again', async () => {
    const cache = new ChartCache();
    const failers: ((error: Error) => void)[] = [];
    const failing = () => new Promise<ReturnType<typeof image>>((_, reject) => failers.push(reject));
    const first = cache.image('week', failing);
    const second = cache.image('week', failing);
    expect(failers).toHaveLength(1);
    for (const fail of failers) fail(new Error('worker gone'));
    await expect(first).rejects.toThrow('worker gone');
    await expect(second).rejects.toThrow('worker gone');
    expect((await cache.image('week', async () => image(3))).png[0]).toBe(3);
  });
});
