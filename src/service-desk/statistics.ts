// The desk's figures for a range, each beside the same-length period before it, so a lead sees what moved.

import type {
  HumanSatisfactionStatistics,
  SessionMessageStatistics,
  StatisticsRequest,
} from '../platform/schemas.js';
import { addDays, daysBetween, isCalendarDate, todayIn } from '../util/time-zone.js';
import { type DeskFailureKind, platformFailureReason } from './platform-failure.js';

export interface StatisticsApi {
  getSessionMessageStatistics(
    request: StatisticsRequest,
    options?: { requestId?: string },
  ): Promise<SessionMessageStatistics>;
  getHumanSatisfactionStatistics(
    request: StatisticsRequest,
    options?: { requestId?: string },
  ): Promise<HumanSatisfactionStatistics>;
}

/** Inclusive calendar days, yyyy-MM-dd. */
export interface Period {
  from: string;
  to: string;
}

export type FigureKind = 'count' | 'average' | 'percent';

export interface Figure {
  key: FigureKey;
  kind: FigureKind;
  /** Which way is good news; undefined for figures that are neither (how many messages came). */
  better?: 'higher' | 'lower' | undefined;
  current: number | undefined;
  previous: number | undefined;
}

type FigureKey =
  | 'totalMessages'
  | 'robotMessages'
  | 'robotShare'
  | 'customerMessages'
  | 'humanMessages'
  | 'averagePerSession'
  | 'robotAveragePerSession'
  | 'humanAveragePerSession'
  | 'effectiveSessions'
  | 'evaluations'
  | 'participationRate'
  | 'resolvedRate'
  | 'averageScore'
  | 'goodRate'
  | 'middleRate'
  | 'badRate'
  | 'score4'
  | 'score3'
  | 'score2'
  | 'score1';

/** Which way a figure is good news: more answered, resolved or well rated is better; volumes neither. */
const BETTER: Readonly<Partial<Record<FigureKey, 'higher' | 'lower'>>> = {
  robotShare: 'higher',
  participationRate: 'higher',
  resolvedRate: 'higher',
  averageScore: 'higher',
  goodRate: 'higher',
  badRate: 'lower',
  score4: 'higher',
  score1: 'lower',
};

export interface StatisticsReport {
  period: Period;
  previous: Period;
  messages: Figure[];
  satisfaction: Figure[];
  /** Set when the previous period's figures could not be read: the report shows no comparison. */
  previousMissing: boolean;
}

export type StatisticsResult =
  | { kind: 'report'; report: StatisticsReport }
  | { kind: 'failure'; reason: DeskFailureKind };

const DEFAULT_DAYS = 7;
/** A year and a day: longer ranges are more than a glance, and costlier for the platform. */
export const STATISTICS_DAYS_MAX = 366;

type PeriodProblem = 'not_a_date' | 'too_many_dates' | 'ends_before_start' | 'too_long' | 'in_the_future';

/**
 * The period a command asks for: its two dates, one (from then to today), or none (the last 7 days),
 * "today" being the reader's in `timeZone` (UTC where the reader's zone is not known).
 */
export function periodOf(
  dates: readonly string[],
  today: Date,
  timeZone = 'UTC',
): { kind: 'ok'; period: Period } | { kind: 'invalid'; problem: PeriodProblem } {
  if (dates.length > 2) return { kind: 'invalid', problem: 'too_many_dates' };
  const [from, to] = dates;
  const todayText = todayIn(timeZone, today);
  const start = from === undefined ? addDays(todayText, -(DEFAULT_DAYS - 1)) : from;
  const end = to ?? todayText;
  if (!isCalendarDate(start) || !isCalendarDate(end)) return { kind: 'invalid', problem: 'not_a_date' };
  // Before the order of the ends: one future date runs "to today", which is before it.
  if (start > todayText) return { kind: 'invalid', problem: 'in_the_future' };
  if (end < start) return { kind: 'invalid', problem: 'ends_before_start' };
  if (daysBetween(start, end) + 1 > STATISTICS_DAYS_MAX) return { kind: 'invalid', problem: 'too_long' };
  return { kind: 'ok', period: { from: start, to: end } };
}

/** yyyy-MM-dd of each day of `period`, in order. */
export function daysOf(period: Period): string[] {
  const length = daysBetween(period.from, period.to) + 1;
  return Array.from({ length }, (_, index) => addDays(period.from, index));
}

/** The period of the same length that ends the day before `period` starts. */
export function previousPeriod(period: Period): Period {
  const days = daysBetween(period.from, period.to) + 1;
  const to = addDays(period.from, -1);
  return { from: addDays(to, -(days - 1)), to };
}

export async function statisticsReport(
  api: StatisticsApi,
  period: Period,
  scope: { requestId?: string } = {},
): Promise<StatisticsResult> {
  const previous = previousPeriod(period);
  const ask = (range: Period) => ({ startDate: range.from, endDate: range.to });
  const [messages, satisfaction, previousMessages, previousSatisfaction] = await Promise.allSettled([
    api.getSessionMessageStatistics(ask(period), scope),
    api.getHumanSatisfactionStatistics(ask(period), scope),
    api.getSessionMessageStatistics(ask(previous), scope),
    api.getHumanSatisfactionStatistics(ask(previous), scope),
  ]);
  if (messages.status === 'rejected')
    return { kind: 'failure', reason: platformFailureReason(messages.reason) };
  if (satisfaction.status === 'rejected') {
    return { kind: 'failure', reason: platformFailureReason(satisfaction.reason) };
  }
  const before =
    previousMessages.status === 'fulfilled' && previousSatisfaction.status === 'fulfilled'
      ? { messages: previousMessages.value, satisfaction: previousSatisfaction.value }
      : undefined;
  return {
    kind: 'report',
    report: {
      period,
      previous,
      messages: messageFigures(messages.value, before?.messages),
      satisfaction: satisfactionFigures(satisfaction.value, before?.satisfaction),
      previousMissing: before === undefined,
    },
  };
}

/** Each figure read from the period's answer and, when there is one, the period before's. */
function figuresOf<Item>(now: Item, then: Item | undefined) {
  return (key: FigureKey, kind: FigureKind, read: (item: Item) => number | undefined): Figure => ({
    key,
    kind,
    better: BETTER[key],
    current: read(now),
    previous: then === undefined ? undefined : read(then),
  });
}

function messageFigures(now: SessionMessageStatistics, then: SessionMessageStatistics | undefined): Figure[] {
  const figure = figuresOf(now, then);
  return [
    figure('totalMessages', 'count', (item) => item.totalMessage),
    figure('robotMessages', 'count', (item) => item.robotMessage),
    figure('robotShare', 'percent', (item) =>
      item.robotMessage !== undefined && item.totalMessage
        ? (item.robotMessage / item.totalMessage) * 100
        : undefined,
    ),
    figure('customerMessages', 'count', (item) => item.totalCustomerMessage),
    figure('humanMessages', 'count', (item) => item.totalHumanMessage),
    figure('averagePerSession', 'average', (item) => item.avgMessage),
    figure('robotAveragePerSession', 'average', (item) => item.robotAvgMessage),
    figure('humanAveragePerSession', 'average', (item) => item.humanAvgMessage),
  ];
}

function satisfactionFigures(
  now: HumanSatisfactionStatistics,
  then: HumanSatisfactionStatistics | undefined,
): Figure[] {
  const figure = figuresOf(now, then);
  return [
    figure('effectiveSessions', 'count', (item) => item.effectSessionCount),
    figure('evaluations', 'count', (item) => item.totalTimes),
    figure('participationRate', 'percent', (item) => rate(item.canpinglv)),
    figure('resolvedRate', 'percent', (item) => rate(item.solvedLv)),
    figure('averageScore', 'average', (item) => decimal(item.avgNum)),
    figure('goodRate', 'percent', (item) => rate(item.goodLv)),
    figure('middleRate', 'percent', (item) => rate(item.middleLv)),
    figure('badRate', 'percent', (item) => rate(item.badLv)),
    figure('score4', 'count', (item) => item.score4),
    figure('score3', 'count', (item) => item.score3),
    figure('score2', 'count', (item) => item.score2),
    figure('score1', 'count', (item) => item.score1),
  ];
}

/** "35.50%" is 35.5 %; a bare number up to 1 is a fraction ("0.355"), else percent; anything else unknown. */
export function rate(text: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text ?? '');
  if (!match) return undefined;
  const value = Number(match[1]);
  if (match[2] === '%') return value;
  return value <= 1 ? value * 100 : value;
}

function decimal(text: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(text ?? '');
  return match ? Number(match[1]) : undefined;
}
