import { describe, expect, it } from 'vitest';
import { CHART_DAYS_MAX, dailyQuestions } from '../../../src/service-desk/daily-statistics.js';
import { NotSetUpError } from '../../../src/service-desk/platform-failure.js';

type Request = { startDate: string; endDate: string | number };

function platform(answer: (day: string) => number | Error) {
  const asked: Request[] = [];
  return {
    asked,
    api: {
      getSessionMessageStatistics: async (request: Request) => {
        asked.push(request);
        const value = answer(String(request.startDate));
        if (value instanceof Error) throw value;
        return { totalCustomerMessage: value };
      },
    },
  };
}

describe('customer messages a day', () => {
  it('asks the platform for each day of the period and of the one before, one day at a time', async () => {
    const { api, asked } = platform((day) => Number(day.slice(8)));
    const result = await dailyQuestions(api, { from: '2026-11-01', to: '2026-11-03' });
    expect(result).toEqual({
      kind: 'series',
      series: {
        period: { from: '2026-11-01', to: '2026-11-03' },
        previous: { from: '2026-10-29', to: '2026-10-31' },
        days: ['2026-11-01', '2026-11-02', '2026-11-03'],
        current: [1, 2, 3],
        before: [29, 30, 31],
      },
    });
    expect(asked.every((request) => request.startDate === request.endDate)).toBe(true);
    expect(asked).toHaveLength(6);
  });

  it('leaves a day the platform failed on unknown, and fails only when no day of the period was read', async () => {
    const broken = new NotSetUpError('no account');
    const someDays = await dailyQuestions(platform((day) => (day === '2026-11-02' ? broken : 7)).api, {
      from: '2026-11-01',
      to: '2026-11-03',
    });
    expect(someDays.kind === 'series' && someDays.series.current).toEqual([7, undefined, 7]);
    const none = await dailyQuestions(platform(() => broken).api, { from: '2026-11-01', to: '2026-11-03' });
    expect(none).toEqual({ kind: 'failure', reason: 'not_set_up' });
  });

  it('draws no more than a month and a day, without asking', async () => {
    const { api, asked } = platform(() => 1);
    const result = await dailyQuestions(api, { from: '2026-01-01', to: '2026-03-01' });
    expect(result).toEqual({ kind: 'too_long', maxDays: CHART_DAYS_MAX });
    expect(asked).toHaveLength(0);
  });
});
