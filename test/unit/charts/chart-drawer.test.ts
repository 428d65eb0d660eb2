// The drawing thread: a chart comes back as the PNG the main thread would draw, and the loop stays free.
import { afterEach, describe, expect, it, vi } from 'vitest';
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
  afterEach(() => {
    vi.unstubAllEnvs();
  });

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

  // A replacement starts its module load over: a bound that counted the load was never met on a busy machine.
  it('gives a worker still loading its modules longer than a draw, and draws once it is ready', async () => {
    const drawer = new ChartDrawer({ workerUrl: scripted({ startMs: 3_000 }), drawTimeoutMs: 2_000 });
    const image = await drawer.draw({ kind: 'comparison', chart });
    expect(image.png).toEqual(Buffer.from([1]));
  });

  it('replaces a worker that does not answer, and the next draw is not failed by its exit', async () => {
    const drawer = new ChartDrawer({ workerUrl: scripted({ startMs: 0 }), drawTimeoutMs: 2_000 });
    await expect(drawer.draw({ kind: 'comparison', chart: { ...chart, title: 'hang' } })).rejects.toThrow(
      'the chart worker did not answer in time',
    );
    // Asked at once, while the stuck worker is still being terminated.
    const image = await drawer.draw({ kind: 'comparison', chart });
    expect(image.png).toEqual(Buffer.from([1]));
  });

  it('fails a worker that never gets ready, after its start bound', async () => {
    const drawer = new ChartDrawer({ workerUrl: scripted({ startMs: 5_000 }), startTimeoutMs: 300 });
    await expect(drawer.draw({ kind: 'comparison', chart })).rejects.toThrow(
      'the chart worker did not start in time',
    );
  });
});

/** The scripted worker of test/entries, its module load taking `startMs` (a worker copies the env it starts with). */
function scripted({ startMs }: { startMs: number }): URL {
  vi.stubEnv('SCRIPTED_DRAW_START_MS', String(startMs));
  return new URL('../../entries/scripted-draw-worker.ts', import.meta.url);
}
