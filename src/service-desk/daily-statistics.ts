// Figures a day for a chart: the platform gives only a range's totals, so each day is asked on its own.

import { daysBetween } from '../util/time-zone.js';
import type { DailyCount, QuestionField } from './daily-counts.js';
import { type DeskFailureKind, platformFailureReason } from './platform-failure.js';
import { daysOf, type Period, previousPeriod, type StatisticsApi } from './statistics.js';
import { inBatches } from './tickets.js';

/** A month and a day: a 30-day chart beside its previous 30 days is 62 calls, and longer is no glance. */
export const CHART_DAYS_MAX = 31;

/** The refusal of a period longer than a chart draws; undefined for one it draws. */
export function tooLongForAChart(period: Period): { kind: 'too_long'; maxDays: number } | undefined {
  const longer = daysBetween(period.from, period.to) + 1 > CHART_DAYS_MAX;
  return longer ? { kind: 'too_long', maxDays: CHART_DAYS_MAX } : undefined;
}

export interface DailySeries {
  period: Period;
  previous: Period;
  /** yyyy-MM-dd of each day of `period`, in order. */
  days: string[];
  /** Customer messages of each day of `period`; undefined where the platform failed for that day. */
  current: (number | undefined)[];
  /** The same for the day as many days before as the period is long. */
  before: (number | undefined)[];
  /** The share of the gateway's own questions left unanswered; absent when it counted none in either period. */
  unanswered?: UnansweredShares | undefined;
}

export interface UnansweredShares {
  /** Percent a day (0 to 100), undefined on a day without questions, for `period` and the period before. */
  current: (number | undefined)[];
  before: (number | undefined)[];
  /** Each period's totals. */
  totals: { current: DailyCount<QuestionField>; before: DailyCount<QuestionField> };
}

/** The days' shares and totals; undefined when neither period counted a question. */
export function unansweredShares(
  current: readonly DailyCount<QuestionField>[],
  before: readonly DailyCount<QuestionField>[],
): UnansweredShares | undefined {
  const total = (days: readonly DailyCount<QuestionField>[]) => ({
    asked: days.reduce((sum, day) => sum + day.asked, 0),
    unanswered: days.reduce((sum, day) => sum + day.unanswered, 0),
  });
  const totals = { current: total(current), before: total(before) };
  if (totals.current.asked + totals.before.asked === 0) return undefined;
  const share = (day: DailyCount<QuestionField>) =>
    day.asked === 0 ? undefined : Math.round((day.unanswered / day.asked) * 100);
  return { current: current.map(share), before: before.map(share), totals };
}

export type DailyResult =
  | { kind: 'series'; series: DailySeries }
  | { kind: 'too_long'; maxDays: number }
  | { kind: 'failure'; reason: DeskFailureKind };

/** Customer messages a day over `period` and the period before it; fails only when no day of `period` was read. */
export async function dailyQuestions(
  api: Pick<StatisticsApi, 'getSessionMessageStatistics'>,
  period: Period,
  scope: { requestId?: string } = {},
): Promise<DailyResult> {
  const tooLong = tooLongForAChart(period);
  if (tooLong) return tooLong;
  const previous = previousPeriod(period);
  const days = daysOf(period);
  const { length } = days;
  let firstFailure: unknown;
  const read = await inBatches([...days, ...daysOf(previous)], async (day) => {
    try {
      const item = await api.getSessionMessageStatistics({ startDate: day, endDate: day }, scope);
      return item.totalCustomerMessage;
    } catch (error) {
      firstFailure ??= error;
      return undefined;
    }
  });
  const current = read.slice(0, length);
  if (current.every((value) => value === undefined) && firstFailure !== undefined) {
    return { kind: 'failure', reason: platformFailureReason(firstFailure) };
  }
  return { kind: 'series', series: { period, previous, days, current, before: read.slice(length) } };
}
