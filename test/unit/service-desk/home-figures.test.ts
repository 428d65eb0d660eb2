import { describe, expect, it } from 'vitest';
import type { HumanSatisfactionStatistics, SessionMessageStatistics } from '../../../src/platform/schemas.js';
import { HomeFiguresCache } from '../../../src/service-desk/home-figures.js';
import type { StatisticsApi } from '../../../src/service-desk/statistics.js';

/** A platform that counts its calls and fails while told to. */
function platform() {
  const state = { calls: 0, failing: false, ranges: [] as string[] };
  const answer = async <T>(value: T, range: { startDate: string; endDate: string }): Promise<T> => {
    state.calls += 1;
    state.ranges.push(`${range.startDate}..${range.endDate}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (state.failing) throw new Error('platform down');
    return value;
  };
  const api: StatisticsApi = {
    getSessionMessageStatistics: (range) => answer<SessionMessageStatistics>({ totalMessage: 10 }, range),
    getHumanSatisfactionStatistics: (range) =>
      answer<HumanSatisfactionStatistics>({ solvedLv: '50%' }, range),
  };
  return { api, state };
}

function clock(start = Date.parse('2026-11-25T12:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('HomeFiguresCache', () => {
  it('reads the last 7 days beside the 7 before, once per workspace while fresh, however many ask at once', async () => {
    const { api, state } = platform();
    const time = clock();
    const cache = new HomeFiguresCache(() => api, { ttlMs: 300_000, now: time.now });
    const [first, second] = await Promise.all([cache.figures('T1'), cache.figures('T1')]);
    expect(first).toBe(second);
    expect(first.kind === 'report' && first.report.period).toEqual({ from: '2026-11-19', to: '2026-11-25' });
    expect(first.kind === 'report' && first.report.previous).toEqual({
      from: '2026-11-12',
      to: '2026-11-18',
    });
    expect(state.calls).toBe(4);
    time.advance(299_000);
    await cache.figures('T1');
    expect(state.calls).toBe(4);
    // Another workspace has its own.
    await cache.figures('T2');
    expect(state.calls).toBe(8);
    time.advance(2_000);
    const fresh = await cache.figures('T1');
    expect(state.calls).toBe(12);
    expect(fresh.at).toBe(time.now());
  });

  it("reads each workspace from its own platform, and again once that workspace's account changed", async () => {
    const acme = platform();
    const globex = platform();
    const apiOf = (workspace: string) => (workspace === 'T1' ? acme.api : globex.api);
    const cache = new HomeFiguresCache(apiOf, { ttlMs: 300_000, now: clock().now });
    await cache.figures('T1');
    await cache.figures('T2');
    expect([acme.state.calls, globex.state.calls]).toEqual([4, 4]);
    await cache.figures('T1');
    expect(acme.state.calls).toBe(4);
    cache.forget('T1');
    await cache.figures('T1');
    await cache.figures('T2');
    expect([acme.state.calls, globex.state.calls]).toEqual([8, 4]);
  });

  it('says unavailable when the platform fails, never throws, and asks again after the shorter failure TTL', async () => {
    const { api, state } = platform();
    const time = clock();
    const cache = new HomeFiguresCache(() => api, { ttlMs: 300_000, failureTtlMs: 30_000, now: time.now });
    state.failing = true;
    expect(await cache.figures('T1')).toEqual({ kind: 'unavailable', reason: 'unavailable', at: time.now() });
    const calls = state.calls;
    time.advance(29_000);
    expect((await cache.figures('T1')).kind).toBe('unavailable');
    expect(state.calls).toBe(calls);
    state.failing = false;
    time.advance(2_000);
    expect((await cache.figures('T1')).kind).toBe('report');
  });

  it('refuses TTLs that are not positive', () => {
    const { api } = platform();
    expect(() => new HomeFiguresCache(() => api, { ttlMs: 0 })).toThrow(RangeError);
    expect(() => new HomeFiguresCache(() => api, { failureTtlMs: -1 })).toThrow(RangeError);
  });
});
