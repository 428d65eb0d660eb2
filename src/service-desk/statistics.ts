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

/** How a figure is read from the platform's answer, and which way is good news. */
interface FigureSpec<Item> {
  kind: FigureKind;
  read: (item: Item) => number | undefined;
  better?: 'higher' | 'lower';
}

// `better`: more answered, resolved or well rated is good news; volumes are neither.
const MESSAGE_FIGURES = {
  totalMessages: { kind: 'count', read: (item) => item.totalMessage },
  robotMessages: { kind: 'count', read: (item) => item.robotMessage },
  robotShare: {
    kind: 'percent',
    read: (item) =>
      item.robotMessage !== undefined && item.totalMessage
        ? (item.robotMessage / item.totalMessage) * 100
        : undefined,
    better: 'higher',
  },
  customerMessages: { kind: 'count', read: (item) => item.totalCustomerMessage },
  humanMessages: { kind: 'count', read: (item) => item.totalHumanMessage },
  averagePerSession: { kind: 'average', read: (item) => item.avgMessage },
  robotAveragePerSession: { kind: 'average', read: (item) => item.robotAvgMessage },
  humanAveragePerSession: { kind: 'average', read: (item) => item.humanAvgMessage },
} satisfies Record<string, FigureSpec<SessionMessageStatistics>>;

const SATISFACTION_FIGURES = {
  effectiveSessions: { kind: 'count', read: (item) => item.effectSessionCount },
  evaluations: { kind: 'count', read: (item) => item.totalTimes },
  participationRate: { kind: 'percent', read: (item) => rate(item.canpinglv), better: 'higher' },
  resolvedRate: { kind: 'percent', read: (item) => rate(item.solvedLv), better: 'higher' },
  averageScore: { kind: 'average', read: (item) => decimal(item.avgNum), better: 'higher' },
  goodRate: { kind: 'percent', read: (item) => rate(item.goodLv), better: 'higher' },
  middleRate: { kind: 'percent', read: (item) => rate(item.middleLv) },
  badRate: { kind: 'percent', read: (item) => rate(item.badLv), better: 'lower' },
  score4: { kind: 'count', read: (item) => item.score4, better: 'higher' },
  score3: { kind: 'count', read: (item) => item.score3 },
  score2: { kind: 'count', read: (item) => item.score2 },
  score1: { kind: 'count', read: (item) => item.score1, better: 'lower' },
} satisfies Record<string, FigureSpec<HumanSatisfactionStatistics>>;

type FigureKey = keyof typeof MESSAGE_FIGURES | keyof typeof SATISFACTION_FIGURES;

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
      messages: figuresOf(MESSAGE_FIGURES, messages.value, before?.messages),
      satisfaction: figuresOf(SATISFACTION_FIGURES, satisfaction.value, before?.satisfaction),
      previousMissing: before === undefined,
    },
  };
}

/** Each figure of `specs`, read from the period's answer and, when there is one, the period before's. */
function figuresOf<Item, Key extends FigureKey>(
  specs: Record<Key, FigureSpec<Item>>,
  now: Item,
  then: Item | undefined,
): Figure[] {
  return (Object.keys(specs) as Key[]).map((key) => {
    const { kind, read, better } = specs[key];
    return { key, kind, better, current: read(now), previous: then === undefined ? undefined : read(then) };
  });
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
