// The questions-a-day chart in the reader's language: what is drawn, its alt text, and the note after it.
import type { types } from '@slack/bolt';
import type { DailyComparison } from '../../charts/daily-comparison.js';
import type { DailyRatingsChart } from '../../charts/daily-ratings.js';
import type { Locale } from '../../conversation/locale.js';
import type { DailyCount, QuestionField, RatingSeries } from '../../service-desk/daily-counts.js';
import type { DailySeries } from '../../service-desk/daily-statistics.js';
import type { Period } from '../../service-desk/statistics.js';
import { truncate } from '../../util/truncate.js';
import { BLOCK_KIT } from '../kit/block-kit-limits.js';
import { button, context, plainText, type RenderedMessage } from '../kit/elements.js';
import { ACTION_STATS_CHART_RETRY } from './ids.js';
import { t } from './messages.js';

/** Slack's limit on a file's alt text. */
const ALT_TEXT_MAX = 1000;
/** Up to a week, each day is named with its weekday: which day was busy is the question. */
const WEEKDAY_DAYS_MAX = 7;

/** A calendar day (yyyy-MM-dd) as the reader writes it; the day is the platform's, so no zone moves it. */
function dayLabel(locale: Locale, day: string, withWeekday: boolean): string {
  const format = new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    ...(withWeekday ? { weekday: 'short' } : {}),
    timeZone: 'UTC',
  });
  return format.format(new Date(`${day}T00:00:00Z`));
}

const sum = (values: readonly (number | undefined)[]) =>
  values.reduce<number>((total, value) => total + (value ?? 0), 0);

export interface QuestionsChart {
  /** What is drawn, the cache's key with the workspace. */
  drawing: DailyComparison;
  altText: string;
  title: string;
  /** The file's message in the conversation. */
  comment: string;
  filename: string;
}

export function questionsChart(locale: Locale, series: DailySeries): QuestionsChart {
  const { period, previous, days, current, before } = series;
  const short = (day: string) => dayLabel(locale, day, false);
  const missing = current.filter((value) => value === undefined).length;
  const numbers = new Intl.NumberFormat(locale);
  const figure = (value: number | undefined) =>
    value === undefined ? t(locale, 'chart_alt_unknown') : numbers.format(value);
  const title = t(locale, 'chart_label_questions');
  const dayTexts = days.map((day, index) =>
    t(locale, 'chart_alt_day', { day: short(day), value: figure(current[index]) }),
  );
  const altText = t(locale, 'chart_alt', {
    from: short(period.from),
    to: short(period.to),
    days: dayTexts.join(locale === 'zh-CN' ? '，' : ', '),
    total: sum(current),
    count: days.length,
    previousFrom: short(previous.from),
    previousTo: short(previous.to),
    previousTotal: before.every((value) => value === undefined)
      ? t(locale, 'chart_alt_unknown')
      : numbers.format(sum(before)),
  });
  const { unanswered } = series;
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const shareOf = ({ asked, unanswered: left }: DailyCount<QuestionField>) =>
    asked === 0 ? t(locale, 'chart_alt_unknown') : percent.format(left / asked);
  const unansweredText = unanswered
    ? t(locale, 'chart_alt_unanswered', {
        share: shareOf(unanswered.totals.current),
        asked: unanswered.totals.current.asked,
        previousShare: shareOf(unanswered.totals.before),
      })
    : '';
  return {
    drawing: {
      title,
      subtitle: missing > 0 ? t(locale, 'chart_label_missing', { count: missing }) : undefined,
      labels: days.map((day) => dayLabel(locale, day, days.length <= WEEKDAY_DAYS_MAX)),
      current: {
        name: t(locale, 'chart_label_current', { from: short(period.from), to: short(period.to) }),
        values: current,
      },
      previous: {
        name: t(locale, 'chart_label_previous', { from: short(previous.from), to: short(previous.to) }),
        values: before,
      },
      share: unanswered && {
        current: { name: t(locale, 'chart_label_unanswered'), values: unanswered.current },
        // Counting began within the period: a legend entry for a line of nothing would only puzzle.
        previous:
          unanswered.totals.before.asked === 0
            ? undefined
            : { name: t(locale, 'chart_label_unanswered_previous'), values: unanswered.before },
      },
      locale,
    },
    altText: truncate(`${altText}${unansweredText}`, ALT_TEXT_MAX),
    title,
    comment: t(locale, 'chart_comment', { from: short(period.from), to: short(period.to) }),
    filename: `questions-${period.from}-${period.to}.png`,
  };
}

export interface RatingsChart {
  /** What is drawn, the cache's key with the workspace. */
  drawing: DailyRatingsChart;
  altText: string;
  title: string;
  filename: string;
}

/** 👍/👎 a day and the helpful share; undefined when the period holds no rating to draw. */
export function ratingsChart(locale: Locale, series: RatingSeries): RatingsChart | undefined {
  const { period, days, counts } = series;
  const up = counts.map((day) => day.up);
  const down = counts.map((day) => day.down);
  const [ups, downs] = [sum(up), sum(down)];
  if (ups + downs === 0) return undefined;
  const short = (day: string) => dayLabel(locale, day, false);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const title = t(locale, 'chart_label_ratings');
  const dayTexts = days.map((day, index) =>
    t(locale, 'chart_ratings_alt_day', { day: short(day), up: up[index] ?? 0, down: down[index] ?? 0 }),
  );
  const altText = t(locale, 'chart_ratings_alt', {
    from: short(period.from),
    to: short(period.to),
    days: dayTexts.join(locale === 'zh-CN' ? '，' : ', '),
    up: ups,
    down: downs,
    rate: percent.format(ups / (ups + downs)),
  });
  return {
    drawing: {
      title,
      labels: days.map((day) => dayLabel(locale, day, days.length <= WEEKDAY_DAYS_MAX)),
      up: { name: t(locale, 'chart_label_up'), values: up },
      down: { name: t(locale, 'chart_label_down'), values: down },
      rate: {
        name: t(locale, 'chart_label_rate'),
        values: counts.map((day) =>
          day.up + day.down === 0 ? undefined : Math.round((day.up / (day.up + day.down)) * 100),
        ),
      },
      locale,
    },
    altText: truncate(altText, ALT_TEXT_MAX),
    title,
    filename: `ratings-${period.from}-${period.to}.png`,
  };
}

export type ChartOutcome =
  | { kind: 'sent' }
  | { kind: 'too_long'; maxDays: number }
  | { kind: 'failed'; period: Period };

/** Under the figures: where the chart went (after Try again), or why none came, with Try again. */
export function renderChartNote(locale: Locale, outcome: ChartOutcome): RenderedMessage {
  switch (outcome.kind) {
    case 'sent':
      return { text: t(locale, 'chart_sent'), blocks: [context(t(locale, 'chart_sent'))] };
    case 'too_long': {
      const text = t(locale, 'chart_too_long', { days: outcome.maxDays });
      return { text, blocks: [context(text)] };
    }
    case 'failed': {
      const text = t(locale, 'chart_failed');
      const retry: types.ActionsBlock = {
        type: 'actions',
        elements: [
          button(t(locale, 'cs_try_again'), ACTION_STATS_CHART_RETRY, {
            value: `${outcome.period.from}/${outcome.period.to}`,
          }),
        ],
      };
      return { text, blocks: [context(text), retry] };
    }
  }
}

/** A chart shared in the operator's DM, as the Home's statistics view names it. */
export interface ViewImage {
  fileId: string;
  chart: Pick<QuestionsChart, 'title' | 'altText'>;
}

/** The charts under the figures in the Home's statistics view, as far as they have come. */
export type ViewChart =
  | { kind: 'drawing' }
  | { kind: 'images'; images: readonly ViewImage[] }
  | { kind: 'in_dm' }
  | { kind: 'failed' };

export function renderViewChart(locale: Locale, chart: ViewChart): types.KnownBlock[] {
  switch (chart.kind) {
    case 'drawing':
      return [context(t(locale, 'chart_drawing'))];
    case 'images':
      // The files are shared in the operator's DM: Slack shows a slack_file only to people who can see it.
      return chart.images.map(({ fileId, chart: words }) => ({
        type: 'image',
        slack_file: { id: fileId },
        alt_text: words.altText,
        title: plainText(words.title, BLOCK_KIT.image.title),
      }));
    case 'in_dm':
      return [context(t(locale, 'chart_sent'))];
    case 'failed':
      return [context(t(locale, 'chart_failed'))];
  }
}
