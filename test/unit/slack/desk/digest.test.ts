// The digest's schedule: each run claims the tick it fires for, so every replica names a tick alike.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChartCache } from '../../../../src/charts/chart-cache.js';
import { createLogger } from '../../../../src/logging/logger.js';
import { type DigestTarget, StatisticsDigest } from '../../../../src/slack/desk/digest.js';

const unreachable = () => Promise.reject(new Error('not asked in this test'));

/** A target whose platform fails (a digest without figures, and no chart) and whose post takes `postMs`. */
function slowTarget(postMs: number): DigestTarget {
  return {
    key: 'CDIGEST',
    channelId: 'CDIGEST',
    workspace: 'T1',
    platform: {
      getSessionMessageStatistics: unreachable,
      getHumanSatisfactionStatistics: unreachable,
      listTickets: unreachable,
    },
    post: () => new Promise((resolve) => setTimeout(() => resolve({}), postMs)),
    upload: unreachable,
  };
}

describe('the statistics digest’s schedule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('claims a run under the tick it fires at, also after skipping a tick while one was posting', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-30T01:00:00.500Z') });
    // Each claim's tick beside the moment it was made.
    const claims: Array<{ tick: string; at: string }> = [];
    const digest = new StatisticsDigest({
      settings: { schedule: '* * * * * *', timeZone: 'Asia/Shanghai', locale: 'en' },
      // Posting takes a second and a half: the tick after each is skipped while it posts.
      targets: async () => [slowTarget(1_500)],
      claims: {
        claim: async (key) => {
          claims.push({ tick: key.slice('digest:CDIGEST:'.length), at: new Date().toISOString() });
          return true;
        },
      },
      logger: createLogger({ level: 'silent' }),
      charts: {
        charts: new ChartCache(),
        chartDrawer: { draw: unreachable },
        questionDays: { read: unreachable },
        ratingDays: { read: unreachable },
      },
    });
    digest.start();
    await vi.advanceTimersByTimeAsync(6_000);
    await digest.stop();

    // Runs at :01, :03 and :05 (each skipping the tick after it): each claimed as the second it began.
    expect(claims.length).toBeGreaterThanOrEqual(3);
    for (const { tick, at } of claims) expect(tick).toBe(`${at.slice(0, 19)}.000Z`);
  });
});
